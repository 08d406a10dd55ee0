package io.logproducer.spi;

import java.io.IOException;
import java.io.OutputStream;

/**
 * A sealed batch as an exporter sees it: the encoded records of one shard, in append order. Read-only; valid
 * only during the {@link Exporter} call it is passed to.
 */
public interface Batch {

  /** The shard key every record of this batch was given by {@link Exporter#shardKey}. */
  Object shardKey();

  /** Number of records, at least 1. */
  int recordCount();

  /** Sum of the records' encoded sizes, in bytes. */
  int sizeInBytes();

  /** Encoded size of record {@code index} (0-based), in bytes. */
  int recordSize(int index);

  /** Writes all records' encoded bytes, back to back, to {@code out}. */
  void writeTo(OutputStream out) throws IOException;

  /** Writes the encoded bytes of record {@code index} (0-based) to {@code out}. */
  void writeRecord(int index, OutputStream out) throws IOException;

  /** The 1-based attempt this call is: 1 for the first export, 2 for the first retry, … */
  int attempt();
}
