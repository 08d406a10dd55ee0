package io.logproducer;

import io.logproducer.spi.ExportResult;
import io.logproducer.testing.InMemoryExporter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;

/**
 * A child JVM for {@link ShutdownHookTest}: sends records with a long linger and returns from main
 * without closing the producer. Its exporter appends every delivered record's body to a file, one
 * per line.
 */
public final class ShutdownHookMain {

  private ShutdownHookMain() {}

  public static void main(String[] args) throws Exception {
    Path out = Paths.get(args[0]);
    boolean hook = Boolean.parseBoolean(args[1]);
    int records = Integer.parseInt(args[2]);
    InMemoryExporter exporter =
        InMemoryExporter.builder().setBodiesOnly(true).setRetaining(true).build();
    exporter.respondWith(
        batch -> {
          StringBuilder lines = new StringBuilder();
          for (String body : batch.bodies()) {
            lines.append(body).append('\n');
          }
          try {
            Files.write(
                out,
                lines.toString().getBytes(StandardCharsets.UTF_8),
                StandardOpenOption.CREATE,
                StandardOpenOption.APPEND);
          } catch (IOException e) {
            return ExportResult.failed("cannot write", e);
          }
          return ExportResult.success();
        });
    Producer p =
        new Producer(
            ProducerConfig.builder()
                .setLingerMillis(60_000)
                .setDeliveryTimeoutMillis(120_000)
                .setShutdownHookEnabled(hook)
                .setShutdownHookTimeoutMillis(5_000)
                .build(),
            exporter);
    for (int i = 0; i < records; i++) {
      p.send(LogRecord.builder().setBody("record " + i).build());
    }
    System.out.println("sent " + records + "; exiting without close");
  }
}
