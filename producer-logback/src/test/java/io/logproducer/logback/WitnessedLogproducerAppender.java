package io.logproducer.logback;

import ch.qos.logback.classic.spi.ILoggingEvent;
import io.logproducer.testing.appender.SequenceSet;

/**
 * The appender under test, recording the {@code seq} of every event that reaches it (every call of
 * {@code doAppend}, whatever its state) before it handles it: for a test where no appender can
 * stand beside it (behind logback's AsyncAppender, which takes one appender only).
 */
public class WitnessedLogproducerAppender extends LogproducerAppender {

  private volatile SequenceSet seen;

  /**
   * @param run the key of the set in {@link WitnessAppender#RUNS}
   */
  public void setRun(String run) {
    seen = WitnessAppender.RUNS.get(run);
  }

  @Override
  public void doAppend(ILoggingEvent e) {
    WitnessAppender.record(seen, e);
    super.doAppend(e);
  }
}
