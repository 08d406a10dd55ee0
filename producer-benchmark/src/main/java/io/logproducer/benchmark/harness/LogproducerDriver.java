package io.logproducer.benchmark.harness;

import io.logproducer.LogRecord;
import io.logproducer.Producer;
import io.logproducer.ProducerConfig;
import io.logproducer.ProducerMetrics;
import io.logproducer.SpoolConfig;
import io.logproducer.SpoolDurability;
import io.logproducer.otlp.OtlpGrpcExporter;
import io.logproducer.otlp.OtlpGrpcExporterBuilder;
import io.logproducer.otlp.OtlpHttpExporter;
import io.logproducer.otlp.OtlpHttpExporterBuilder;
import io.logproducer.spi.Exporter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Drives the real logproducer {@link Producer} with the OTLP/HTTP exporter (protobuf). */
final class LogproducerDriver implements Driver {

  private final Producer producer;
  private final String clientId;
  private final Path spoolDir; // null: memory-only

  LogproducerDriver(RunSpec spec, String endpoint, String clientId) {
    this.clientId = clientId;
    this.spoolDir = spec.spoolDir().isEmpty() ? null : freshDir(spec.spoolDir(), clientId);
    ProducerConfig.Builder config =
        ProducerConfig.builder()
            .setClientId(clientId)
            .setTotalSizeInBytes(spec.totalSizeInBytes())
            .setBatchSizeInBytes(spec.batchSizeInBytes())
            .setBatchCountThreshold(spec.batchCountThreshold())
            .setLingerMillis(spec.lingerMillis())
            .setSendThreads(spec.sendThreads())
            .setCompression(spec.compression())
            .setCompressionLevel(spec.compressionLevel())
            .setJmxEnabled(false);
    if (spoolDir != null) {
      config.setSpool(
          SpoolConfig.builder(spoolDir)
              .setDurability(SpoolDurability.valueOf(spec.spoolDurability()))
              .setGroupCommitMillis(200)
              .build());
    }
    Exporter exporter;
    if (spec.grpc()) {
      OtlpGrpcExporterBuilder builder =
          OtlpGrpcExporter.builder().setEndpoint(endpoint).setServiceName("logproducer-benchmark");
      if (spec.stripes() > 0) {
        builder.setStripes(spec.stripes());
      }
      exporter = builder.build();
    } else {
      OtlpHttpExporterBuilder builder =
          OtlpHttpExporter.builder().setEndpoint(endpoint).setServiceName("logproducer-benchmark");
      if (spec.stripes() > 0) {
        builder.setStripes(spec.stripes());
      }
      exporter = builder.build();
    }
    this.producer = new Producer(config.build(), exporter);
  }

  @Override
  public void send(LogRecord record) {
    producer.send(record);
  }

  @Override
  public void flush() {
    producer.flush();
  }

  @Override
  public Counters counters() {
    ProducerMetrics m = producer.getMetrics();
    return new Counters(
        m.getRecordsAccepted(),
        m.getRecordsSent(),
        m.getRecordsFailed() + m.getRecordsRejected(),
        m.getRecordsDropped(),
        m.getBytesSent(),
        m.getWireBytesSent(),
        m.getPeakBufferedBytes(),
        m.getTotalSizeInBytes(),
        m.getSendBlockedNanos(),
        m.getRequests(),
        m.getRequestLatencyAvgMillis(),
        m.getBufferedBytes());
  }

  @Override
  public String threadGroup(String name) {
    if (name.startsWith(clientId + "-sender")) {
      return "sender";
    }
    if (name.startsWith(clientId + "-linger")) {
      return "linger";
    }
    return null;
  }

  @Override
  public void close() {
    producer.close();
    if (spoolDir != null) {
      deleteTree(spoolDir);
    }
  }

  private static Path freshDir(String parent, String clientId) {
    try {
      return Files.createTempDirectory(Files.createDirectories(Path.of(parent)), clientId + "-");
    } catch (IOException e) {
      throw new UncheckedIOException("spoolDir " + parent, e);
    }
  }

  private static void deleteTree(Path dir) {
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path f : (Iterable<Path>) files.sorted(Comparator.reverseOrder())::iterator) {
        Files.deleteIfExists(f);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("deleting the spool " + dir, e);
    }
  }
}
