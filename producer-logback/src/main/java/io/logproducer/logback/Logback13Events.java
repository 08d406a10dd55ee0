package io.logproducer.logback;

import ch.qos.logback.classic.spi.ILoggingEvent;
import io.logproducer.LogRecord;
import io.logproducer.appender.EventAdapter.EntryVisitor;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Marker;
import org.slf4j.event.KeyValuePair;

/**
 * Reads the fields only logback 1.3 and later events have: the nanosecond {@code getInstant()},
 * slf4j 2's key-value pairs ({@code getKeyValuePairs()}, {@link KeyValuePair}) and the marker list
 * ({@code getMarkerList()}). Every call to an API that logback 1.2 / slf4j 1.7 lack is in this
 * class, which {@link LogbackEventAdapter} loads only when {@link
 * LogbackEventAdapter#LOGBACK_13_EVENTS} is true: on logback 1.2 the JVM never resolves them.
 * Stateless and thread-safe.
 */
final class Logback13Events {

  private Logback13Events() {}

  /**
   * The event's time at the precision logback recorded (nanoseconds on Java 9+).
   *
   * @param event a logback 1.3+ event
   * @return nanoseconds since the Unix epoch
   */
  static long timeUnixNano(ILoggingEvent event) {
    Instant instant = event.getInstant();
    if (instant != null) {
      return TimeUnit.SECONDS.toNanos(instant.getEpochSecond()) + instant.getNano();
    }
    return TimeUnit.MILLISECONDS.toNanos(event.getTimeStamp());
  }

  /**
   * One key-value pair's value.
   *
   * @param event a logback 1.3+ event
   * @param key the key, not null
   * @return the last non-null value of {@code key} (as attributes keep the last value of a key), or
   *     null
   */
  static Object keyValue(ILoggingEvent event, String key) {
    List<KeyValuePair> pairs = event.getKeyValuePairs();
    Object found = null;
    if (pairs != null) {
      for (KeyValuePair kv : pairs) {
        if (kv != null && key.equals(kv.key) && kv.value != null) {
          found = kv.value;
        }
      }
    }
    return found;
  }

  /**
   * Visits every key-value pair whose key and value are not null, in order.
   *
   * @param event a logback 1.3+ event
   * @param visitor called once per pair
   * @param builder passed to the visitor
   */
  static void forEachKeyValue(
      ILoggingEvent event, EntryVisitor visitor, LogRecord.Builder builder) {
    List<KeyValuePair> pairs = event.getKeyValuePairs();
    if (pairs == null) {
      return;
    }
    for (KeyValuePair kv : pairs) {
      if (kv != null && kv.key != null && kv.value != null) {
        visitor.visit(kv.key, kv.value, builder);
      }
    }
  }

  /**
   * The names of the event's markers, as added to it (their references are not followed).
   *
   * @param event a logback 1.3+ event
   * @return the names in order, empty for none; never null
   */
  static List<String> markerNames(ILoggingEvent event) {
    List<Marker> markers = event.getMarkerList();
    if (markers == null || markers.isEmpty()) {
      return Collections.emptyList();
    }
    List<String> names = new ArrayList<String>(markers.size());
    for (Marker m : markers) {
      if (m != null) {
        names.add(m.getName());
      }
    }
    return names;
  }
}
