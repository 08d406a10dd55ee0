package io.logproducer.logback;

import static io.logproducer.logback.LogbackTestSupport.await;
import static io.logproducer.logback.LogbackTestSupport.configure;
import static io.logproducer.logback.LogbackTestSupport.delivered;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.AsyncAppender;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import io.logproducer.logback.LogbackTestSupport.Decoded;
import io.logproducer.testing.otlp.OtlpReceiver;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * logback's AsyncAppender (neverBlock=true) wrapping the appender: every event arrives, mapped
 * right.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AsyncAppenderTest {

  @Test
  void everyEventArrivesThroughAsyncAppender() throws Exception {
    try (OtlpReceiver server = OtlpReceiver.start()) {
      LoggerContext ctx = configure("async.xml", Map.of("otlp.endpoint", server.endpoint()));
      AsyncAppender async =
          (AsyncAppender) ctx.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).getAppender("ASYNC");
      assertTrue(async.isStarted());
      Logger log = ctx.getLogger("app.async");
      // captureCode is on and the XML left includeCallerData off: the first event, mapped on
      // AsyncAppender's
      // worker without caller data, makes the appender turn includeCallerData on.
      log.info("first");
      await("the first event", () -> delivered(server).size() == 1, 10_000, () -> "none yet");
      assertTrue(async.isIncludeCallerData());
      List<String> expected = new ArrayList<>(List.of("first"));
      int line = new Throwable().getStackTrace()[0].getLineNumber() + 3;
      for (int i = 0; i < 3000; i++) {
        expected.add("async " + i);
        log.info("async {}", i);
      }
      ctx.stop(); // AsyncAppender drains its queue into the appender, which then ships and stops
      List<Decoded> records = delivered(server);
      assertEquals(expected, records.stream().map(Decoded::body).collect(Collectors.toList()));
      String thread = Thread.currentThread().getName();
      for (Decoded d : records) {
        assertEquals(thread, d.attributes().get("thread.name"));
        assertNull(
            d.attributes().get("thread.id"),
            "no thread id when appending on AsyncAppender's worker");
      }
      assertFalse(records.get(0).attributes().containsKey("code.function.name"));
      for (Decoded d : records.subList(1, records.size())) {
        assertEquals(
            "io.logproducer.logback.AsyncAppenderTest.everyEventArrivesThroughAsyncAppender",
            d.attributes().get("code.function.name"));
        assertEquals((long) line, d.attributes().get("code.line.number"));
      }
      LogbackTestSupport.awaitNoThreads("lp-async-");
    }
  }
}
