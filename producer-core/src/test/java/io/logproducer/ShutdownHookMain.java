package io.logproducer;

import io.logproducer.spi.Batch;
import io.logproducer.spi.ExportResult;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;

/**
 * A child JVM for {@link ShutdownHookTest}: sends records with a long linger and returns from main without closing
 * the producer. Its exporter appends every delivered record's body to a file, one per line.
 */
public final class ShutdownHookMain {

  private ShutdownHookMain() {
  }

  public static void main(String[] args) throws Exception {
    Path out = Paths.get(args[0]);
    boolean hook = Boolean.parseBoolean(args[1]);
    int records = Integer.parseInt(args[2]);
    TestExporter exporter = new TestExporter() {
      @Override
      public ExportResult export(Batch batch, byte[] body, int length, Compression compression) {
        StringBuilder lines = new StringBuilder();
        for (int i = 0; i < batch.recordCount(); i++) {
          ByteArrayOutputStream one = new ByteArrayOutputStream();
          try {
            batch.writeRecord(i, one);
          } catch (IOException e) {
            return ExportResult.failed("unreadable", e);
          }
          byte[] b = one.toByteArray();
          lines.append(new String(b, 4, b.length - 4, StandardCharsets.UTF_8)).append('\n');
        }
        try {
          Files.write(out, lines.toString().getBytes(StandardCharsets.UTF_8), StandardOpenOption.CREATE,
              StandardOpenOption.APPEND);
        } catch (IOException e) {
          return ExportResult.failed("cannot write", e);
        }
        return ExportResult.success();
      }
    };
    Producer p = new Producer(ProducerConfig.builder().setLingerMillis(60_000).setDeliveryTimeoutMillis(120_000)
        .setShutdownHookEnabled(hook).setShutdownHookTimeoutMillis(5_000).build(), exporter);
    for (int i = 0; i < records; i++) {
      p.send(LogRecord.builder().setBody("record " + i).build());
    }
    System.out.println("sent " + records + "; exiting without close");
  }
}
