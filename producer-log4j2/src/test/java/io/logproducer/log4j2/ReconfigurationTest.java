package io.logproducer.log4j2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.logproducer.testing.appender.SequenceLoad;
import io.logproducer.testing.appender.SequenceSet;
import io.logproducer.testing.otlp.OtlpReceiver;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import javax.management.ObjectName;
import org.apache.logging.log4j.Logger;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.message.StringMapMessage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * 20 reconfigurations of a log4j2 LoggerContext ({@code reconfigure()}, what {@code
 * Configurator.reconfigure()} does to the global one) while 4 threads log sequence numbers: every
 * event a plain witness appender beside the appender on the same logger saw is delivered to the
 * receiver or counted as dropped, exactly, over all the appender instances the reconfigurations
 * created; no producer thread or MBean outlives the last stop. log4j2 waits for the events in
 * flight in the old configuration's LoggerConfigs before it stops its appenders, and swaps a whole
 * configuration at once: the witness and the appender see the same events.
 */
class ReconfigurationTest {

  static final int RECONFIGURATIONS = 20;
  static final int THREADS = 4;
  static final long CAPACITY = 64L << 20;
  static final String CLIENT_ID = "lp4-reconf";

  @AfterEach
  void tearDown() {
    System.clearProperty("reconf.otlp.endpoint");
    System.clearProperty("reconf.run");
  }

  /**
   * @param rate events per second of all threads together; 0: as fast as they can
   */
  @ParameterizedTest(name = "rate {0}/s")
  @ValueSource(ints = {7000, 0})
  void everyEventTheWitnessSawIsDeliveredOrCountedAsDropped(int rate) {
    assertTimeoutPreemptively(Duration.ofSeconds(120), () -> run(rate));
  }

  private void run(int rate) throws Exception {
    String run = UUID.randomUUID().toString();
    SequenceSet witnessed = new SequenceSet(CAPACITY);
    SequenceSet delivered = new SequenceSet(CAPACITY);
    SeqWitness.RUNS.put(run, witnessed);
    try (OtlpReceiver server =
        OtlpReceiver.builder().counting().recordIds("seq", delivered::add).start()) {
      System.setProperty("reconf.otlp.endpoint", server.endpoint());
      System.setProperty("reconf.run", run);
      LoggerContext ctx = Support.context("reconf.xml");
      Set<LogproducerAppender> instances = Collections.newSetFromMap(new IdentityHashMap<>());
      instances.add(Support.appender(ctx, "LP"));
      Logger logger = ctx.getLogger("app.reconf");
      SequenceLoad load =
          new SequenceLoad(
              "reconf4-load",
              THREADS,
              rate,
              CAPACITY,
              seq -> logger.info(new StringMapMessage().with("seq", seq)));
      load.start();
      try {
        for (int i = 0; i < RECONFIGURATIONS; i++) {
          waitForEvents(witnessed, rate == 0 ? 20_000 : 500);
          ctx.reconfigure();
          instances.add(Support.appender(ctx, "LP"));
        }
        waitForEvents(witnessed, rate == 0 ? 20_000 : 500);
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
      long w = witnessed.count();
      long d = delivered.count();
      System.out.printf(
          "log4j2 reconfiguration (rate %s): %,d events logged, %,d witnessed, %,d delivered, %,d"
              + " dropped, %,d failed, %,d lost (witnessed - delivered - dropped - failed) over %d"
              + " appender instances%n",
          rate == 0 ? "saturating" : rate + "/s",
          load.logged(),
          w,
          d,
          dropped,
          failed,
          w - d - dropped - failed,
          instances.size());
      assertEquals(RECONFIGURATIONS + 1, instances.size(), "appender instances");
      assertEquals(0, delivered.duplicates() + delivered.outOfRange(), "records delivered twice");
      assertEquals(0, witnessed.duplicates() + witnessed.outOfRange(), "events witnessed twice");
      assertEquals(0, delivered.missingFrom(witnessed), "records delivered but not witnessed");
      assertEquals(0, failed, "failed events (the receiver accepts everything)");
      assertEquals(w, d + dropped, "witnessed == delivered + dropped");
      Support.awaitNoThreads(CLIENT_ID + "-");
      assertEquals(List.of(), producerMBeans(), "producer MBeans");
    } finally {
      SeqWitness.RUNS.remove(run);
    }
  }

  private static void waitForEvents(SequenceSet witnessed, long more) {
    long target = witnessed.count() + more;
    Support.await(
        "events", () -> witnessed.count() >= target, 30_000, () -> witnessed.count() + " seen");
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
}
