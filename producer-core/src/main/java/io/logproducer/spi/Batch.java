package io.logproducer.spi;

import java.io.IOException;
import java.io.OutputStream;

/**
 * A sealed batch as an exporter sees it: the encoded records of one shard, in append order.
 * Read-only; valid only during the {@link Exporter} call it is passed to.
 */
public interface Batch {

  /** {@return the shard key every record of this batch was given by {@link Exporter#shardKey}} */
  Object shardKey();

  /** {@return the number of records, at least 1} */
  int recordCount();

  /** {@return the sum of the records' encoded sizes, in bytes} */
  int sizeInBytes();

  /**
   * The encoded size of one record.
   *
   * @param index the record's 0-based index, below {@link #recordCount()}
   * @return its encoded size in bytes
   * @throws IndexOutOfBoundsException if {@code index} is out of range
   */
  int recordSize(int index);

  /**
   * Writes all records' encoded bytes, back to back, in append order, to {@code out}: {@link
   * #sizeInBytes()} bytes.
   *
   * @param out the destination; not closed
   * @throws IOException if {@code out} throws it
   */
  void writeTo(OutputStream out) throws IOException;

  /**
   * Writes the encoded bytes of one record to {@code out}: {@link #recordSize(int)
   * recordSize(index)} bytes.
   *
   * @param index the record's 0-based index, below {@link #recordCount()}
   * @param out the destination; not closed
   * @throws IOException if {@code out} throws it
   * @throws IndexOutOfBoundsException if {@code index} is out of range
   */
  void writeRecord(int index, OutputStream out) throws IOException;

  /**
   * {@return the 1-based attempt this call is: 1 for the first export, 2 for the first retry, …}
   */
  int attempt();
}
