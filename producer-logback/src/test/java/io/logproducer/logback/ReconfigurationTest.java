package io.logproducer.logback;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import ch.qos.logback.classic.AsyncAppender;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.core.Appender;
import io.logproducer.testing.appender.SequenceLoad;
import io.logproducer.testing.appender.SequenceSet;
import io.logproducer.testing.otlp.OtlpReceiver;
import java.io.File;
import java.lang.management.ManagementFactory;
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
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.management.ObjectName;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * 20 reconfigurations of logback (its {@code scan} task, or {@code reset()} and {@code
 * JoranConfigurator} as that task does) while 4 threads log sequence numbers: every event that
 * reached the appender is delivered to the receiver or counted as dropped, exactly, over all the
 * appender instances the reconfigurations created, and so is every event a plain witness appender
 * beside it on the same logger saw; no producer thread or MBean outlives the last stop.
 *
 * <p>What reached the appender is recorded by {@link WitnessedLogproducerAppender} (the appender
 * under test, recording each {@code doAppend} call before it handles it). The witness beside it is
 * referenced after it: logback attaches a new configuration's appenders one by one, so for a moment
 * the appender referenced first is attached alone; events of that moment reach the appender and not
 * the witness (printed as "reached, not witnessed"), never the other way round.
 */
class ReconfigurationTest {

  static final int RECONFIGURATIONS = 20;
  static final int THREADS = 4;
  static final long CAPACITY = 64L << 20; // sequence numbers: the most events one run logs

  /**
   * The "saturating" load's cap, events per second of all threads together: far above what the
   * appender takes (some 500,000/s here), so the threads log flat out while it is attached; but
   * between a reset and the new configuration's attaching a call costs nothing, and uncapped the
   * threads took all {@link #CAPACITY} numbers in a few seconds of such gaps when a loaded machine
   * made the reconfigurations slow (the load then ended and the run failed for want of events). At
   * the cap they last a minute of gaps.
   */
  static final int SATURATING_RATE = 1_000_000;

  /**
   * How long the events may stop reaching the appender before the wait below takes it for logback's
   * stale appender array (see {@link #waitForEvents}) and refreshes it.
   */
  static final long STALE_ARRAY_NANOS = TimeUnit.SECONDS.toNanos(2);

  static final String CLIENT_ID = "lp-reconf";
  static final String LOGGER = "app.reconf";

  @TempDir Path dir;

  /**
   * The contexts of this test: a failed run's too are stopped, so its threads do not outlive it.
   */
  private final List<LoggerContext> contexts = new ArrayList<>();

  /** How often {@link #waitForEvents} refreshed logback's stale appender array in this run. */
  private final AtomicInteger staleArrays = new AtomicInteger();

  @AfterEach
  void stopContexts() {
    contexts.forEach(LoggerContext::stop);
  }

  /** slf4j 2's fluent API: not on logback 1.2 (excluded from its run, but -Dtest includes it). */
  @BeforeAll
  static void notOnLogback12() {
    Assumptions.assumeFalse(
        System.getProperty("expected.logback.version", "").startsWith("1.2."), "logback 1.2");
  }

  /**
   * @param how {@code scan}: logback's scan task finds the rewritten file; {@code reset}: the test
   *     thread resets and configures the context, as that task does
   * @param rate events per second of all threads together; 0: as fast as they can
   * @param queueSize the appender's {@code queueSize}
   * @param async whether logback's AsyncAppender is in front of the appender
   */
  @ParameterizedTest(name = "{0}, rate {1}/s, queueSize {2}, AsyncAppender {3}")
  @CsvSource({
    "scan, 7000, 0, false",
    "scan, 0, 0, false",
    "reset, 7000, 0, false",
    "reset, 0, 0, false",
    "reset, 0, 1024, false",
    "scan, 0, 1024, false",
    "reset, 0, 0, true",
  })
  void everyEventTheWitnessSawIsDeliveredOrCountedAsDropped(
      String how, int rate, int queueSize, boolean async) throws Exception {
    // The queueSize variants exercise our hand-off queue across reconfigurations, the same code
    // on every logback version: run on the version we compile against; the 1.5 run keeps the
    // variants that differ in what logback does (scan, reset, AsyncAppender).
    Assumptions.assumeTrue(
        queueSize == 0 || !System.getProperty("expected.logback.version", "").startsWith("1.5."),
        "the queue variants run on logback 1.3 only");
    assertTimeoutPreemptively(
        Duration.ofSeconds(120), () -> run(how.equals("scan"), rate, queueSize, async));
  }

