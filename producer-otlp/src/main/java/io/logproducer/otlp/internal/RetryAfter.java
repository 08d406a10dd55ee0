package io.logproducer.otlp.internal;

import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;
import java.util.Locale;

/**
 * Parses an HTTP {@code Retry-After} header (RFC 9110 §10.2.3): delta-seconds, or an HTTP-date in
 * the preferred IMF-fixdate form or the obsolete RFC 850 and asctime forms. Stateless, thread-safe.
 */
public final class RetryAfter {

  /**
   * Delays above this many ms are capped ({@value}, a day): a receiver's typo must not park a batch
   * forever.
   */
  public static final long MAX_MILLIS = 24L * 60 * 60 * 1000;

  private static final DateTimeFormatter IMF_FIXDATE = DateTimeFormatter.RFC_1123_DATE_TIME;
  private static final DateTimeFormatter RFC_850 =
      new DateTimeFormatterBuilder()
          .appendPattern("EEEE, dd-MMM-")
          .appendValueReduced(ChronoField.YEAR, 2, 2, 1970)
          .appendPattern(" HH:mm:ss zzz")
          .toFormatter(Locale.US);
  private static final DateTimeFormatter ASCTIME =
      DateTimeFormatter.ofPattern("EEE MMM ppd HH:mm:ss yyyy", Locale.US)
          .withZone(java.time.ZoneOffset.UTC);

  private RetryAfter() {}

  /**
   * The delay a {@code Retry-After} value asks for, in ms from {@code nowMillis}: delta-seconds ×
   * 1000, or the time until the HTTP-date (0 if it has passed), capped at {@link #MAX_MILLIS}.
   *
   * @param value the header value, or null
   * @param nowMillis the current time, ms since the Unix epoch
   * @return the delay in ms, or -1 when the header is absent or malformed
   */
  public static long parseMillis(String value, long nowMillis) {
    if (value == null) {
      return -1;
    }
    String v = value.trim();
    if (v.isEmpty()) {
      return -1;
    }
    if (isDigits(v)) {
      if (v.length() > 12) {
        return MAX_MILLIS;
      }
      return Math.min(MAX_MILLIS, Long.parseLong(v) * 1000);
    }
    Long at = parseDate(v);
    if (at == null) {
      return -1;
    }
    return Math.min(MAX_MILLIS, Math.max(0, at - nowMillis));
  }

  private static Long parseDate(String v) {
    DateTimeFormatter[] formats = {IMF_FIXDATE, RFC_850, ASCTIME};
    for (DateTimeFormatter f : formats) {
      try {
        return ZonedDateTime.parse(v, f).toInstant().toEpochMilli();
      } catch (DateTimeParseException e) {
        // try the next form
      }
    }
    return null;
  }

  private static boolean isDigits(String v) {
    for (int i = 0; i < v.length(); i++) {
      char c = v.charAt(i);
      if (c < '0' || c > '9') {
        return false;
      }
    }
    return true;
  }
}
