package io.logproducer.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class RetryPolicyTest {

  private final RetryPolicy policy = new RetryPolicy(5, 100, 5_000);

  @Test
  void doublesFromTheInitialBackoffWithoutJitterAtTheMidpoint() {
    assertEquals(100, policy.backoffMillis(1, -1, 0.5));
    assertEquals(200, policy.backoffMillis(2, -1, 0.5));
    assertEquals(400, policy.backoffMillis(3, -1, 0.5));
    assertEquals(3_200, policy.backoffMillis(6, -1, 0.5));
  }

  @Test
  void isCappedAtTheMaximum() {
    assertEquals(5_000, policy.backoffMillis(7, -1, 0.5));
    assertEquals(5_000, policy.backoffMillis(60, -1, 0.5));
    assertEquals(5_000, policy.backoffMillis(60, -1, 0.999), "jitter never exceeds the cap");
  }

  @Test
  void jitterIsTwentyPercentEitherWay() {
    assertEquals(80, policy.backoffMillis(1, -1, 0.0));
    assertEquals(120, policy.backoffMillis(1, -1, 1.0));
    assertEquals(1_280, policy.backoffMillis(5, -1, 0.0));
    assertEquals(1_760, policy.backoffMillis(5, -1, 0.75));
  }

  @Test
  void retryAfterIsAFloor() {
    assertEquals(2_000, policy.backoffMillis(1, 2_000, 0.5));
    assertEquals(
        400, policy.backoffMillis(3, 0, 0.5), "Retry-After: 0 does not shorten the backoff");
    assertEquals(30_000, policy.backoffMillis(1, 30_000, 0.5), "the server's wish beats our cap");
  }

  @Test
  void retriesCountReSendsNotAttempts() {
    assertTrue(policy.mayRetry(1));
    assertTrue(policy.mayRetry(5));
    assertFalse(policy.mayRetry(6));
    assertFalse(new RetryPolicy(0, 1, 1).mayRetry(1));
  }
}
