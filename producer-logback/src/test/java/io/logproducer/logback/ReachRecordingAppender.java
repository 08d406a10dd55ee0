package io.logproducer.logback;

import ch.qos.logback.classic.spi.ILoggingEvent;
import io.logproducer.testing.appender.SequenceSet;

/**
 * The appender under test, recording the sequence number of every event that reaches it (every call
 * of {@code doAppend}, whatever its state) before it handles it: the first argument of the event's
 * message, a {@link Long}. slf4j 1.7 API only (no key-value pairs), for logback 1.2.
 */
public class ReachRecordingAppender extends LogproducerAppender {

  /** Where every instance records; set by the test before it configures logback. */
  static volatile SequenceSet reached;

  @Override
  public void doAppend(ILoggingEvent e) {
    SequenceSet set = reached;
    Object[] args = e.getArgumentArray();
    if (set != null && args != null && args.length > 0 && args[0] instanceof Long) {
      set.add((Long) args[0]);
    }
    super.doAppend(e);
  }
}
