package io.logproducer.logback;

import static io.logproducer.logback.LogbackTestSupport.await;
import static io.logproducer.logback.LogbackTestSupport.delivered;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.core.status.Status;
import io.logproducer.logback.LogbackTestSupport.Decoded;
import io.logproducer.testing.otlp.OtlpReceiver;
import io.logproducer.testing.otlp.Reply;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.LoggerFactory;

/**
 * SLF4J's own logback context (where the producer, its exporter and httpclient5 log) at DEBUG for
 * everything, routed to the appender and to a list, with a receiver that answers 503 three times:
 * only the application's events reach the producer, exactly once each; no recursion, no deadlock.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class RecursionTest {

  private final LoggerContext ctx = (LoggerContext) LoggerFactory.getILoggerFactory();

  @AfterEach
  void restoreDefaultConfiguration() throws Exception {
    ctx.reset();
    LogbackTestSupport.configure(ctx, "logback-test.xml", Map.of());
  }

  @Test
  void producerLoggingNeverReentersTheProducer() throws Exception {
    try (OtlpReceiver server = OtlpReceiver.start()) {
      AtomicInteger requests = new AtomicInteger();
      server.respond(r -> requests.incrementAndGet() <= 3 ? Reply.status(503) : Reply.ok(r));
      ctx.reset();
      LogbackTestSupport.configure(
          ctx, "recursion.xml", Map.of("otlp.endpoint", server.endpoint()));
      LogproducerAppender lp = LogbackTestSupport.appender(ctx, "LP");
      assertTrue(lp.isStarted());
      RecordingAppender list =
          (RecordingAppender) ctx.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).getAppender("LIST");

      List<Thread> threads = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        int id = t;
        Thread thread =
            new Thread(
                () -> {
                  Logger log = ctx.getLogger("app.recursion");
                  for (int i = 0; i < 50; i++) {
                    log.debug("app {} {}", id, i);
                  }
                },
                "app-thread-" + t);
        threads.add(thread);
        thread.start();
      }
      for (Thread thread : threads) {
        thread.join(20_000);
      }
      await(
          "200 application events delivered",
          () -> delivered(server).size() >= 200,
          20_000,
          () ->
              delivered(server).size() + " delivered, " + server.exchanges().size() + " requests");
      ctx.reset(); // stops and flushes the appender
      List<Decoded> records = delivered(server);
      assertEquals(200, records.size(), "exactly the application's events");
      assertTrue(
          records.stream().allMatch(d -> d.body().startsWith("app ")),
          () ->
              "not an application event: "
                  + records.stream()
                      .map(Decoded::body)
                      .filter(b -> !b.startsWith("app "))
                      .limit(5)
                      .collect(Collectors.toList()));
      assertTrue(
          records.stream()
              .allMatch(
                  d -> ((String) d.attributes().get("thread.name")).startsWith("app-thread-")));
      assertEquals(3, server.exchanges().stream().filter(e -> e.status() == 503).count());
      assertEquals(0, lp.droppedCount());
      assertEquals(0, lp.failedCount());

      // The test means something only if the producer and httpclient5 did log into this context on
      // their threads.
      List<String> seen = list.seen;
      List<String> producerSide =
          seen.stream().filter(e -> !e.contains("|app.")).collect(Collectors.toList());
      assertTrue(
          producerSide.stream()
              .anyMatch(e -> e.startsWith("lp-recursion-") && e.contains("|org.apache.hc.")),
          () ->
              "httpclient5 DEBUG events on the send threads: "
                  + producerSide.stream().distinct().collect(Collectors.toList()));
      assertTrue(
          producerSide.stream().anyMatch(e -> e.contains("|io.logproducer.")),
          "the producer's own events");
      assertEquals(List.of(), LogbackTestSupport.statuses(ctx, Status.ERROR));
      System.out.println(
          "recursion test: "
              + seen.size()
              + " events in the list appender, "
              + producerSide.size()
              + " of them from the producer and httpclient5; 200 records delivered");
    }
  }
}