  private void run(boolean scan, int rate, int queueSize, boolean async) throws Exception {
    String run = UUID.randomUUID().toString();
    SequenceSet witnessed = new SequenceSet(CAPACITY);
    SequenceSet reached = new SequenceSet(CAPACITY);
    SequenceSet delivered = new SequenceSet(CAPACITY);
    WitnessAppender.RUNS.put(run, witnessed);
    WitnessAppender.RUNS.put(run + "-reached", reached);
    try (OtlpReceiver server =
        OtlpReceiver.builder().counting().recordIds("seq", delivered::add).start()) {
      File file = dir.resolve("logback-reconf.xml").toFile();
      Config config = new Config(file, server.endpoint(), run, scan, queueSize, async);
      config.write(0);
      LoggerContext ctx = new LoggerContext();
      contexts.add(ctx);
      ctx.setName("reconf");
      LogbackTestSupport.useGlobalMdc(ctx);
      configure(ctx, file);
      Set<LogproducerAppender> instances = Collections.newSetFromMap(new IdentityHashMap<>());
      Logger logger = ctx.getLogger(LOGGER);
      instances.add(ours(logger, async));
      SequenceLoad load =
          new SequenceLoad(
              "reconf-load",
              THREADS,
              rate == 0 ? SATURATING_RATE : rate,
              CAPACITY,
              seq -> logger.atInfo().addKeyValue("seq", seq).log("reconf"));
      load.start();
      try {
        for (int gen = 1; gen <= RECONFIGURATIONS; gen++) {
          // saturating, the threads log on through every reconfiguration; 5,000 events between
          // two make sure each new instance took load before the next (20,000 added only time)
          waitForEvents(logger, reached, rate == 0 ? 5_000 : 500);
          LogproducerAppender before = ours(logger, async);
          config.write(gen);
          if (!scan) {
            ctx.reset();
            configure(ctx, file);
          }
          LogbackTestSupport.await(
              "reconfiguration " + gen,
              () -> {
                LogproducerAppender now = ours(logger, async);
                return now != null && now != before && now.isStarted();
              },
              30_000,
              () -> "still " + ours(logger, async));
          instances.add(ours(logger, async));
        }
        waitForEvents(logger, reached, rate == 0 ? 5_000 : 500);
      } finally {
        load.stop();
      }
      ctx.stop();
      long dropped = 0;
      long failed = 0;
      for (LogproducerAppender lp : instances) {
        dropped += lp.droppedCount();
        failed += lp.failedCount();
      }
      long r = reached.count();
      long d = delivered.count();
      System.out.printf(
          "logback reconfiguration (%s, rate %s, queueSize %d, AsyncAppender %s): %,d events"
              + " logged, %,d reached the appender (%,d witnessed beside it, %,d reached and not"
              + " witnessed), %,d delivered, %,d dropped, %,d failed, %,d lost (reached -"
              + " delivered - dropped - failed) over %d appender instances; logback's appender"
              + " array found stale %d times%n",
          scan ? "scan" : "reset",
          rate == 0 ? "saturating" : rate + "/s",
          queueSize,
          async,
          load.logged(),
          r,
          witnessed.count(),
          reached.missingFrom(witnessed),
          d,
          dropped,
          failed,
          r - d - dropped - failed,
          instances.size(),
          staleArrays.get());
      assertEquals(RECONFIGURATIONS + 1, instances.size(), "appender instances");
      assertEquals(0, delivered.duplicates(), "records delivered twice");
      assertEquals(0, delivered.missingFrom(reached), "records delivered that never reached it");
      assertEquals(0, reached.duplicates() + reached.outOfRange(), "events reaching it twice");
      if (!async) {
        assertEquals(0, witnessed.missingFrom(reached), "events witnessed that never reached it");
      }
      assertEquals(0, failed, "failed events (the receiver accepts everything)");
      assertEquals(r, d + dropped, "reached == delivered + dropped");
      LogbackTestSupport.awaitNoThreads(CLIENT_ID + "-");
      assertEquals(List.of(), producerMBeans(), "producer MBeans");
    } finally {
      WitnessAppender.RUNS.remove(run);
      WitnessAppender.RUNS.remove(run + "-reached");
    }
  }

  private static void configure(LoggerContext ctx, File file) throws Exception {
    JoranConfigurator jc = new JoranConfigurator();
    jc.setContext(ctx);
    jc.doConfigure(file);
    ctx.start();
  }

  /** The appender under test now attached (behind the AsyncAppender, if any). */
  private static LogproducerAppender ours(Logger logger, boolean async) {
    Appender<?> a = logger.getAppender(async ? "ASYNC" : "LP");
    if (async && a != null) {
      a = ((AsyncAppender) a).getAppender("LP");
    }
    return (LogproducerAppender) a;
  }

