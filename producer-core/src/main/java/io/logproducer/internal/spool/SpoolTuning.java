package io.logproducer.internal.spool;

import java.util.function.LongSupplier;

/**
 * The storage's own timings, which are not user settings (the user's are the public {@link
 * io.logproducer.SpoolConfig}): how often acknowledgements are checkpointed, the back-off before a
 * failed disk is retried, and the wall clock of maxAge and back-offs. Production uses {@link
 * #DEFAULT}; the storage's tests pass their own (a fake clock, no background checkpoint).
 * Immutable.
 */
final class SpoolTuning {

  /**
   * Checkpoint every 1000 ms (the replay bound after a crash); retry a failed disk after 1 s,
   * doubling to 30 s; the system clock.
   */
  static final SpoolTuning DEFAULT = new SpoolTuning(1000, 1000, 30_000, System::currentTimeMillis);

  /** How often progress (acknowledgements) is checkpointed, millis, positive. */
  final long checkpointIntervalMillis;

  /** The first back-off before retrying a failed disk, millis; it doubles up to the max. */
  final long retryMinMillis;

  /** The longest back-off before retrying a failed disk, millis. */
  final long retryMaxMillis;

  /** The wall clock for maxAge and back-offs, epoch millis. */
  final LongSupplier clock;

  /**
   * @throws IllegalArgumentException naming the first timing out of range
   */
  SpoolTuning(
      long checkpointIntervalMillis, long retryMinMillis, long retryMaxMillis, LongSupplier clock) {
    if (checkpointIntervalMillis <= 0) {
      throw new IllegalArgumentException("spool: checkpointIntervalMillis must be positive");
    }
    if (retryMinMillis < 0 || retryMaxMillis < retryMinMillis) {
      throw new IllegalArgumentException("spool: retry back-off must be 0 <= min <= max");
    }
    if (clock == null) {
      throw new IllegalArgumentException("spool: clock must not be null");
    }
    this.checkpointIntervalMillis = checkpointIntervalMillis;
    this.retryMinMillis = retryMinMillis;
    this.retryMaxMillis = retryMaxMillis;
    this.clock = clock;
  }
}
