package io.logproducer.benchmark.jmh;

import io.logproducer.Compression;
import io.logproducer.LogRecord;
import io.logproducer.ProducerConfig;
import io.logproducer.spi.Batch;
import io.logproducer.spi.ExportResult;
import io.logproducer.spi.Exporter;
import io.logproducer.spi.ExporterCapabilities;
import io.logproducer.spi.RecordEncoder;
import java.io.IOException;
import java.io.OutputStream;
import java.util.concurrent.atomic.LongAdder;

/**
 * The real OTLP exporter's encoder, shards and request framing, with a transport that answers
 * success at once: isolates the producer's own path (send, batching, framing, compression) from the
 * network and the receiver.
 */
public final class DiscardingExporter implements Exporter {

  private final Exporter otlp;
  private final ExporterCapabilities capabilities;
  private final LongAdder records = new LongAdder();

  /**
   * @param otlp a built but not started OTLP exporter (its transport is never used)
   */
  public DiscardingExporter(Exporter otlp) {
    this.otlp = otlp;
    this.capabilities =
        ExporterCapabilities.builder(otlp.capabilities().maxBatchSizeInBytes()).build();
  }

  @Override
  public void start(ProducerConfig config) {
    // the wrapped exporter's transport stays unstarted
  }

  /**
   * Default compression none, every compression supported, the OTLP exporter's largest batch, no
   * request timeout.
   */
  @Override
  public ExporterCapabilities capabilities() {
    return capabilities;
  }

  @Override
  public RecordEncoder encoder() {
    return otlp.encoder();
  }

  @Override
  public Object shardKey(LogRecord record) {
    return otlp.shardKey(record);
  }

  @Override
  public void writeRequest(Batch batch, OutputStream out) throws IOException {
    otlp.writeRequest(batch, out);
  }

  @Override
  public ExportResult export(Batch batch, byte[] body, int length, Compression compression) {
    records.add(batch.recordCount());
    return ExportResult.success();
  }

  /** Records "exported" so far. */
  public long records() {
    return records.sum();
  }

  @Override
  public String describe() {
    return "discard";
  }

  @Override
  public void close() {
    otlp.close();
  }
}
