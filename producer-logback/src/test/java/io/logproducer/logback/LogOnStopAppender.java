package io.logproducer.logback;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;

/**
 * Test appender that logs {@code count} numbered events (key-value {@code seq}, from {@code first})
 * to the logger {@code logger} of its context when logback stops it: placed after the appender
 * under test on that logger, its events reach the appender under test after logback's reset stopped
 * it and before it detached it, as the application's events do during a reconfiguration.
 */
public class LogOnStopAppender extends AppenderBase<ILoggingEvent> {

  private String logger = "app";
  private int count;
  private long first;

  /**
   * @param logger the logger to log to
   */
  public void setLogger(String logger) {
    this.logger = logger;
  }

  /**
   * @param count how many events to log at the stop
   */
  public void setCount(int count) {
    this.count = count;
  }

  /**
   * @param first the first sequence number
   */
  public void setFirst(long first) {
    this.first = first;
  }

  @Override
  public void stop() {
    if (isStarted()) {
      org.slf4j.Logger log =
          ((ch.qos.logback.classic.LoggerContext) getContext()).getLogger(logger);
      for (int i = 0; i < count; i++) {
        log.atInfo().addKeyValue("seq", first + i).log("logged while the appenders stop");
      }
    }
    super.stop();
  }

  @Override
  protected void append(ILoggingEvent e) {
    // nothing: it only logs at its stop
  }
}
