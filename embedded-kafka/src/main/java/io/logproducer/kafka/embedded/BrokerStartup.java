package io.logproducer.kafka.embedded;

import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

/**
 * Waiting for a starting broker: until its ports (the SASL listener's too) accept connections and
 * it lists itself as an alive node (it is unfenced), or its JVM exits, or the start timeout passes.
 * Tells a port taken by another process meanwhile ({@link PortTakenException}, which a first start
 * answers by picking other ports) from other failures. Stateless.
 */
final class BrokerStartup {

  private static final long POLL_PAUSE_MILLIS = 50;
  private static final long MAX_CALL_MILLIS = 2_000;

  private BrokerStartup() {}

  /**
   * Waits until the broker is ready. On any failure the child is killed and the admin client
   * closed.
   *
   * @param process the child, just started
   * @param ports its ports
   * @param log its log
   * @param timeout the start timeout
   * @param begin {@link System#nanoTime()} when the child was started
   * @param logStart the log's size before the start, in bytes
   * @return an admin client connected to the ready broker
   * @throws PortTakenException when the JVM exited because a listener could not bind its port
   * @throws IllegalStateException when the JVM exited otherwise, the broker is not ready within
   *     {@code timeout}, or the caller is interrupted; the message holds the end of the broker's
   *     log
   */
  static BrokerAdmin awaitReady(
      BrokerProcess process,
      Ports ports,
      BrokerLog log,
      Duration timeout,
      long begin,
      long logStart) {
    BrokerAdmin[] admin = {null};
    try {
      poll(process, ports, log, timeout, begin + timeout.toNanos(), logStart, admin);
      return admin[0];
    } catch (RuntimeException | Error e) {
      process.abandon();
      if (admin[0] != null) {
        admin[0].close();
      }
      throw e;
    }
  }

  private static void poll(
      BrokerProcess process,
      Ports ports,
      BrokerLog log,
      Duration timeout,
      long deadline,
      long logStart,
      BrokerAdmin[] admin) {
    boolean listening = false;
    Throwable last = null;
    while (true) {
      if (!process.isAlive()) {
        String message =
            "The embedded Kafka broker's JVM exited with status "
                + process.exitValue()
                + " while starting"
                + log.tail();
        if (log.bindFailedSince(logStart)) {
          throw new PortTakenException(message);
        }
        throw new IllegalStateException(message);
      }
      if (Deadlines.remainingMillis(deadline) <= 0) {
        throw new IllegalStateException(
            "The embedded Kafka broker at "
                + ports.bootstrapServers()
                + " did not start within "
                + timeout
                + "; last error: "
                + last
                + log.tail(),
            last);
      }
      if (!listening) {
        listening = Ports.accepts(ports.broker) && (ports.sasl == 0 || Ports.accepts(ports.sasl));
        if (!listening) {
          Deadlines.pause(POLL_PAUSE_MILLIS);
          continue;
        }
      }
      if (admin[0] == null) {
        admin[0] = new BrokerAdmin(ports.bootstrapServers());
      }
      int callMillis =
          (int) Math.max(1, Math.min(Deadlines.remainingMillis(deadline), MAX_CALL_MILLIS));
      try {
        if (admin[0].listsAliveNode(callMillis)) {
          return;
        }
      } catch (ExecutionException e) {
        last = e.getCause();
      } catch (TimeoutException e) {
        last = e;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("Interrupted while starting the embedded Kafka broker", e);
      }
      Deadlines.pause(POLL_PAUSE_MILLIS);
    }
  }

  /** A first start failed because a listener's port was taken after it was picked. */
  static final class PortTakenException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    PortTakenException(String message) {
      super(message);
    }
  }
}
