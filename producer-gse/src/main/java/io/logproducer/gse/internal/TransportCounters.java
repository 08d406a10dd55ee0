package io.logproducer.gse.internal;

import java.util.concurrent.atomic.AtomicLong;

/**
 * What the GSE transport counts: connection attempts, data frames, write failures, agent-info
 * requests and replies. Cumulative since the transport was made; for tests and diagnostics.
 * Thread-safe (atomic counters).
 */
public final class TransportCounters {

  final AtomicLong connectsOk = new AtomicLong();
  final AtomicLong connectsFailed = new AtomicLong();
  final AtomicLong framesStarted = new AtomicLong();
  final AtomicLong framesWritten = new AtomicLong();
  final AtomicLong writeFailures = new AtomicLong();
  final AtomicLong infoRequests = new AtomicLong();
  final AtomicLong infoReplies = new AtomicLong();

  /** {@return connections made (the first agent-info request written on them)} */
  public long connectsOk() {
    return connectsOk.get();
  }

  /** {@return connection attempts that failed} */
  public long connectsFailed() {
    return connectsFailed.get();
  }

  /** {@return data frames written whole} */
  public long framesWritten() {
    return framesWritten.get();
  }

  /** {@return data frames whose write began (written, failed, or still being written)} */
  public long framesStarted() {
    return framesStarted.get();
  }

  /**
   * {@return writes (data frames or agent-info requests) that failed or stalled, each closing its
   * connection}
   */
  public long writeFailures() {
    return writeFailures.get();
  }

  /** {@return agent-info requests written} */
  public long infoRequests() {
    return infoRequests.get();
  }

  /** {@return agent-info replies parsed} */
  public long infoReplies() {
    return infoReplies.get();
  }
}
