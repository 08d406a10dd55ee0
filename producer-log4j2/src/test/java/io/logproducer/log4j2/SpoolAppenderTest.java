package io.logproducer.log4j2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.testing.otlp.OtlpReceiver;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.LoggerContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code <Spool>} element: with the receiver refusing connections, the events are SPOOLED at
 * stop (not failed), and a new LoggerContext's appender on the same directory delivers every one of
 * them once the receiver is up; invalid spool settings keep the appender from being created, named.
 */
@Timeout(60)
class SpoolAppenderTest {

  private static final int EVENTS = 100;
  private static final int BATCHES = EVENTS / 10; // batchCountThreshold 10, lingerMillis 60000

  @TempDir Path tmp;

  private LoggerContext context(String name, String endpoint, String spool) throws Exception {
    String xml =
        "<Configuration status=\"WARN\">\n"
            + "  <Appenders>\n"
            + "    <Logproducer name=\"LP\" stopTimeoutMillis=\"1000\">\n"
            + "      <Otlp endpoint=\""
            + endpoint
            + "\" timeoutMillis=\"1000\"/>\n"
            + "      <ProducerSettings clientId=\"lp-spool\" lingerMillis=\"60000\""
            + " batchCountThreshold=\"10\" batchSizeInBytes=\"32768\" deliveryTimeoutMillis=\"120000\""
            + " initialRetryBackoffMillis=\"10\" maxRetryBackoffMillis=\"100\" jmxEnabled=\"false\""
            + " shutdownHookEnabled=\"false\"/>\n"
            + "      "
            + spool
            + "\n"
            + "    </Logproducer>\n"
            + "  </Appenders>\n"
            + "  <Loggers><Root level=\"INFO\"><AppenderRef ref=\"LP\"/></Root></Loggers>\n"
            + "</Configuration>\n";
    Path file = tmp.resolve(name + ".xml");
    Files.write(file, xml.getBytes(StandardCharsets.UTF_8));
    LoggerContext ctx = new LoggerContext(name, null, file.toUri());
    ctx.start();
    return ctx;
  }

  private String spool(Path dir) {
    return "<Spool directory=\""
        + dir
        + "\" maxBytes=\"2097152\" segmentBytes=\"65536\" durability=\"group_commit\""
        + " groupCommitMillis=\"20\" fullPolicy=\"drop_newest\" maxAgeMillis=\"3600000\"/>";
  }

  @Test
  void eventsSpooledAtStopAreDeliveredByTheNextAppenderOnTheDirectory() throws Exception {
    Path dir = tmp.resolve("spool");
    try (OtlpReceiver receiver = OtlpReceiver.start()) {
      receiver.refuse();
      LoggerContext first = context("first", receiver.endpoint(), spool(dir));
      LogproducerAppender down = Support.appender(first, "LP");
      assertTrue(down.isStarted());
      for (int i = 0; i < EVENTS; i++) {
        first.getLogger("app.spool").info("event {}", i);
      }
      Support.await(
          "every batch written ahead to the spool",
          () -> down.getProducer().getMetrics().getSpoolPendingBatches() == BATCHES,
          30_000,
          () -> down.getProducer().getMetrics().toString());
      List<String> warnings;
      try (Support.Status status = Support.Status.register()) {
        first.stop();
        warnings = status.messages(Level.WARN);
      }
      assertEquals(EVENTS, down.spooledCount());
      assertEquals(0, down.failedCount(), "SPOOLED is not a failure");
      assertEquals(0, down.droppedCount());
      assertTrue(
          warnings.stream()
              .anyMatch(
                  w ->
                      w.contains(" events not delivered yet were stored in the disk spool")
                          && w.contains("(" + EVENTS + " in all;")),
          warnings::toString);

      receiver.resume();
      LoggerContext second = context("second", receiver.endpoint(), spool(dir));
      try {
        LogproducerAppender up = Support.appender(second, "LP");
        Support.await(
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
      Set<String> expected =
          IntStream.range(0, EVENTS).mapToObj(i -> "event " + i).collect(Collectors.toSet());
      assertEquals(expected, new HashSet<>(receiver.deliveredBodies()));
    }
  }

  @Test
  void invalidSpoolSettingsAreNamedAndTheAppenderIsNotCreated() throws Exception {
    String endpoint = "http://127.0.0.1:" + Support.closedPort();
    for (String[] c :
        new String[][] {
          {
            "<Spool directory=\"" + tmp + "\" durability=\"sometimes\"/>",
            "invalid <Spool durability=\"sometimes\">: durability must be one of none,"
                + " group_commit, every_batch, was 'sometimes'"
          },
          {
            "<Spool directory=\"" + tmp + "\" maxBytes=\"lots\"/>",
            "invalid <Spool maxBytes=\"lots\">: maxBytes must be an integer, was 'lots'"
          },
          {
            "<Spool maxBytes=\"2097152\"/>",
            "Logproducer appender 'LP': invalid <Spool>: spool: directory is required"
          },
          {
            "<Spool directory=\"" + tmp + "\" maxBytes=\"100000\"/>",
            "Logproducer appender 'LP': invalid <Spool>: spool: maxBytes (100000) must be at"
                + " least 2 x segmentBytes + "
          }
        }) {
      LoggerContext ctx;
      List<String> errors;
      try (Support.Status status = Support.Status.register()) {
        ctx = context("bad", endpoint, c[0]);
        errors = status.messages(Level.ERROR);
      }
      try {
        assertNull(ctx.getConfiguration().getAppender("LP"), c[0]);
        assertTrue(errors.stream().anyMatch(e -> e.contains(c[1])), c[0] + ": " + errors);
      } finally {
        ctx.stop();
      }
    }
  }
}
