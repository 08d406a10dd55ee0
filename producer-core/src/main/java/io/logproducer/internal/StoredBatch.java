package io.logproducer.internal;

import io.logproducer.spi.Batch;
import java.io.OutputStream;

/**
 * A batch read back from the spool, as {@link io.logproducer.spi.Exporter#export} sees it when a
 * stored request body is exported again: its shard key, record count, encoded size and attempt are
 * known; its records are not (the body is already framed and compressed), so the record accessors
 * throw {@link UnsupportedOperationException}. Immutable apart from the attempt; confined to the
 * replay thread.
 */
final class StoredBatch implements Batch {
  private final Object shardKey;
  private final int recordCount;
  private final int sizeInBytes;
  private int attempt;

  StoredBatch(Object shardKey, int recordCount, int sizeInBytes) {
    this.shardKey = shardKey;
    this.recordCount = recordCount;
    this.sizeInBytes = sizeInBytes;
  }

  void nextAttempt() {
    attempt++;
  }

  @Override
  public Object shardKey() {
    return shardKey;
  }

  @Override
  public int recordCount() {
    return recordCount;
  }

  @Override
  public int sizeInBytes() {
    return sizeInBytes;
  }

  @Override
  public int recordSize(int index) {
    throw unavailable();
  }

  @Override
  public void writeTo(OutputStream out) {
    throw unavailable();
  }

  @Override
  public void writeRecord(int index, OutputStream out) {
    throw unavailable();
  }

  @Override
  public int attempt() {
    return attempt;
  }

  private static UnsupportedOperationException unavailable() {
    return new UnsupportedOperationException(
        "a batch replayed from the spool carries its request body only, not its records");
  }

  @Override
  public String toString() {
    return "StoredBatch{shard="
        + shardKey
        + ", records="
        + recordCount
        + ", attempt="
        + attempt
        + '}';
  }
}
