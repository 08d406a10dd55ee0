package io.logproducer.logback;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import io.logproducer.testing.otlp.OtlpReceiver;
import io.logproducer.testing.otlp.ReceivedLogRecord;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.MDC;

/**
 * One event with an MDC of 100,000 or 1,000,000 entries (issue 19): the logging call returns
 * promptly (the builder was quadratic: 15 s for 100,000 entries, hours for a million), nothing
 * reaches the application, and the record arrives with exactly {@code maxAttributesPerRecord}
 * attributes and the rest counted in its {@code dropped_attributes_count}.
 */
class HostileContextTest {

  private static final int MAX_ATTRIBUTES = 128; // the default, left unset in the XML below

  private OtlpReceiver receiver;
  private LoggerContext ctx;
  private LogproducerAppender appender;

  @BeforeEach
  void start() throws Exception {
    receiver = OtlpReceiver.start();
    ctx = new LoggerContext();
    ctx.setName("hostile-context");
    LogbackTestSupport.useGlobalMdc(ctx);
    String xml =
        """
        <configuration>
          <appender name="LP" class="io.logproducer.logback.LogproducerAppender">
            <otlp><endpoint>%s</endpoint><serviceName>hostile</serviceName></otlp>
            <producer>
              <lingerMillis>20</lingerMillis>
              <jmxEnabled>false</jmxEnabled>
              <shutdownHookEnabled>false</shutdownHookEnabled>
            </producer>
          </appender>
          <root level="INFO"><appender-ref ref="LP"/></root>
        </configuration>
        """
            .formatted(receiver.endpoint());
    JoranConfigurator joran = new JoranConfigurator();
    joran.setContext(ctx);
    joran.doConfigure(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
    appender = LogbackTestSupport.appender(ctx, "LP");
    assertTrue(appender.isStarted(), () -> LogbackTestSupport.statuses(ctx, 0).toString());
  }

  @AfterEach
  void stop() {
    ctx.stop();
    receiver.close();
  }

  @ParameterizedTest
  @ValueSource(ints = {100_000, 1_000_000})
  void theRecordArrivesLimitedWithItsDroppedCountExact(int entries) throws Exception {
    Map<String, String> mdc = context(entries);
    Logger logger = ctx.getLogger("com.example.Hostile");
    assertTimeoutPreemptively(
        Duration.ofSeconds(60),
        () -> { // a thread of the default stack size, as an application's
          MDC.setContextMap(mdc);
          try {
            logger.info("hostile event");
          } finally {
            MDC.clear();
          }
        });
    ReceivedLogRecord r = received("hostile event");
    Set<String> fromMapping = mappingKeys(r);
    assertTrue(fromMapping.contains("thread.name"), fromMapping::toString);
    assertTrue(Set.of("thread.name", "thread.id").containsAll(fromMapping), fromMapping::toString);
    int fromContext = r.attributes().size() - fromMapping.size();
    assertEquals(MAX_ATTRIBUTES, r.attributes().size(), "maxAttributesPerRecord attributes");
    assertEquals(MAX_ATTRIBUTES - fromMapping.size(), fromContext);
    assertEquals(entries - fromContext, r.droppedAttributesCount(), "every other entry counted");
    assertEquals(0, appender.droppedCount());
    assertEquals(0, appender.failedCount());
  }

  @Test
  void aFloodOfContextEntriesDoesNotPushOutTheException() throws Exception {
    int entries = 100_000;
    Map<String, String> mdc = context(entries);
    Logger logger = ctx.getLogger("com.example.Hostile");
    assertTimeoutPreemptively(
        Duration.ofSeconds(60),
        () -> {
          MDC.setContextMap(mdc);
          try {
            logger.error("hostile failure", new IllegalStateException("boom"));
          } finally {
            MDC.clear();
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

  /** {@code n} entries {@code mdc.<i>} → {@code value <i>}. */
  private static Map<String, String> context(int n) {
    Map<String, String> m = new HashMap<>(n * 2);
    for (int i = 0; i < n; i++) {
      m.put("mdc." + i, "value " + i);
    }
    return m;
  }

  /** The record's attributes that are not context entries. */
  private static Set<String> mappingKeys(ReceivedLogRecord r) {
    Set<String> keys = new TreeSet<>();
    for (String k : r.attributes().keySet()) {
      if (!k.startsWith("mdc.")) {
        keys.add(k);
      }
    }
    return keys;
  }

  private ReceivedLogRecord received(String body) {
    LogbackTestSupport.await(
        "the record",
        () -> receiver.acceptedRecords() >= 1,
        60_000,
        () -> "received " + receiver.acceptedRecords() + ", invalid " + receiver.invalidRequests());
    List<LogbackTestSupport.Decoded> all = LogbackTestSupport.delivered(receiver);
    assertEquals(1, all.size());
    assertEquals(body, all.get(0).body());
    return all.get(0).record();
  }
}
