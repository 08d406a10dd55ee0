package io.logproducer.internal;

import io.logproducer.spi.Batch;
import java.io.OutputStream;

/**
 * A batch read back from the spool, as {@link io.logproducer.spi.Exporter#export} sees it when a
 * stored request body is exported again: its shard key, record count, encoded size and attempt are
 * known, and each record's size when the exporter asked for sizes to be stored ({@link
 * io.logproducer.spi.Exporter#exportNeedsRecordSizes()}). Its records are not: {@link #writeTo} and
 * {@link #writeRecord} throw {@link UnsupportedOperationException}, as {@link #recordSize} does
 * without stored sizes. (The stored body is the request body as shipped: compressed with the stored
 * codec, and framed by the exporter. An exporter whose transport compresses itself, as Kafka's,
 * gets uncompressed bodies; for Kafka's {@code raw} encoding the body is then exactly the records'
 * encodings back to back, which is what the sizes cut apart. The exporter reads them from the body
 * it is given, not through this batch.) Immutable apart from the attempt; confined to the replay
 * thread.
 */
final class StoredBatch implements Batch {
  private final Object shardKey;
  private final int recordCount;
  private final int sizeInBytes;
  private final int[] recordSizes;
  private int attempt;

  /**
   * @param recordSizes each record's encoded size ({@code recordCount} of them), or null when none
   *     were stored; not copied
   */
  StoredBatch(Object shardKey, int recordCount, int sizeInBytes, int[] recordSizes) {
    this.shardKey = shardKey;
    this.recordCount = recordCount;
    this.sizeInBytes = sizeInBytes;
    this.recordSizes = recordSizes;
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

  /**
   * {@inheritDoc}
   *
   * @throws UnsupportedOperationException if no record sizes were stored with this batch
   */
  @Override
  public int recordSize(int index) {
    if (recordSizes == null) {
      throw new UnsupportedOperationException(
          "a batch replayed from the spool carries record sizes only when its exporter asks for"
              + " them (Exporter.exportNeedsRecordSizes)");
    }
    if (index < 0 || index >= recordCount) {
      throw new IndexOutOfBoundsException(
          "record " + index + " of a batch of " + recordCount + " records");
    }
    return recordSizes[index];
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
        + (recordSizes != null ? ", with record sizes" : "")
        + ", attempt="
        + attempt
        + '}';
  }
}
