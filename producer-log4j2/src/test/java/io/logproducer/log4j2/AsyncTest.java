package io.logproducer.log4j2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.logproducer.log4j2.Support.Received;
import io.logproducer.testing.otlp.OtlpReceiver;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.logging.log4j.Logger;
import org.apache.logging.log4j.ThreadContext;
import org.apache.logging.log4j.core.LoggerContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Async loggers and AsyncAppender: every event arrives exactly once, with its own data. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AsyncTest {

  static final int N = 5_000;
  static final int THREADS = 4;

  @Test
  void asyncLoggerAndAsyncAppenderDeliverExactly() throws Exception {
    try (OtlpReceiver server = OtlpReceiver.start()) {
      System.setProperty("async.otlp.endpoint", server.endpoint());
      LoggerContext ctx = Support.context("async.xml");
      LogproducerAppender asy = Support.appender(ctx, "asy");
      LogproducerAppender asy2 = Support.appender(ctx, "asy2");
      CaptureAppender cap = ctx.getConfiguration().getAppender("cap");
      io.logproducer.Producer p1 = asy.getProducer();
      io.logproducer.Producer p2 = asy2.getProducer();
      try {
        for (String loggerName : List.of("test.async", "test.asyncappender")) {
          Logger log = ctx.getLogger(loggerName);
          Thread[] threads = new Thread[THREADS];
          for (int t = 0; t < THREADS; t++) {
            final int id = t;
            threads[t] =
                new Thread(
                    () -> {
                      for (int i = id; i < N; i += THREADS) {
                        ThreadContext.put("i", Integer.toString(i));
                        log.info("event {} of {}", i, loggerName);
                      }
                      ThreadContext.clearAll();
                    },
                    "async-app-" + t);
            threads[t].start();
          }
          for (Thread t : threads) {
            t.join(30_000);
          }
        }
        // An event logged on a thread named like the producer's: under an async logger the appender
        // runs on the
        // disruptor's thread, so it must look at the event's thread to keep the producer's own
        // logging out.
        Thread fake =
            new Thread(
                () -> ctx.getLogger("test.async").info("from a producer thread"),
                "logproducer-asy-x");
        fake.start();
        fake.join(10_000);
      } finally {
        ctx.stop(); // flushes the async loggers' ring buffer, the AsyncAppender's queue, then the
        // producers
        System.clearProperty("async.otlp.endpoint");
      }
      // What log4j2 handed to appenders on the async logger (a plain capturing appender): all N,
      // and the event of
      // the producer-named thread.
      assertEquals(N + 1, cap.seen().size());
      List<Received> all = Support.delivered(server);
      System.out.printf(
          "AsyncTest: capture %,d; async logger: accepted %,d dropped %,d failed %,d; AsyncAppender: accepted %,d"
              + " dropped %,d failed %,d%n",
          cap.seen().size(),
          p1.getMetrics().getRecordsAccepted(),
          asy.droppedCount(),
          asy.failedCount(),
          p2.getMetrics().getRecordsAccepted(),
          asy2.droppedCount(),
          asy2.failedCount());
      for (String service : List.of("async-logger", "async-appender")) {
        List<Received> got =
            all.stream().filter(r -> service.equals(r.service())).collect(Collectors.toList());
        assertEquals(N, got.size(), service);
        boolean[] seen = new boolean[N];
        for (Received r : got) {
          int i = Integer.parseInt(r.attr("i"));
          String logger = service.equals("async-logger") ? "test.async" : "test.asyncappender";
          assertEquals(
              "event " + i + " of " + logger, r.body(), "the record carries its own event's data");
          assertEquals(false, seen[i], "event " + i + " twice");
          seen[i] = true;
          assertEquals(
              "async-app-" + (i % THREADS),
              r.attr("thread.name"),
              "the logging thread, not log4j2's");
          assertNotEquals(0L, r.record().timeUnixNano());
        }
      }
      Support.awaitNoThreads("logproducer-asy");
    }
  }
}
