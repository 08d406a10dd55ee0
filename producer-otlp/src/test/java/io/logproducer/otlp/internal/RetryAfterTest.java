package io.logproducer.otlp.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class RetryAfterTest {

  private static final long NOW = 1_704_067_200_000L; // Mon, 01 Jan 2024 00:00:00 GMT

  @Test
  void deltaSeconds() {
    assertEquals(2000, RetryAfter.parseMillis("2", NOW));
    assertEquals(0, RetryAfter.parseMillis("0", NOW));
    assertEquals(120_000, RetryAfter.parseMillis(" 120 ", NOW));
    assertEquals(30_000, RetryAfter.parseMillis("30", NOW));
    assertEquals(RetryAfter.MAX_MILLIS, RetryAfter.parseMillis("999999", NOW));
    assertEquals(RetryAfter.MAX_MILLIS, RetryAfter.parseMillis("99999999999999999999999", NOW));
  }

  @Test
  void httpDates() {
    assertEquals(5000, RetryAfter.parseMillis("Mon, 01 Jan 2024 00:00:05 GMT", NOW));
    assertEquals(3_600_000, RetryAfter.parseMillis("Mon, 01 Jan 2024 01:00:00 GMT", NOW));
    assertEquals(10_000, RetryAfter.parseMillis("Monday, 01-Jan-24 00:00:10 GMT", NOW));
    assertEquals(20_000, RetryAfter.parseMillis("Mon Jan  1 00:00:20 2024", NOW));
    assertEquals(
        0, RetryAfter.parseMillis("Sun, 31 Dec 2023 23:59:00 GMT", NOW), "a past date: retry now");
    assertEquals(
        RetryAfter.MAX_MILLIS, RetryAfter.parseMillis("Fri, 01 Jan 2100 00:00:00 GMT", NOW));
  }

  @Test
  void absentOrMalformed() {
    assertEquals(-1, RetryAfter.parseMillis(null, NOW));
    assertEquals(-1, RetryAfter.parseMillis("", NOW));
    assertEquals(-1, RetryAfter.parseMillis("  ", NOW));
    assertEquals(-1, RetryAfter.parseMillis("-1", NOW));
    assertEquals(-1, RetryAfter.parseMillis("1.5", NOW));
    assertEquals(-1, RetryAfter.parseMillis("soon", NOW));
    assertEquals(-1, RetryAfter.parseMillis("Mon, 32 Jan 2024 00:00:05 GMT", NOW));
  }
}
