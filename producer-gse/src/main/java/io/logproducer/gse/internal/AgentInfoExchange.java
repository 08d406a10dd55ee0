package io.logproducer.gse.internal;

import io.logproducer.internal.InternalLogger;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * The agent-info side of the connection: when the 0x0A request is due (on each new connection, then
 * every {@code agentInfoIntervalMillis}, libgse: 31 s, which also probes an idle connection), the
 * agent's last reply, and the first data frame's wait for the first reply (up to {@code
 * agentInfoTimeoutMillis}).
 *
 * <p>Thread-safe: the I/O thread delivers replies and schedules requests; send threads read the
 * info and wait.
 */
final class AgentInfoExchange {

  private static final InternalLogger log = InternalLogger.get(GseTransport.class);

  /** The 24-byte request, shared (never modified). */
  static final Envelope.Frame REQUEST = Envelope.Frame.of(GseProtocol.agentInfoRequest());

  private final long intervalNanos;
  private final long timeoutMillis;
  private final String where;
  private final GseTransport.AgentInfoListener listener;
  private final TransportCounters counters;

  /**
   * Set when a request should go out; cleared by whoever writes it, under the transport's write
   * lock.
   */
  private volatile boolean requestDue;

  private volatile long lastRequestNanos = System.nanoTime();

  /**
   * The agent's last reply; null before the first. Written by the I/O thread; waiters use {@link
   * #monitor}.
   */
  private volatile AgentInfo info;

  private final Object monitor = new Object();

  /**
   * @param intervalMillis how often the request is re-sent, in ms
   * @param timeoutMillis how long {@link #awaitFirst} waits, in ms
   * @param where the agent's address, for messages
   * @param listener told of every reply, on the I/O thread; may be null
   */
  AgentInfoExchange(
      long intervalMillis,
      long timeoutMillis,
      String where,
      GseTransport.AgentInfoListener listener,
      TransportCounters counters) {
    this.intervalNanos = TimeUnit.MILLISECONDS.toNanos(intervalMillis);
    this.timeoutMillis = timeoutMillis;
    this.where = where;
    this.listener = listener;
    this.counters = counters;
  }

  /** {@return the agent's last reply, or {@link AgentInfo#NONE} before the first} */
  AgentInfo current() {
    AgentInfo a = info;
    return a != null ? a : AgentInfo.NONE;
  }

  /** Records that a request is being written now (it is no longer due). */
  void requestSent() {
    requestDue = false;
    lastRequestNanos = System.nanoTime();
  }

  /** {@return whether a request should be written} */
  boolean isDue() {
    return requestDue;
  }

  /**
   * Marks the request due if its interval has passed; returns the nanos until it is due (at most 0
   * if it is).
   */
  long checkDue() {
    long until = lastRequestNanos + intervalNanos - System.nanoTime();
    if (until <= 0) {
      requestDue = true;
    }
    return until;
  }

  /**
   * Waits up to {@code timeoutMillis} for the first reply (at once if there is one); logs a warning
   * if none came.
   *
   * @param gaveUp true when waiting is pointless (the connection or the transport closed)
   * @return false if interrupted (the interrupt status is set)
   */
  boolean awaitFirst(BooleanSupplier gaveUp) {
    if (info != null) {
      return true;
    }
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    synchronized (monitor) {
      while (info == null && !gaveUp.getAsBoolean()) {
        long remaining = deadline - System.nanoTime();
        if (remaining <= 0) {
          break;
        }
        try {
          TimeUnit.NANOSECONDS.timedWait(monitor, remaining);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return false;
        }
      }
    }
    if (info == null) {
      log.warn(
          "the GSE agent at {} did not answer the agent-info request within {} ms (agentInfoTimeoutMillis); "
              + "sending with the configured attach fields and 0 / \"\" for the others until it does",
          where,
          timeoutMillis);
    }
    return true;
  }

  /** Wakes {@link #awaitFirst} waiters so that they re-check (the transport is closing). */
  void wakeWaiters() {
    synchronized (monitor) {
      monitor.notifyAll();
    }
  }

  /**
   * Takes one agent-info reply's JSON body; on the I/O thread. A body that is not a JSON object is
   * logged.
   */
  void onReply(byte[] body, int off, int len) {
    AgentInfo parsed;
    try {
      parsed = AgentInfo.parse(body, off, len);
    } catch (IllegalArgumentException e) {
      log.warn(
          "ignoring an agent-info reply from the GSE agent at {} that is not a JSON object ({}): {}",
          where,
          e.getMessage(),
          new String(body, off, Math.min(len, 512), StandardCharsets.UTF_8));
      return;
    }
    boolean first = info == null;
    counters.infoReplies.incrementAndGet();
    synchronized (monitor) {
      info = parsed;
      monitor.notifyAll();
    }
    if (first) {
      log.info("GSE agent at {}: {}", where, parsed);
    } else {
      log.debug("GSE agent at {}: {}", where, parsed);
    }
    if (listener != null) {
      listener.onAgentInfo(parsed);
    }
  }
}
