package io.logproducer.testing.appender;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.testing.otlp.Exchange;
import io.logproducer.testing.otlp.OtlpReceiver;
import io.logproducer.testing.otlp.ReceivedLogRecord;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * One event carrying a context (MDC / ThreadContext) of 100,000 or 1,000,000 entries, as a JUnit 5
 * suite both appenders pass: the logging call returns (within 60 s; the attribute builder was
 * quadratic, 15 to 31 s for 100,000 entries), nothing reaches the application, and the record
 * arrives with exactly {@value #MAX_ATTRIBUTES} attributes ({@code maxAttributesPerRecord}'s
 * default) — the mapping's own ({@code thread.name}, {@code thread.id}, the exception's) kept, the
 * context's first ones after them — and every other entry counted in its {@code
 * dropped_attributes_count}.
 *
 * <p>A subclass per framework configures one appender on the given endpoint with {@code
 * lingerMillis=20} and the default attribute limits, and logs through logger {@code
 * com.example.Hostile}. Each test starts a fresh receiver (127.0.0.1) and framework.
 */
public abstract class ContextFloodContract {

  /** {@code maxAttributesPerRecord}'s default: the attributes a record keeps. */
  public static final int MAX_ATTRIBUTES = 128;

  /** The prefix of every context key the suite sets: {@code ctx.0}, {@code ctx.1}, … */
  public static final String PREFIX = "ctx.";

  private OtlpReceiver receiver;

  /**
   * Starts the framework with one appender exporting to {@code endpoint}.
   *
   * @param endpoint the receiver's OTLP/HTTP endpoint, {@code http://127.0.0.1:<port>}
   * @throws Exception if the framework cannot be configured
   */
  protected abstract void startFramework(String endpoint) throws Exception;

  /** Stops the framework (and so the appender). */
  protected abstract void stopFramework();

  /**
   * Logs {@code message} on the calling thread with {@code context} as the thread's context: at
   * INFO without {@code thrown}, at ERROR with it; clears the context afterwards.
   *
   * @param context the entries to put in the thread's context
   * @param message the event's message
   * @param thrown the event's exception, or null
   */
  protected abstract void logWithContext(
      Map<String, String> context, String message, Throwable thrown);

  /** {@return the appender's dropped count} */
  protected abstract long droppedCount();

  /** {@return the appender's failed count} */
  protected abstract long failedCount();

  @BeforeEach
  void startContract() throws Exception {
    receiver = OtlpReceiver.start();
    startFramework(receiver.endpoint());
  }

  @AfterEach
  void stopContract() {
    stopFramework();
    receiver.close();
  }

  @Test
  void aHundredThousandEntriesArriveLimitedWithTheirDroppedCountExact() {
    theRecordArrivesLimitedWithItsDroppedCountExact(100_000);
  }

  @Test
  void aMillionEntriesArriveLimitedWithTheirDroppedCountExact() {
    theRecordArrivesLimitedWithItsDroppedCountExact(1_000_000);
  }

  private void theRecordArrivesLimitedWithItsDroppedCountExact(int entries) {
    Map<String, String> context = context(entries);
    // a thread of the default stack size, as an application's
    assertTimeoutPreemptively(
        Duration.ofSeconds(60), () -> logWithContext(context, "hostile event", null));
    ReceivedLogRecord r = received("hostile event");
    Set<String> fromMapping = mappingKeys(r);
    assertTrue(fromMapping.contains("thread.name"), fromMapping::toString);
    assertTrue(
        new HashSet<>(Arrays.asList("thread.name", "thread.id")).containsAll(fromMapping),
        fromMapping::toString);
    int fromContext = r.attributes().size() - fromMapping.size();
    assertEquals(MAX_ATTRIBUTES, r.attributes().size(), "maxAttributesPerRecord attributes");
    assertEquals(MAX_ATTRIBUTES - fromMapping.size(), fromContext);
    assertEquals(entries - fromContext, r.droppedAttributesCount(), "every other entry counted");
    assertEquals(0, droppedCount());
    assertEquals(0, failedCount());
  }

  @Test
  void aFloodOfContextEntriesDoesNotPushOutTheException() {
    int entries = 100_000;
    Map<String, String> context = context(entries);
    assertTimeoutPreemptively(
        Duration.ofSeconds(60),
        () -> logWithContext(context, "hostile failure", new IllegalStateException("boom")));
    ReceivedLogRecord r = received("hostile failure");
    assertEquals("java.lang.IllegalStateException", r.attribute("exception.type"));
    assertEquals("boom", r.attribute("exception.message"));
    assertTrue(((String) r.attribute("exception.stacktrace")).contains("boom"));
    int fromContext = r.attributes().size() - mappingKeys(r).size();
    assertEquals(MAX_ATTRIBUTES, r.attributes().size());
    assertEquals(entries - fromContext, r.droppedAttributesCount());
  }

  /** {@code n} entries {@code ctx.<i>} → {@code value <i>}. */
  private static Map<String, String> context(int n) {
    Map<String, String> m = new HashMap<>(n * 2);
    for (int i = 0; i < n; i++) {
      m.put(PREFIX + i, "value " + i);
    }
    return m;
  }

  /** The record's attributes that are not context entries. */
  private static Set<String> mappingKeys(ReceivedLogRecord r) {
    Set<String> keys = new TreeSet<>();
    for (String k : r.attributes().keySet()) {
      if (!k.startsWith(PREFIX)) {
        keys.add(k);
      }
    }
    return keys;
  }

  /** The one record delivered, waited for up to 60 s; fails on a repeated attribute key. */
  private ReceivedLogRecord received(String body) {
    try {
      assertTrue(
          receiver.awaitAcceptedRecords(1, 60_000),
          () ->
              "received " + receiver.acceptedRecords() + ", invalid " + receiver.invalidRequests());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
    for (Exchange e : receiver.exchanges()) {
      if (e.accepted()) {
        assertEquals(new ArrayList<String>(), RepeatedAttributeKeys.in(e.request()));
      }
    }
    List<ReceivedLogRecord> all = receiver.deliveredRecords();
    assertEquals(1, all.size());
    assertEquals(body, all.get(0).bodyString());
    return all.get(0);
  }
}
