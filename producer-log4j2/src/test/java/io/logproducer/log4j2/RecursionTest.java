package io.logproducer.log4j2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.log4j2.Support.Received;
import io.logproducer.testing.otlp.OtlpReceiver;
import io.logproducer.testing.otlp.Reply;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.apache.logging.log4j.Logger;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.message.AsynchronouslyFormattable;
import org.apache.logging.log4j.message.Message;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The global LoggerContext (where SLF4J sends httpclient5's and the producer's own logging) at
 * DEBUG for everything, into the appender, while the receiver fails: only the application's events
 * reach the receiver.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class RecursionTest {

  @Test
  void ownAndDependencyEventsNeverReachTheProducer() throws Exception {
    OtlpReceiver server = OtlpReceiver.start();
    AtomicInteger requests = new AtomicInteger();
    server.respond(r -> requests.incrementAndGet() <= 3 ? Reply.status(503) : Reply.ok(r));
    System.setProperty("rec.otlp.endpoint", server.endpoint());
    LoggerContext ctx = LoggerContext.getContext(false);
    try {
      ctx.setConfigLocation(Support.resource("recursion.xml"));
      assertTrue(
          org.slf4j.LoggerFactory.getLogger("org.apache.hc.client5.http.wire").isDebugEnabled(),
          "SLF4J goes to this context");
      CaptureAppender capture = ctx.getConfiguration().getAppender("capture");
      Support.appender(ctx, "rec");
      Logger log = ctx.getLogger("test.rec");
      List<String> expected = new ArrayList<>();
      for (int i = 0; i < 100; i++) {
        log.info("app {}", i);
        expected.add("app " + i);
      }
      // A nested call on the appending thread: a message formatted only by the appender (the first
      // appender to ask
      // for it, the Logproducer one) logs while it is formatted.
      AtomicBoolean nestedOnce = new AtomicBoolean();
      log.info(
          new NestingMessage(
              () -> {
                if (nestedOnce.compareAndSet(false, true)) {
                  log.warn("nested");
                }
              }));
      expected.add("outer nests");
      Support.await(
          "101 delivered",
          () -> Support.delivered(server).size() >= 101,
          30_000,
          () ->
              "exchanges="
                  + server.exchanges().size()
                  + ", delivered="
                  + Support.delivered(server).size());
      // Let the retries' and the successes' DEBUG logging happen, then stop (flushes, ends the
      // producer threads).
      Support.await(
          "DEBUG events of the send threads",
          () ->
              capture.seen().stream()
                  .anyMatch(
                      s ->
                          s.loggerName().startsWith("org.apache.hc")
                              && s.threadName().startsWith("logproducer-rec-")),
          30_000,
          () -> "captured " + capture.seen().size());
      ctx.setConfigLocation(Support.resource("log4j2-test.xml"));
      // the stop returned; its threads may take a moment to exit on a busy machine
      Support.await(
          "no producer thread left",
          () -> Support.threads("logproducer-rec-").isEmpty(),
          30_000,
          () -> Support.threads("logproducer-rec-").toString());

      List<CaptureAppender.Seen> seen = capture.seen();
      long ownThreads =
          seen.stream().filter(s -> s.threadName().startsWith("logproducer-rec-")).count();
      long ownLoggers =
          seen.stream().filter(s -> s.loggerName().startsWith("io.logproducer.")).count();
      long hc = seen.stream().filter(s -> s.loggerName().startsWith("org.apache.hc")).count();
      boolean nestedSeen = seen.stream().anyMatch(s -> s.message().equals("nested"));
      System.out.printf(
          "RecursionTest: log4j2 saw %,d events in all: %,d on the producer's threads, %,d of"
              + " io.logproducer loggers, %,d of org.apache.hc; %d requests (3 answered 503)%n",
          seen.size(), ownThreads, ownLoggers, hc, server.exchanges().size());
      assertTrue(
          ownThreads > 0 && ownLoggers > 0 && hc > 0,
          "the producer and httpclient5 did log at DEBUG");
      assertTrue(nestedSeen, "the nested event was logged (to the other appender)");
      assertEquals(3, server.exchanges().stream().filter(e -> e.status() == 503).count());

      List<Received> delivered = Support.delivered(server);
      assertEquals(
          expected,
          delivered.stream()
              .map(Received::body)
              .sorted(RecursionTest::byNumber)
              .collect(Collectors.toList()));
      for (Received r : delivered) {
        assertEquals(Thread.currentThread().getName(), r.attr("thread.name"));
      }
    } finally {
      ctx.setConfigLocation(Support.resource("log4j2-test.xml"));
      System.clearProperty("rec.otlp.endpoint");
      server.close();
    }
  }

  /**
   * Formatted by the appender (log4j2 formats other messages before the appenders run), logging
   * meanwhile.
   */
  @AsynchronouslyFormattable
  static final class NestingMessage implements Message {
    private final Runnable whileFormatting;

    NestingMessage(Runnable whileFormatting) {
      this.whileFormatting = whileFormatting;
    }

    @Override
    public String getFormattedMessage() {
      whileFormatting.run();
      return "outer nests";
    }

    @Override
    public String getFormat() {
      return "outer nests";
    }

    @Override
    public Object[] getParameters() {
      return null;
    }

    @Override
    public Throwable getThrowable() {
      return null;
    }
  }

  private static int byNumber(String a, String b) {
    return Integer.compare(number(a), number(b));
  }

  private static int number(String body) {
    return body.startsWith("app ") ? Integer.parseInt(body.substring(4)) : Integer.MAX_VALUE;
  }
}
