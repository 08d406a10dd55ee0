package io.logproducer.memory;

import io.logproducer.Compression;
import io.logproducer.LogRecord;
import io.logproducer.ProducerConfig;
import io.logproducer.spi.Batch;
import io.logproducer.spi.EncodeBuffer;
import io.logproducer.spi.ExportResult;
import io.logproducer.spi.Exporter;
import io.logproducer.spi.ExporterCapabilities;
import io.logproducer.spi.RecordEncoder;
import java.io.IOException;
import java.io.OutputStream;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A minimal exporter for the memory tests (TestExporter's encoding: a 4-byte big-endian length and the body's UTF-8)
 * that keeps nothing per request: it either refuses everything as retryable ("down", the receiver that never
 * recovers) or accepts everything. The shard is the record's destination. Records whose destination starts with
 * {@code "ascii"} are encoded through {@link EncodeBuffer#writeAscii} (their bodies must be ASCII), the others through
 * {@link EncodeBuffer#writeUtf8}, so both bulk writers are exercised.
 */
public final class MemoryTestExporter implements Exporter {

  private static final String DEFAULT_SHARD = "default";

  private final boolean refuse;
  /** Export calls so far. */
  public final AtomicLong calls = new AtomicLong();
  /** Records in export calls answered with success. */
  public final AtomicLong recordsAccepted = new AtomicLong();
  private volatile boolean closed;

  /** @param refuse true: answer every export {@code retryable("down")}; false: answer success */
  public MemoryTestExporter(boolean refuse) {
    this.refuse = refuse;
  }

  @Override
  public void start(ProducerConfig config) {
  }

  /** Default and only compression none; batches of at most 16 MiB; no request timeout. */
  @Override
  public ExporterCapabilities capabilities() {
    return ExporterCapabilities.builder(1 << 24).setSupportedCompressions(Compression.NONE).build();
  }

  @Override
  public RecordEncoder encoder() {
    return MemoryTestExporter::encode;
  }

  private static void encode(LogRecord record, EncodeBuffer out) {
    String body = record.getBody() == null ? "" : record.getBody().asString();
    String destination = record.getDestination();
    if (destination != null && destination.startsWith("ascii")) {
      out.writeIntBigEndian(body.length());
      out.writeAscii(body);
    } else {
      out.writeIntBigEndian(EncodeBuffer.utf8Length(body));
      out.writeUtf8(body);
    }
  }

  @Override
  public Object shardKey(LogRecord record) {
    String d = record.getDestination();
    return d == null ? DEFAULT_SHARD : d;
  }

  @Override
  public void writeRequest(Batch batch, OutputStream out) throws IOException {
    batch.writeTo(out);
  }

  @Override
  public ExportResult export(Batch batch, byte[] body, int length, Compression compression) {
    calls.incrementAndGet();
    if (refuse || closed) {
      return ExportResult.retryable("down", null, -1);
    }
    recordsAccepted.addAndGet(batch.recordCount());
    return ExportResult.success();
  }

  @Override
  public String describe() {
    return "memory-test://" + (refuse ? "refusing" : "accepting");
  }

  @Override
  public void close() {
    closed = true;
  }
}
