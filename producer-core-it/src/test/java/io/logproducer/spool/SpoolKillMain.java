package io.logproducer.spool;

import io.logproducer.LogRecord;
import io.logproducer.Producer;
import io.logproducer.ProducerConfig;
import io.logproducer.SendResult;
import io.logproducer.SpoolConfig;
import io.logproducer.SpoolDurability;
import io.logproducer.spi.ExportResult;
import io.logproducer.testing.InMemoryExporter;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;

/**
 * The child JVM of {@link SpoolKillTest}: a producer with a spool in {@code args[0]} whose receiver
 * is down sends {@code args[1]} records with ids from {@code args[2]} (default 0) on ("r-<id>",
 * shard "shard-(id mod 4)") and prints {@code OUTCOME <status> <id>} for each outcome as it gets
 * it, then {@code SENT}; it then waits on its standard input until it is killed.
 */
public final class SpoolKillMain {

  private SpoolKillMain() {}

  public static void main(String[] args) throws Exception {
    io.logproducer.testsupport.ChildOutput.lineAtomic();
    int n = Integer.parseInt(args[1]);
    int first = args.length > 2 ? Integer.parseInt(args[2]) : 0;
    InMemoryExporter exporter = InMemoryExporter.create();
    exporter.respondWith(b -> ExportResult.retryable("receiver down", null, -1));
    ProducerConfig config =
        SpoolTestSettings.producer("spool-kill-child", 300)
            .setSpool(
                SpoolConfig.builder(Paths.get(args[0]))
                    .setSegmentBytes(64 * 1024)
                    .setMaxBytes(8L << 20)
                    .setDurability(SpoolDurability.GROUP_COMMIT)
                    .setGroupCommitMillis(20)
                    .build())
            .build();
    Producer p = new Producer(config, exporter);
    for (int i = first; i < first + n; i++) {
      int id = i;
      p.send(
          LogRecord.builder().setBody("r-" + i).setDestination("shard-" + (i % 4)).build(),
          (SendResult r) -> System.out.println("OUTCOME " + r.getStatus() + " " + id));
    }
    System.out.println("SENT");
    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    while (in.readLine() != null) {
      // wait for the kill
    }
  }
}
