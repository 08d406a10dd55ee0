package io.logproducer.internal.spool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import org.junit.jupiter.api.Test;

class DiskHealthTest {

  @Test
  void backOffDoublesFromOneSecondToThirtyAndResetsOnSuccess() {
    DiskHealth h = new DiskHealth(1000, 30_000);
    IOException e = new IOException("No space left on device");
    long now = 0;
    long[] expected = {1000, 2000, 4000, 8000, 16_000, 30_000, 30_000};
    for (long backoff : expected) {
      h.failed(e, now);
      assertTrue(h.disabled());
      assertFalse(h.retryDue(now + backoff - 1), "not before " + backoff);
      assertTrue(h.retryDue(now + backoff), "at " + backoff);
      now += backoff;
    }
    assertEquals(e, h.lastError());
    h.recovered();
    assertFalse(h.disabled());
    h.failed(e, now);
    assertTrue(h.retryDue(now + 1000) && !h.retryDue(now + 999), "reset to 1 s");
  }
}
