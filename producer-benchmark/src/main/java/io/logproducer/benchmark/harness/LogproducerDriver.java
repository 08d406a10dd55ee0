package io.logproducer.benchmark.harness;

import io.logproducer.LogRecord;
import io.logproducer.Producer;
import io.logproducer.ProducerConfig;
import io.logproducer.ProducerMetrics;
import io.logproducer.otlp.OtlpHttpExporter;
import io.logproducer.otlp.OtlpHttpExporterBuilder;

/** Drives the real logproducer {@link Producer} with the OTLP/HTTP exporter (protobuf). */
final class LogproducerDriver implements Driver {

  private final Producer producer;
  private final String clientId;

  LogproducerDriver(RunSpec spec, String endpoint, String clientId) {
    this.clientId = clientId;
    ProducerConfig config =
        ProducerConfig.builder()
            .setClientId(clientId)
            .setTotalSizeInBytes(spec.totalSizeInBytes())
            .setBatchSizeInBytes(spec.batchSizeInBytes())
            .setBatchCountThreshold(spec.batchCountThreshold())
            .setLingerMillis(spec.lingerMillis())
            .setSendThreads(spec.sendThreads())
            .setCompression(spec.compression())
            .setCompressionLevel(spec.compressionLevel())
            .setJmxEnabled(false)
            .build();
    OtlpHttpExporterBuilder builder =
        OtlpHttpExporter.builder().setEndpoint(endpoint).setServiceName("logproducer-benchmark");
    if (spec.stripes() > 0) {
      builder.setStripes(spec.stripes());
    }
    OtlpHttpExporter exporter = builder.build();
    this.producer = new Producer(config, exporter);
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
  }
}
