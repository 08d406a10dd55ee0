package io.logproducer.log4j2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.testing.otlp.OtlpReceiver;
import io.logproducer.testing.otlp.ReceivedLogRecord;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.logging.log4j.Logger;
import org.apache.logging.log4j.ThreadContext;
import org.apache.logging.log4j.core.LoggerContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * One event with a ThreadContext of 100,000 or 1,000,000 entries (issue 19): the logging call
 * returns promptly (the builder was quadratic: 31 s for 100,000 entries), nothing reaches the
 * application, and the record arrives with exactly {@code maxAttributesPerRecord} attributes and
 * the rest counted in its {@code dropped_attributes_count}.
 */
class HostileContextTest {

  private static final int MAX_ATTRIBUTES = 128; // the default, left unset in hostile-context.xml

  private OtlpReceiver receiver;
  private LoggerContext ctx;
  private LogproducerAppender appender;

  @BeforeEach
  void start() throws Exception {
    receiver = OtlpReceiver.start();
    System.setProperty("hostile.otlp.endpoint", receiver.endpoint());
    ctx = Support.context("hostile-context.xml");
    appender = Support.appender(ctx, "hostile");
  }

  @AfterEach
  void stop() {
    ctx.stop();
    receiver.close();
  }

  @ParameterizedTest
  @ValueSource(ints = {100_000, 1_000_000})
  void theRecordArrivesLimitedWithItsDroppedCountExact(int entries) {
    Map<String, String> context = context(entries);
    Logger logger = ctx.getLogger("com.example.Hostile");
    assertTimeoutPreemptively(
        Duration.ofSeconds(60),
        () -> { // a thread of the default stack size, as an application's
          ThreadContext.putAll(context);
          try {
            logger.info("hostile event");
          } finally {
            ThreadContext.clearMap();
          }
        });
    ReceivedLogRecord r = received("hostile event");
    Set<String> fromMapping = mappingKeys(r);
    assertEquals(Set.of("thread.name", "thread.id"), fromMapping);
    int fromContext = r.attributes().size() - fromMapping.size();
    assertEquals(MAX_ATTRIBUTES, r.attributes().size(), "maxAttributesPerRecord attributes");
    assertEquals(MAX_ATTRIBUTES - 2, fromContext);
    assertEquals(entries - fromContext, r.droppedAttributesCount(), "every other entry counted");
    assertEquals(0, appender.droppedCount());
    assertEquals(0, appender.failedCount());
  }

  @Test
  void aFloodOfContextEntriesDoesNotPushOutTheException() {
    int entries = 100_000;
    Map<String, String> context = context(entries);
    Logger logger = ctx.getLogger("com.example.Hostile");
    assertTimeoutPreemptively(
        Duration.ofSeconds(60),
        () -> {
          ThreadContext.putAll(context);
          try {
            logger.error("hostile failure", new IllegalStateException("boom"));
          } finally {
            ThreadContext.clearMap();
          }
        });
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
      m.put("ctx." + i, "value " + i);
    }
    return m;
  }

  /** The record's attributes that are not context entries. */
  private static Set<String> mappingKeys(ReceivedLogRecord r) {
    Set<String> keys = new TreeSet<>();
    for (String k : r.attributes().keySet()) {
      if (!k.startsWith("ctx.")) {
        keys.add(k);
      }
    }
    return keys;
  }

  private ReceivedLogRecord received(String body) {
    Support.await(
        "the record",
        () -> receiver.acceptedRecords() >= 1,
        60_000,
        () -> "received " + receiver.acceptedRecords() + ", invalid " + receiver.invalidRequests());
    List<Support.Received> all = Support.delivered(receiver);
    assertEquals(1, all.size());
    assertEquals(body, all.get(0).body());
    return all.get(0).record();
  }
}
