package io.logproducer.benchmark.jmh;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.UnsynchronizedAppenderBase;

/**
 * A logback appender that does nothing with the event: {@link AppenderBenchmark}'s {@code noop}
 * variant, the cost of logback itself (level check, {@code LoggingEvent}, appender loop) without
 * any appender work. The event's lazy parts (formatted message, MDC copy, thread name) are not
 * computed.
 */
public final class NoopAppender extends UnsynchronizedAppenderBase<ILoggingEvent> {

  @Override
  protected void append(ILoggingEvent event) {
    // nothing: the framework's own cost, for reference
  }
}
