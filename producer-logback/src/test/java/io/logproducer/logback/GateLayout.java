package io.logproducer.logback;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.LayoutBase;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A layout that writes the formatted message, and holds the thread laying out a message that starts
 * with {@code gated} until the test opens {@link #gate} (at most 30 s): the hand-off's worker then
 * maps that event only once the test let it.
 */
public final class GateLayout extends LayoutBase<ILoggingEvent> {

  /** Counted down when a gated message reaches the layout. */
  static volatile CountDownLatch entered = new CountDownLatch(1);

  /** The gated message's layout returns once this is counted down. */
  static volatile CountDownLatch gate = new CountDownLatch(0);

  /** The thread that laid out the last gated message. */
  static volatile String gatedThread;

  @Override
  public String doLayout(ILoggingEvent event) {
    String message = event.getFormattedMessage();
    if (message != null && message.startsWith("gated")) {
      gatedThread = Thread.currentThread().getName();
      entered.countDown();
      try {
        gate.await(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    return message;
  }
}
