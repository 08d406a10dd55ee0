package io.logproducer.spool;

import io.logproducer.LogRecord;
import io.logproducer.Producer;
import io.logproducer.SpoolDurability;
import io.logproducer.spi.ExportResult;
import io.logproducer.testing.InMemoryExporter;
import java.nio.file.Paths;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The child JVM of {@link SpoolGuaranteeTest}: a producer whose receiver is down, spooling to
 * {@code args[0]} with the durability policy {@code args[1]}, sends rounds of {@link
 * SpoolGuaranteeTest#SHARDS} × 10 records (one batch per shard; ids 0, 1, 2, …, shard {@code
 * "shard-(id mod SHARDS)"}), each round once every outcome of the one before arrived. It prints
 * {@code ROUND <first id> <end id>} before a round and {@code OUTCOME <status> <id>} per outcome,
 * and runs until it is killed.
 */
public final class SpoolGuaranteeMain {

  private SpoolGuaranteeMain() {}

  /** Runs the rounds; see the class comment. */
  public static void main(String[] args) throws Exception {
    io.logproducer.testsupport.ChildOutput.lineAtomic();
    InMemoryExporter down = InMemoryExporter.create();
    down.respondWith(b -> ExportResult.retryable("receiver down", null, -1));
    Producer p =
        new Producer(
            SpoolGuaranteeTest.config(
                "guarantee-child", Paths.get(args[0]), SpoolDurability.valueOf(args[1]), 300),
            down);
    int perRound = SpoolGuaranteeTest.SHARDS * 10;
    for (int first = 0; ; first += perRound) {
      CountDownLatch outcomes = new CountDownLatch(perRound);
      System.out.println("ROUND " + first + " " + (first + perRound));
      for (int id = first; id < first + perRound; id++) {
        int i = id;
        LogRecord r =
            LogRecord.builder()
                .setBody("r-" + i)
                .setDestination("shard-" + (i % SpoolGuaranteeTest.SHARDS))
                .build();
        p.send(
            r,
            result -> {
              System.out.println("OUTCOME " + result.getStatus() + " " + i);
              outcomes.countDown();
            });
      }
      if (!outcomes.await(30, TimeUnit.SECONDS)) {
        System.out.println("STUCK at round " + first);
        System.exit(3);
      }
    }
  }
}
