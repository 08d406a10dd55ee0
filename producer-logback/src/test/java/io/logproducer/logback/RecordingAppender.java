package io.logproducer.logback;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Test appender: records the thread and logger of each event when it is appended (logback's thread
 * name is lazy).
 */
public class RecordingAppender extends AppenderBase<ILoggingEvent> {

  /** "thread|logger" of every event. */
  final List<String> seen = new CopyOnWriteArrayList<>();

  @Override
  protected void append(ILoggingEvent e) {
    seen.add(e.getThreadName() + "|" + e.getLoggerName());
  }
}