  /**
   * Waits until {@code more} further events reached the appender.
   *
   * <p>logback (1.3.16, 1.5.38 and 1.6.6 checked) can keep a stale copy of a logger's appender
   * array after a reconfiguration under load: its {@code COWArrayList} reader copies the list, a
   * writer adds an appender and marks the copy stale, and the reader then marks its older copy
   * fresh. The logger calls none of its new appenders until its list changes again (outside this
   * project: 4 threads logging while another resets and adds 2 appenders, in a loop, stall within a
   * few hundred rounds). The events logged meanwhile reach no appender, which this test allows (it
   * counts what reached the appender), but they starve this wait: after {@link #STALE_ARRAY_NANOS}
   * without an event while the load runs, it detaches an appender that is not attached, which marks
   * the copy stale, and counts that in {@link #staleArrays}.
   */
  private void waitForEvents(Logger logger, SequenceSet reached, long more) {
    long target = reached.count() + more;
    long[] last = {reached.count(), System.nanoTime()};
    WitnessAppender notAttached = new WitnessAppender();
    LogbackTestSupport.await(
        "events",
        () -> {
          long count = reached.count();
          long now = System.nanoTime();
          if (count != last[0]) {
            last[0] = count;
            last[1] = now;
          } else if (now - last[1] > STALE_ARRAY_NANOS) {
            logger.detachAppender(notAttached);
            staleArrays.incrementAndGet();
            last[1] = now;
          }
          return count >= target;
        },
        30_000,
        () -> reached.count() + " seen");
  }

  static List<String> producerMBeans() throws Exception {
    List<String> out = new ArrayList<>();
    for (ObjectName n :
        ManagementFactory.getPlatformMBeanServer()
            .queryNames(new ObjectName("io.logproducer:type=Producer,*"), null)) {
      if (n.toString().contains(CLIENT_ID)) {
        out.add(n.toString());
      }
    }
    return out;
  }

  /** The configuration file, rewritten for each reconfiguration. */
  private static final class Config {
    private final File file;
    private final String endpoint;
    private final String run;
    private final boolean scan;
    private final int queueSize;
    private final boolean async;

    Config(File file, String endpoint, String run, boolean scan, int queueSize, boolean async) {
      this.file = file;
      this.endpoint = endpoint;
      this.run = run;
      this.scan = scan;
      this.queueSize = queueSize;
      this.async = async;
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

    boolean scan() {
      return scan;
    }

    int queueSize() {
      return queueSize;
    }

    boolean async() {
      return async;
    }

    void write(int generation) throws Exception {
      String lp =
          "<appender name='LP' class='io.logproducer.logback.WitnessedLogproducerAppender'><run>"
              + run
              + "-reached</run><otlp><endpoint>"
              + endpoint
              + "</endpoint></otlp>"
              + "<producer><clientId>"
              + CLIENT_ID
              + "</clientId><lingerMillis>20</lingerMillis></producer>"
              + "<queueSize>"
              + queueSize
              + "</queueSize></appender>";
      // AsyncAppender (neverBlock false, nothing discarded) takes one appender, and loses events of
      // its own at its stop (a put blocked on its full queue ends after its worker drained it): no
      // witness beside it
      String front =
          async
              ? "<appender name='ASYNC' class='ch.qos.logback.classic.AsyncAppender'>"
                  + "<discardingThreshold>0</discardingThreshold>"
                  + "<appender-ref ref='LP'/></appender>"
              : "<appender name='WITNESS' class='io.logproducer.logback.WitnessAppender'><run>"
                  + run
                  + "</run></appender>";
      String refs =
          async
              ? "<appender-ref ref='ASYNC'/>"
              : "<appender-ref ref='LP'/><appender-ref ref='WITNESS'/>";
      String xml =
          "<configuration"
              + (scan ? " scan='true' scanPeriod='50 milliseconds'" : "")
              + ">\n<!-- generation "
              + generation
              + " -->\n"
              + lp
              + front
              + "<logger name='"
              + LOGGER
              + "' level='INFO' additivity='false'>"
              + refs
              + "</logger></configuration>\n";
      long lastModified = file.exists() ? file.lastModified() : 0;
      Files.write(file.toPath(), xml.getBytes(StandardCharsets.UTF_8));
      // the scan task compares modification times: make the change visible whatever the clock's
      // resolution
      if (file.lastModified() <= lastModified) {
        file.setLastModified(lastModified + 1000);
      }
    }
  }
}
