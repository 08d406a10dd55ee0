package io.logproducer.spring.boot.autoconfigure;

import java.time.Duration;

/**
 * The rule of the actuator health indicator ({@code logproducer.health.*}): DOWN when records wait
 * and none was delivered for {@code stallTimeout}, or when the last {@code failedBatches} batches
 * all failed; OUT_OF_SERVICE once the producer is closed; UP otherwise.
 *
 * <p>Not thread-safe: bound once, at start-up, before any use.
 */
public class HealthProperties {

  /** Whether the logproducer health indicator is registered (with spring-boot-actuator). */
  private boolean enabled = true;

  /** DOWN when records wait and none was delivered for this long. */
  private Duration stallTimeout = Duration.ofSeconds(60);

  /** DOWN when this many batches in a row failed (after their retries). */
  private int failedBatches = 10;

  /** Creates the defaults. */
  public HealthProperties() {}

  /** {@return {@code logproducer.health.enabled}} */
  public boolean isEnabled() {
    return enabled;
  }

  /**
   * Sets {@code logproducer.health.enabled}.
   *
   * @param enabled whether the logproducer health indicator is registered (with
   *     spring-boot-actuator).
   */
  public void setEnabled(boolean enabled) {
    this.enabled = enabled;
  }

  /** {@return {@code logproducer.health.stall-timeout}} */
  public Duration getStallTimeout() {
    return stallTimeout;
  }

  /**
   * Sets {@code logproducer.health.stall-timeout}.
   *
   * @param stallTimeout the status is DOWN when records wait and none was delivered for this long.
   */
  public void setStallTimeout(Duration stallTimeout) {
    this.stallTimeout = stallTimeout;
  }

  /** {@return {@code logproducer.health.failed-batches}} */
  public int getFailedBatches() {
    return failedBatches;
  }

  /**
   * Sets {@code logproducer.health.failed-batches}.
   *
   * @param failedBatches the status is DOWN when this many batches in a row failed (after their
   *     retries).
   */
  public void setFailedBatches(int failedBatches) {
    this.failedBatches = failedBatches;
  }
}
