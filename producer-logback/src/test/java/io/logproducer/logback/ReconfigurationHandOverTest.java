package io.logproducer.logback;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.core.status.Status;
import io.logproducer.testing.appender.SequenceLoad;
import io.logproducer.testing.appender.SequenceSet;
import io.logproducer.testing.otlp.OtlpReceiver;
import io.logproducer.testsupport.SchedulerLag;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A reconfiguration hands the events that reach the stopped appender to its successor ({@link
 * HandOver}): 4 threads log 4 x 10,000 numbered events at 20,000 events/s (and 4 x 100,000 as fast
 * as they can) while the test thread reconfigures the context 6 times from XML (reset, then {@code
 * JoranConfigurator}, as logback's {@code scan} task does); every event that reached an appender
 * instance is delivered exactly once and nothing is dropped. A reconfiguration that removes the
 * appender: the events that reach it after its stop are counted as dropped and reported, exactly.
 *
 * <p>What reached the appender is recorded by {@link WitnessedLogproducerAppender}, before it
 * handles the event (a handed-over event is recorded once: by the instance it reached). Events
 * logged between the reset's detaching of the old appenders and the attaching of the new ones reach
 * no appender at all (logback's, not the appender's): they are printed as "reached no appender".
 */
class ReconfigurationHandOverTest {

  static final int THREADS = 4;
  // 2 s of paced load: 6 reconfigurations, one every 5,000 events, each under load; more events
  // add only time (the paced runs took 10 s each with 4 x 50,000)
  static final long EVENTS = THREADS * 10_000L;
  static final long SATURATING_EVENTS = THREADS * 100_000L; // the resets' gaps take more of them
  static final int RECONFIGURATIONS = 6;
  static final String CLIENT_ID = "lp-handover";
  static final String LOGGER = "app.handover";

  @TempDir Path dir;

  private final List<LoggerContext> contexts = new ArrayList<>();

  private LoggerContext newContext() {
    LoggerContext ctx = new LoggerContext();
    contexts.add(ctx);
    return ctx;
  }

  /**
   * A failed test's context too: its producer threads must not outlive it (the next test's check).
   */
  @AfterEach
  void stopContexts() {
    contexts.forEach(LoggerContext::stop);
  }

  /** slf4j 2's fluent API (key-value pairs): not on logback 1.2 (its run, given -Dtest, skips). */
  @BeforeAll
  static void notOnLogback12() {
    Assumptions.assumeFalse(
        System.getProperty("expected.logback.version", "").startsWith("1.2."), "logback 1.2");
  }

  /**
   * @param rate events per second of all threads together; 0: as fast as they can
   * @param queueSize the appender's {@code queueSize}
   */
  @ParameterizedTest(name = "rate {0}/s, queueSize {1}")
  @CsvSource({"20000, 0", "20000, 2048", "0, 2048"})
  void everyEventThatReachedTheAppenderIsDeliveredOnceAcrossReconfigurations(
      int rate, int queueSize) throws Exception {
    assertTimeoutPreemptively(Duration.ofSeconds(240), () -> underLoad(rate, queueSize, true));
  }

  /** The last reconfiguration removes the appender: what reaches it after is dropped, counted. */
  @Test
  void aReconfigurationThatRemovesTheAppenderCountsWhatReachesItAfter() throws Exception {
    assertTimeoutPreemptively(Duration.ofSeconds(240), () -> underLoad(20000, 2048, false));
  }

  private void underLoad(int rate, int queueSize, boolean keep) throws Exception {
    long events = rate == 0 ? SATURATING_EVENTS : EVENTS;
    String run = UUID.randomUUID().toString();
    SequenceSet reached = new SequenceSet(events);
    SequenceSet witnessed = new SequenceSet(events);
    SequenceSet delivered = new SequenceSet(events);
    WitnessAppender.RUNS.put(run + "-reached", reached);
    WitnessAppender.RUNS.put(run, witnessed);
    try (OtlpReceiver server =
        OtlpReceiver.builder().counting().recordIds("seq", delivered::add).start()) {
      File file = dir.resolve("logback-handover.xml").toFile();
      Config config = new Config(file, server.endpoint(), run, queueSize);
      config.write(true, 0);
      LoggerContext ctx = newContext();
      ctx.setName("handover");
      LogbackTestSupport.useGlobalMdc(ctx);
      configure(ctx, file);
      Logger logger = ctx.getLogger(LOGGER);
      Set<LogproducerAppender> instances = Collections.newSetFromMap(new IdentityHashMap<>());
      instances.add((LogproducerAppender) logger.getAppender("LP"));
      SequenceLoad load =
          new SequenceLoad(
              "handover-load",
              THREADS,
              rate,
              events,
              seq -> logger.atInfo().addKeyValue("seq", seq).log("handover"));
      // the load cannot run out before the last reconfiguration, however fast the machine logs
      load.holdFrom((RECONFIGURATIONS + 1) * events / (RECONFIGURATIONS + 2));
      load.start();
      int reconfigurations = 0;
      try {
        for (int gen = 1; gen <= RECONFIGURATIONS; gen++) {
          // saturating, a reconfiguration takes many events (the reset's gap costs the threads
          // nothing): the next one follows soon after
          long target = gen * events / (rate == 0 ? 100 : RECONFIGURATIONS + 2);
          LogbackTestSupport.await(
              "events", () -> load.logged() >= target, 60_000, () -> load.logged() + " logged");
          if (load.logged() == events) {
            break; // not mid-stream: fails below
          }
          boolean last = gen == RECONFIGURATIONS;
          config.write(keep || !last, gen);
          ctx.reset(); // what the scan task does: reset, then configure
          configure(ctx, file);
          reconfigurations++;
          LogproducerAppender now = (LogproducerAppender) logger.getAppender("LP");
          if (now != null) {
            instances.add(now);
          }
        }
        load.release();
        LogbackTestSupport.await(
            "the load's end", () -> load.logged() == events, 120_000, () -> load.logged() + "");
      } finally {
        load.stop();
      }
      if (keep) { // all shipped before the stop: what the stop does is not under test here
        LogbackTestSupport.await(
            "delivery",
            () -> delivered.count() + dropped(instances) >= reached.count(),
            60_000,
            () -> delivered.count() + " delivered, " + dropped(instances) + " dropped");
      }
      // a hand-over that found no successor counts and reports its events once stopTimeoutMillis
      // passed (its timer thread then ends): wait for that, not for a load long enough to cover it
      LogbackTestSupport.await(
          "the hand-overs' end",
          () -> LogbackTestSupport.liveThreads(CLIENT_ID + "-handover").isEmpty(),
          30_000,
          () -> LogbackTestSupport.liveThreads(CLIENT_ID + "-handover").toString());
      List<String> warnings = LogbackTestSupport.statuses(ctx, Status.WARN);
      ctx.stop();
      long dropped = 0;
      long failed = 0;
      for (LogproducerAppender lp : instances) {
        dropped += lp.droppedCount();
        failed += lp.failedCount();
      }
      System.out.printf(
          "logback reconfiguration with hand-over (rate %s, queueSize %d, %s): %,d events logged, %,d"
              + " reached the appender, %,d did not (logged between a reset and the new"
              + " configuration's attaching, or after the appender's removal), %,d witnessed, %,d"
              + " delivered, %,d dropped, %,d failed, %d"
              + " reconfigurations, %d appender instances%n",
          rate == 0 ? "saturating" : rate + "/s",
          queueSize,
          keep ? "kept" : "removed at the last",
          load.logged(),
          reached.count(),
          load.logged() - reached.count(),
          witnessed.count(),
          delivered.count(),
          dropped,
          failed,
          reconfigurations,
          instances.size());
      assertEquals(RECONFIGURATIONS, reconfigurations, "reconfigurations while the load logged");
      assertEquals(keep ? RECONFIGURATIONS + 1 : RECONFIGURATIONS, instances.size(), "instances");
      assertEquals(events, load.logged(), "events logged");
      assertEquals(0, reached.duplicates() + reached.outOfRange(), "events reaching it twice");
      assertEquals(0, delivered.duplicates(), "records delivered twice");
      assertEquals(0, delivered.missingFrom(reached), "records delivered that never reached it");
      assertEquals(0, failed, "failed events (the receiver accepts everything)");
      if (keep) {
        assertEquals(0, witnessed.missingFrom(reached), "events witnessed that never reached it");
        assertEquals(0, dropped, "dropped events (reconfigurations hand them over)");
        assertEquals(0, reached.missingFrom(delivered), "events reached and not delivered");
        assertEquals(reached.count(), delivered.count(), "delivered == reached");
      } else {
        assertEquals(
            reached.count(), delivered.count() + dropped, "reached == delivered + dropped");
        if (dropped > 0) {
          assertTrue(
              warnings.stream().anyMatch(m -> m.contains("events dropped")), warnings::toString);
        }
      }
      awaitNoThreads();
    } finally {
      WitnessAppender.RUNS.remove(run);
      WitnessAppender.RUNS.remove(run + "-reached");
    }
  }

  /**
   * Deterministic: {@link LogOnStopAppender}, after the appender on the logger, logs 37 events when
   * the reset stops it, which reach the stopped appender. With a successor they are delivered by
   * it, in their order, none dropped; without (the new configuration has no appender {@code LP}),
   * exactly 37 are counted as dropped once {@code stopTimeoutMillis} passed, and reported.
   */
  @Test
  void eventsReachingTheStoppedAppenderGoToItsSuccessorOrAreCountedAfterTheBound()
      throws Exception {
    assertTimeoutPreemptively(
        Duration.ofSeconds(180),
        () -> {
          handOverAtReset(true);
          handOverAtReset(false);
        });
  }

  private void handOverAtReset(boolean successor) throws Exception {
    String run = UUID.randomUUID().toString();
    SequenceSet reached = new SequenceSet(1000);
    SequenceSet delivered = new SequenceSet(1000);
    WitnessAppender.RUNS.put(run + "-reached", reached);
    try (OtlpReceiver server =
        OtlpReceiver.builder().counting().recordIds("seq", delivered::add).start()) {
      File file = dir.resolve("logback-stop-" + successor + ".xml").toFile();
      Config config = new Config(file, server.endpoint(), run, 2048);
      config.writeLoggingOnStop(0, 37);
      LoggerContext ctx = newContext();
      ctx.setName("handover-at-reset");
      LogbackTestSupport.useGlobalMdc(ctx);
      configure(ctx, file);
      Logger logger = ctx.getLogger(LOGGER);
      LogproducerAppender first = (LogproducerAppender) logger.getAppender("LP");
      for (int i = 0; i < 10; i++) {
        logger.atInfo().addKeyValue("seq", 100 + i).log("before");
      }
      config.write(successor, 1);
      ctx.reset();
      configure(ctx, file);
      LogproducerAppender second = (LogproducerAppender) logger.getAppender("LP");
      for (int i = 0; i < 10; i++) {
        logger.atInfo().addKeyValue("seq", 200 + i).log("after");
      }
      if (successor) {
        LogbackTestSupport.await(
            "delivery",
            () -> delivered.count() + first.droppedCount() + second.droppedCount() >= 57,
            30_000,
            () -> delivered.count() + " delivered");
        assertEquals(0, first.droppedCount(), "dropped by the stopped appender");
        assertEquals(0, second.droppedCount(), "dropped by its successor");
        assertEquals(57, reached.count(), "reached: 10 before, 37 at the stop, 10 after");
      } else {
        assertEquals(null, second, "no LP in the new configuration");
        LogbackTestSupport.await(
            "the bound", () -> first.droppedCount() == 37, 30_000, () -> first.droppedCount() + "");
        // the report follows the count: the worker counts the drops, then adds the WARN status
        LogbackTestSupport.await(
            "the drop report",
            () ->
                LogbackTestSupport.statuses(ctx, Status.WARN).stream()
                    .anyMatch(m -> m.contains("37 events dropped")),
            30_000,
            () -> LogbackTestSupport.statuses(ctx, Status.WARN).toString());
        assertEquals(47, reached.count(), "reached: 10 before, 37 at the stop");
        assertEquals(10, delivered.count(), "delivered: the 10 before");
      }
      ctx.stop();
      assertEquals(successor ? 0 : 37, first.droppedCount(), "dropped");
      assertEquals(0, delivered.duplicates(), "delivered twice");
      assertEquals(0, delivered.missingFrom(reached), "delivered, never reached");
      awaitNoThreads();
    } finally {
      WitnessAppender.RUNS.remove(run + "-reached");
    }
  }

  /**
   * The hand-over is full (1,024 events, the {@code queueSize}) and no successor can come while the
   * resetting thread itself logs 1,500 events: it waits once, {@code stopTimeoutMillis} (2 s), for
   * room, then the 476 events beyond are counted as dropped at once, and the 1,024 held when no
   * successor started within the bound: 1,500 exactly, and the reset took one wait, not 476.
   */
  @Test
  void aFullHandOverMakesALoggingThreadWaitOnceAtMost() throws Exception {
    assertTimeoutPreemptively(
        Duration.ofSeconds(120),
        () -> {
          try (OtlpReceiver server = OtlpReceiver.builder().counting().start()) {
            File file = dir.resolve("logback-full.xml").toFile();
            Config config = new Config(file, server.endpoint(), UUID.randomUUID().toString(), 1024);
            config.writeLoggingOnStop(0, 1500);
            LoggerContext ctx = newContext();
            ctx.setName("handover-full");
            LogbackTestSupport.useGlobalMdc(ctx);
            configure(ctx, file);
            LogproducerAppender first =
                (LogproducerAppender) ctx.getLogger(LOGGER).getAppender("LP");
            config.write(false, 1);
            long resetMillis;
            try (SchedulerLag lag = SchedulerLag.start()) {
              long start = System.nanoTime();
              ctx.reset();
              // one wait of stopTimeoutMillis (2 s), not two (nor 476): less than 2 x 2 s, plus
              // how late this machine wakes the thread
              resetMillis = lag.assertWithin(start, 2 * 2_000, "the reset (one wait at most)");
            }
            configure(ctx, file);
            LogbackTestSupport.await(
                "the bound",
                () -> first.droppedCount() == 1500,
                30_000,
                () -> first.droppedCount() + " dropped");
            ctx.stop();
            assertEquals(1500, first.droppedCount(), "dropped");
            assertTrue(resetMillis >= 1900, "the resetting thread waited once: " + resetMillis);
            awaitNoThreads();
          }
        });
  }

  /** The producers' threads end once the context stopped (they may take a moment to exit). */
  private static void awaitNoThreads() {
    LogbackTestSupport.await(
        "no producer thread left",
        () -> LogbackTestSupport.liveThreads(CLIENT_ID + "-").isEmpty(),
        30_000,
        () -> LogbackTestSupport.liveThreads(CLIENT_ID + "-").toString());
  }

  private static long dropped(Set<LogproducerAppender> instances) {
    long dropped = 0;
    for (LogproducerAppender lp : instances) {
      dropped += lp.droppedCount();
    }
    return dropped;
  }

  private static void configure(LoggerContext ctx, File file) throws Exception {
    JoranConfigurator jc = new JoranConfigurator();
    jc.setContext(ctx);
    jc.doConfigure(file);
    ctx.start();
  }

  /** The configuration file, rewritten for each reconfiguration. */
  private static final class Config {
    private final File file;
    private final String endpoint;
    private final String run;
    private final int queueSize;

    Config(File file, String endpoint, String run, int queueSize) {
      this.file = file;
      this.endpoint = endpoint;
      this.run = run;
      this.queueSize = queueSize;
    }

    File file() {
      return file;
    }

    String endpoint() {
      return endpoint;
    }

    String run() {
      return run;
    }

    int queueSize() {
      return queueSize;
    }

    private String lp() {
      return "<appender name='LP' class='io.logproducer.logback.WitnessedLogproducerAppender'><run>"
          + run
          + "-reached</run><otlp><endpoint>"
          + endpoint
          + "</endpoint></otlp><producer><clientId>"
          + CLIENT_ID
          + "</clientId><lingerMillis>20</lingerMillis><jmxEnabled>false</jmxEnabled></producer>"
          + "<queueSize>"
          + queueSize
          + "</queueSize><stopTimeoutMillis>2000</stopTimeoutMillis></appender>";
    }

    /** A configuration with the appender (and a witness beside it) or without it. */
    void write(boolean withAppender, int generation) throws Exception {
      String witness =
          "<appender name='WITNESS' class='io.logproducer.logback.WitnessAppender'><run>"
              + run
              + "</run></appender>";
      write(
          generation,
          (withAppender ? lp() : "") + witness,
          (withAppender ? "<appender-ref ref='LP'/>" : "") + "<appender-ref ref='WITNESS'/>");
    }

    /** The appender, then one that logs {@code count} events (seq 0..) when the reset stops it. */
    void writeLoggingOnStop(int generation, int count) throws Exception {
      String onStop =
          "<appender name='ON_STOP' class='io.logproducer.logback.LogOnStopAppender'><logger>"
              + LOGGER
              + "</logger><count>"
              + count
              + "</count><first>0</first></appender>";
      write(generation, lp() + onStop, "<appender-ref ref='LP'/><appender-ref ref='ON_STOP'/>");
    }

    private void write(int generation, String appenders, String refs) throws Exception {
      String xml =
          "<configuration>\n<!-- generation "
              + generation
              + " -->\n"
              + appenders
              + "<logger name='"
              + LOGGER
              + "' level='INFO' additivity='false'>"
              + refs
              + "</logger></configuration>\n";
      Files.write(file.toPath(), xml.getBytes(StandardCharsets.UTF_8));
    }
  }
}
