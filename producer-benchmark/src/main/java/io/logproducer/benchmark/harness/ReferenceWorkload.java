package io.logproducer.benchmark.harness;

import io.logproducer.LogRecord;
import io.logproducer.examples.Workload;

/**
 * The reference workload's records (four fields, ~580 raw bytes, values ending in the sequence number). The one place
 * in this module that names where they come from: the examples module's {@code Workload} today. One instance per
 * thread; not thread-safe.
 */
public final class ReferenceWorkload {

  /** The frame a profile attributes building a record to. */
  public static final String NEXT_FRAME = "io.logproducer.examples.Workload.next";

  private final Workload workload = new Workload();

  /** {@return the reference record with sequence number {@code seq}} */
  public LogRecord next(long seq) {
    return workload.next(seq);
  }

  /** {@return the raw bytes (UTF-8 of keys and values) of the records built so far} */
  public long rawBytes() {
    return workload.rawBytes();
  }
}
