package io.logproducer.testing;

import io.logproducer.Compression;
import io.logproducer.LogRecord;
import io.logproducer.spi.ExportResult;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * One export call as an {@link InMemoryExporter} received it: the batch's records decoded back from
 * the request body, and the call's context (shard, attempt, compression, arrival time, the answer
 * given). Immutable but for the answer, which is set once, before the call returns; thread-safe.
 */
public final class ExportedBatch {

  private final List<LogRecord> records;
  private final int recordCount;
  private final int sizeInBytes;
  private final Object shardKey;
  private final int attempt;
  private final long receivedNanos;
  private final Compression compression;
  private volatile ExportResult result;

  ExportedBatch(
      List<LogRecord> records,
      int recordCount,
      int sizeInBytes,
      Object shardKey,
      int attempt,
      long receivedNanos,
      Compression compression) {
    this.records = Collections.unmodifiableList(new ArrayList<>(records));
    this.recordCount = recordCount;
    this.sizeInBytes = sizeInBytes;
    this.shardKey = shardKey;
    this.attempt = attempt;
    this.receivedNanos = receivedNanos;
    this.compression = compression;
  }

  void answered(ExportResult answer) {
    this.result = answer;
  }

  /**
   * {@return the records, decoded from the request, in append order} Empty when the exporter does
   * not retain (see {@link InMemoryExporter.Builder#setRetaining}); with {@link
   * InMemoryExporter.Builder#setBodiesOnly} they carry only their body.
   */
  public List<LogRecord> records() {
    return records;
  }

  /** {@return the records' bodies as strings (null for a record without body), in append order} */
  public List<String> bodies() {
    List<String> out = new ArrayList<>(records.size());
    for (LogRecord r : records) {
      out.add(r.getBody() == null ? null : r.getBody().toString());
    }
    return out;
  }

  /** {@return the number of records in the batch (also when they were not decoded)} */
  public int recordCount() {
    return recordCount;
  }

  /** {@return the sum of the records' encoded sizes, in bytes} */
  public int sizeInBytes() {
    return sizeInBytes;
  }

  /**
   * {@return the shard key the exporter gave the batch's records (their destination, or {@code
   * "default"})}
   */
  public Object shardKey() {
    return shardKey;
  }

  /**
   * {@return the 1-based attempt: 1 for the first export of the batch, 2 for its first retry, …}
   */
  public int attempt() {
    return attempt;
  }

  /** {@return {@link System#nanoTime()} when the call arrived, before any delay or hold} */
  public long receivedNanos() {
    return receivedNanos;
  }

  /** {@return the compression the request body was sent with} */
  public Compression compression() {
    return compression;
  }

  /** {@return the answer given to the call, or null while it is being answered} */
  public ExportResult result() {
    return result;
  }

  /** {@return whether the call was answered with success or partial success} */
  public boolean isDelivered() {
    ExportResult r = result;
    return r != null
        && (r.kind() == ExportResult.Kind.SUCCESS || r.kind() == ExportResult.Kind.PARTIAL_SUCCESS);
  }

  /** {@return a summary for assertion messages: shard, attempt, record count, bytes, answer} */
  @Override
  public String toString() {
    return "ExportedBatch{shard="
        + shardKey
        + ", attempt="
        + attempt
        + ", records="
        + recordCount
        + ", bytes="
        + sizeInBytes
        + ", compression="
        + compression
        + ", result="
        + result
        + "}";
  }
}
