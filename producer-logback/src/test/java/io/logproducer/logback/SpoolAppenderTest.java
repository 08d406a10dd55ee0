package io.logproducer.logback;

import static io.logproducer.logback.LogbackTestSupport.configure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.core.status.Status;
import io.logproducer.testing.otlp.OtlpReceiver;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code <spool>} element: with the receiver refusing connections, the events are SPOOLED at
 * stop (not failed), and a new context's appender on the same directory delivers every one of them
 * once the receiver is up; invalid spool settings keep the appender from starting, named.
 */
@Timeout(60)
class SpoolAppenderTest {

  private static final int EVENTS = 100;
  private static final int BATCHES = EVENTS / 10; // batchCountThreshold 10, lingerMillis 60000

  @TempDir Path dir;

  private Map<String, String> properties(OtlpReceiver receiver, String durability) {
    return Map.of(
        "spool.endpoint",
        receiver.endpoint(),
        "spool.dir",
        dir.toString(),
        "spool.durability",
        durability);
  }

  @Test
  void eventsSpooledAtStopAreDeliveredByTheNextAppenderOnTheDirectory() throws Exception {
    try (OtlpReceiver receiver = OtlpReceiver.start()) {
      receiver.refuse();
      LoggerContext first = configure("spool.xml", properties(receiver, "none"));
      LogproducerAppender down = LogbackTestSupport.appender(first, "LP");
      assertTrue(
          down.isStarted(), () -> LogbackTestSupport.statuses(first, Status.WARN).toString());
      for (int i = 0; i < EVENTS; i++) {
        first.getLogger("app.spool").info("event {}", i);
      }
      LogbackTestSupport.await(
          "every batch written ahead to the spool",
          () -> down.getProducer().getMetrics().getSpoolPendingBatches() == BATCHES,
          30_000,
          () -> down.getProducer().getMetrics().toString());
      first.stop();
      assertEquals(EVENTS, down.spooledCount());
      assertEquals(0, down.failedCount(), "SPOOLED is not a failure");
      assertEquals(0, down.droppedCount());
      List<String> warnings = LogbackTestSupport.statuses(first, Status.WARN);
      assertTrue(
          warnings.stream()
              .anyMatch(
                  w ->
                      w.startsWith("logproducer appender 'LP': ")
                          && w.contains(" events not delivered yet were stored in the disk spool")
                          && w.contains("(" + EVENTS + " in all;")),
          warnings::toString);

      receiver.resume();
      LoggerContext second = configure("spool.xml", properties(receiver, "none"));
      try {
        LogproducerAppender up = LogbackTestSupport.appender(second, "LP");
        assertTrue(up.isStarted());
        LogbackTestSupport.await(
            "the spool drained",
            () ->
                receiver.acceptedRecords() == EVENTS
                    && up.getProducer().getMetrics().getSpoolPendingBatches() == 0
                    // counted just after the acknowledgement that empties the spool
                    && up.getProducer().getMetrics().getSpoolRecordsDelivered() == EVENTS,
            30_000,
            () -> receiver.acceptedRecords() + " received; " + up.getProducer().getMetrics());
        assertEquals(EVENTS, up.getProducer().getMetrics().getSpoolRecordsDelivered());
      } finally {
        second.stop();
      }
      assertEquals(EVENTS, receiver.acceptedRecords(), "exactly once");
      assertEquals(
          IntStream.range(0, EVENTS).mapToObj(i -> "event " + i).collect(Collectors.toSet()),
          new TreeSet<>(receiver.deliveredBodies()).stream().collect(Collectors.toSet()));
    }
  }

  private static List<String> startErrors(Map<String, String> properties) throws Exception {
    LoggerContext ctx = configure("spool.xml", properties);
    try {
      assertFalse(LogbackTestSupport.appender(ctx, "LP").isStarted());
      return LogbackTestSupport.statuses(ctx, Status.ERROR).stream()
          .filter(m -> m.startsWith("logproducer appender 'LP' not started"))
          .collect(Collectors.toList());
    } finally {
      ctx.stop();
    }
  }

  @Test
  void invalidSpoolSettingsAreNamedAndTheAppenderDoesNotStart() throws Exception {
    try (OtlpReceiver receiver = OtlpReceiver.start()) {
      List<String> errors = startErrors(properties(receiver, "sometimes"));
      assertEquals(1, errors.size(), errors::toString);
      assertTrue(
          errors.get(0).contains("[durability]")
              && errors
                  .get(0)
                  .contains(
                      "durability must be one of none, group_commit, every_batch, was 'sometimes'"),
          errors.get(0));

      errors =
          startErrors(
              Map.of(
                  "spool.endpoint",
                  receiver.endpoint(),
                  "spool.dir",
                  dir.toString(),
                  "spool.durability",
                  "none",
                  "spool.maxBytes",
                  "100000"));
      assertEquals(1, errors.size(), errors::toString);
      assertTrue(
          errors
              .get(0)
              .contains(
                  "not started: spool: maxBytes (100000) must be at least 2 x segmentBytes + "),
          errors.get(0));
    }
  }
}
