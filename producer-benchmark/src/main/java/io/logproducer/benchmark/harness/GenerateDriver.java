package io.logproducer.benchmark.harness;

import io.logproducer.LogRecord;
import java.util.concurrent.atomic.LongAdder;

/**
 * No client: records are generated and dropped. The calibration run, to tell the workload
 * generator's CPU and allocation apart from the producer's in the other runs.
 */
final class GenerateDriver implements Driver {

  private final LongAdder count = new LongAdder();

  /** Written so the generated records are not optimised away. */
  @SuppressWarnings("unused")
  private volatile LogRecord last;

  @Override
  public void send(LogRecord record) {
    if ((record.getTimeUnixNano() & 0xFFF) == 0) {
      last = record;
    }
    count.increment();
  }

  @Override
  public void flush() {}

  @Override
  public Counters counters() {
    long n = count.sum();
    return new Counters(n, n, 0, 0, 0, 0, -1, -1, 0, 0, 0, 0);
  }

  @Override
  public String threadGroup(String threadName) {
    return null;
  }

  @Override
  public void close() {}
}
