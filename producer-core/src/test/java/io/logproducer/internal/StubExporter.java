package io.logproducer.internal;

import io.logproducer.LogRecord;
import io.logproducer.ProducerConfig;
import io.logproducer.spi.Batch;
import io.logproducer.spi.Exporter;
import io.logproducer.spi.ExporterCapabilities;
import io.logproducer.spi.RecordEncoder;
import java.io.IOException;
import java.io.OutputStream;

/**
 * The parts of an {@link Exporter} the data-path tests do not vary: 1 MiB batches, a record encoded
 * as one byte, one shard {@code "s"}, the batch's records as the request; a test overrides {@link
 * #export} and whatever step it observes.
 */
abstract class StubExporter implements Exporter {

  @Override
  public void start(ProducerConfig config) {}

  @Override
  public ExporterCapabilities capabilities() {
    return ExporterCapabilities.builder(1 << 20).build();
  }

  @Override
  public RecordEncoder encoder() {
    return (LogRecord record, io.logproducer.spi.EncodeBuffer out) -> out.writeByte(1);
  }

  @Override
  public Object shardKey(LogRecord record) {
    return "s";
  }

  @Override
  public void writeRequest(Batch batch, OutputStream out) throws IOException {
    batch.writeTo(out);
  }

  @Override
  public String describe() {
    return getClass().getSimpleName();
  }

  @Override
  public void close() {}
}
