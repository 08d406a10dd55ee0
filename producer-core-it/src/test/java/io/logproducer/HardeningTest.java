package io.logproducer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.internal.ProducerEngine;
import io.logproducer.spi.ExportResult;
import io.logproducer.testing.InMemoryExporter;
import io.logproducer.testing.Outcomes;
import io.logproducer.testsupport.SchedulerLag;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import javax.management.ObjectName;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The README's promises under failure: every accepted record gets exactly one outcome within {@code
 * deliveryTimeoutMillis} whatever the exporter, the JVM or the callbacks do; close returns within
 * its bound from any thread; nothing is left running. Each test reproduces one defect a review
 * found in the first version.
 */
@Timeout(60)
class HardeningTest {

  private static final AtomicInteger IDS = new AtomicInteger();
  private final InMemoryExporter exporter = InMemoryExporter.builder().setBodiesOnly(true).build();
  private final List<Producer> producers = new ArrayList<>();

  @AfterEach
  void closeAll() {
    exporter.release();
    for (Producer p : producers) {
      p.close(0);
    }
  }

  private Producer producer(ProducerConfig.Builder b) {
    Producer p = new Producer(b.build(), exporter);
    producers.add(p);
    return p;
  }

  private static String newId() {
    return "hardening-" + IDS.incrementAndGet();
  }

  private static ProducerConfig.Builder config(String id) {
    return ProducerConfig.builder()
        .setClientId(id)
        .setLingerMillis(60_000)
        .setDeliveryTimeoutMillis(60_000)
        .setInitialRetryBackoffMillis(10)
        .setMaxRetryBackoffMillis(50)
        .setJmxEnabled(false)
        .setShutdownHookEnabled(false);
  }

  private static LogRecord record(String body) {
    return LogRecord.builder().setBody(body).build();
  }

  private static List<String> liveThreads(String clientId) {
    List<String> names = new ArrayList<>();
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      if (t.isAlive() && t.getName().startsWith(clientId + "-")) {
        names.add(t.getName() + ":" + t.getState());
      }
    }
    return names;
  }

  /** Waits (bounded) until {@code t} is parked: WAITING or TIMED_WAITING. */
  private static void awaitWaiting(Thread t) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!isWaiting(t) && System.nanoTime() < deadline) {
      java.util.concurrent.locks.LockSupport.parkNanos(1_000_000L);
    }
    assertTrue(isWaiting(t), t.getName() + " is " + t.getState());
  }

  private static boolean isWaiting(Thread t) {
    Thread.State s = t.getState();
    return s == Thread.State.WAITING || s == Thread.State.TIMED_WAITING;
  }

  private static void awaitNoThreads(String clientId) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!liveThreads(clientId).isEmpty() && System.nanoTime() < deadline) {
      java.util.concurrent.locks.LockSupport.parkNanos(10_000_000L); // polling a bounded condition
    }
    assertEquals(List.of(), liveThreads(clientId), "no producer thread outlives close");
  }

  @Test
  void errorsInTheExporterFailOnlyTheirBatchAndTheSendThreadGoesOn() throws Exception {
    String id = newId();
    AtomicInteger calls = new AtomicInteger();
    exporter.respondWith(
        r -> {
          switch (calls.incrementAndGet()) {
            case 1:
              throw new OutOfMemoryError("injected");
            case 2:
              throw new NoClassDefFoundError("com/github/luben/zstd/Zstd (injected)");
            default:
              return ExportResult.success();
          }
        });
    Producer p = producer(config(id).setSendThreads(1));
    Outcomes outcomes = new Outcomes();
    for (int i = 0; i < 3; i++) {
      p.send(record("r" + i), outcomes);
      p.flush(); // one batch each; flush must not hang on a batch whose thread met an Error
    }
    List<SendResult> all = outcomes.all();
    assertEquals(3, all.size());
    assertEquals(SendResult.Status.FAILED, all.get(0).getStatus());
    assertInstanceOf(OutOfMemoryError.class, all.get(0).getError());
    assertEquals(SendResult.Status.FAILED, all.get(1).getStatus());
    assertInstanceOf(NoClassDefFoundError.class, all.get(1).getError());
    assertEquals(
        SendResult.Status.DELIVERED, all.get(2).getStatus(), "the one send thread survived both");
    // flush() returns once the outcome is given; the send thread may still be on its way back to
    // the
    // queue, so wait (bounded) for it to park there, then check it is the same, single thread.
    List<String> senders = List.of();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30); // a hang, not a slow CPU
    do {
      senders =
          liveThreads(id).stream().filter(n -> n.contains("sender")).collect(Collectors.toList());
      if (senders.equals(List.of(id + "-sender-1:WAITING"))) {
        break;
      }
      java.util.concurrent.locks.LockSupport.parkNanos(1_000_000L); // polling a bounded condition
    } while (System.nanoTime() < deadline);
    assertEquals(List.of(id + "-sender-1:WAITING"), senders);
    assertEquals(0, p.getMetrics().getBufferedBytes());
    p.close(1_000);
    awaitNoThreads(id);
  }

  @Test
  void deliveryTimeoutBoundsAnExportThatHangs() throws Exception {
    exporter.hold(); // the receiver never answers
    Producer p = producer(config(newId()).setLingerMillis(0).setDeliveryTimeoutMillis(500));
    Outcomes outcomes = new Outcomes();
    try (SchedulerLag lag = SchedulerLag.start()) {
      long start = System.nanoTime();
      p.send(record("stuck"), outcomes);
      p.flush();
      // the outcome comes at the delivery deadline: not before it, and no later than the
      // deadline plus how late this machine wakes the timer (measured meanwhile)
      long tookMillis = lag.assertWithin(start, 500, "the outcome of a hung export");
      assertTrue(tookMillis >= 450, "outcome before the delivery deadline, took " + tookMillis);
    }
    SendResult r = outcomes.all().get(0);
    assertEquals(SendResult.Status.FAILED, r.getStatus());
    assertEquals(
        "deliveryTimeoutMillis (500 ms) expired while its request was in flight (attempt 1)",
        r.getMessage());
    assertTrue(
        p.getMetrics().getBufferedBytes() > 0,
        "memory stays charged while the send thread holds it");
    exporter
        .release(); // the hung request returns at last: its answer is dropped, its memory released
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (p.getMetrics().getBufferedBytes() != 0 && System.nanoTime() < deadline) {
      java.util.concurrent.locks.LockSupport.parkNanos(5_000_000L); // polling a bounded condition
    }
    assertEquals(0, p.getMetrics().getBufferedBytes());
    assertEquals(1, outcomes.total(), "still exactly one outcome");
    assertEquals(1, p.getMetrics().getRecordsFailed());
    assertEquals(0, p.getMetrics().getRecordsSent());
  }

  @Test
  void callbacksRunAtCloseMayFlushCloseAndSendWithoutDeadlock() throws Exception {
    String id = newId();
    exporter.hold(); // requests hang: close must abort them
    Producer p = producer(config(id).setLingerMillis(0).setSendThreads(2));
    AtomicInteger outcomes = new AtomicInteger();
    AtomicReference<Throwable> sendFromCallback = new AtomicReference<>();
    for (int i = 0; i < 20; i++) {
      p.send(
          record("a" + i),
          r -> {
            outcomes.incrementAndGet();
            p.flush();
            p.close();
            p.close(10_000);
            try {
              p.send(record("from callback"));
            } catch (Throwable t) {
              sendFromCallback.set(t);
            }
          });
      CompletableFuture<SendResult> f = p.sendAsync(record("b" + i));
      f.whenComplete(
          (r, t) -> { // a dependent stage runs on the completing thread
            outcomes.incrementAndGet();
            p.flush();
            p.close(10_000);
          });
    }
    try (SchedulerLag lag = SchedulerLag.start()) {
      long start = System.nanoTime();
      p.close(300);
      lag.assertWithin(start, 300 + ProducerEngine.CLOSE_SLACK_MILLIS, "close(300)");
    }
    // the closer may give the last outcomes just after close returned, on a starved machine
    assertTrue(Outcomes.until(() -> outcomes.get() == 40, 30_000), () -> "outcomes " + outcomes);
    assertEquals(40, outcomes.get());
    assertInstanceOf(IllegalStateException.class, sendFromCallback.get());
    assertEquals(40, p.getMetrics().getRecordsFailed());
    awaitNoThreads(id);
    assertTrue(exporter.isClosed());
  }

  @Test
  void closeFromOneCallbackWhileAnotherThreadFlushesStopsEverything() throws Exception {
    String id = newId();
    CountDownLatch slowShard = new CountDownLatch(1);
    CountDownLatch slowInFlight = new CountDownLatch(1);
    exporter.respondWith(
        r -> {
          if ("slow".equals(r.shardKey())) {
            slowInFlight.countDown();
            try {
              slowShard.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
              return ExportResult.retryable("interrupted", e, -1);
            }
          }
          return ExportResult.success();
        });
    Producer p = producer(config(id).setJmxEnabled(true).setLingerMillis(0).setSendThreads(2));
    ObjectName bean =
        new ObjectName("io.logproducer:type=Producer,clientId=" + ObjectName.quote(id));
    assertTrue(ManagementFactory.getPlatformMBeanServer().isRegistered(bean));
    p.send(LogRecord.builder().setBody("slow").setDestination("slow").build());
    assertTrue(slowInFlight.await(30, TimeUnit.SECONDS), "the slow request is in flight");
    AtomicReference<Throwable> flushError = new AtomicReference<>();
    Thread flusher =
        new Thread(
            () -> {
              try {
                p.flush();
              } catch (Throwable t) {
                flushError.set(t);
              }
            });
    flusher.start();
    awaitWaiting(flusher); // flush() is waiting for the in-flight batch
    p.send(LogRecord.builder().setBody("closer").setDestination("fast").build(), r -> p.close());
    flusher.join(5_000);
    assertTrue(!flusher.isAlive(), "flush returned: the in-flight batch got FAILED_AT_CLOSE");
    assertEquals(null, flushError.get());
    awaitNoThreads(id);
    assertTrue(exporter.isClosed(), "the exporter is closed");
    assertTrue(!ManagementFactory.getPlatformMBeanServer().isRegistered(bean), "the MBean is gone");
    assertEquals(1, p.getMetrics().getRecordsSent());
    assertEquals(1, p.getMetrics().getRecordsFailed());
    slowShard.countDown();
  }

  @Test
  void closeReturnsWithinItsBoundWhenACallbackBlocks() throws Exception {
    String id = newId();
    CountDownLatch never = new CountDownLatch(1);
    CountDownLatch entered = new CountDownLatch(1);
    Producer p = producer(config(id).setLingerMillis(0));
    p.send(
        record("x"),
        r -> {
          entered.countDown();
          try {
            never.await(20, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            // close interrupts it
          }
        });
    assertTrue(entered.await(30, TimeUnit.SECONDS), "the callback is blocking a send thread");
    try (SchedulerLag lag = SchedulerLag.start()) {
      long start = System.nanoTime();
      p.close(500);
      // a callback blocking a send thread does not hold close beyond its bound
      lag.assertWithin(start, 500 + ProducerEngine.CLOSE_SLACK_MILLIS, "close(500)");
    }
    never.countDown();
    awaitNoThreads(id);
  }

  @Test
  void anInterruptedCallerStillGetsTheWholeGracePeriod() throws Exception {
    exporter.respondWith(
        r -> {
          java.util.concurrent.locks.LockSupport.parkNanos(20_000_000L);
          return ExportResult.success();
        });
    Producer p = producer(config(newId()).setBatchCountThreshold(50).setSendThreads(2));
    Outcomes outcomes = new Outcomes();
    for (int i = 0; i < 1_000; i++) {
      p.send(record("r" + i), outcomes);
    }
    Thread.currentThread().interrupt();
    try {
      p.close(30_000);
      assertTrue(Thread.currentThread().isInterrupted(), "the interrupt status is kept");
    } finally {
      Thread.interrupted();
    }
    assertEquals(Map.of(SendResult.Status.DELIVERED, 1_000), outcomes.statusCounts());
  }

  @Test
  void duplicateClientIdsGetDistinctJmxNamesAndEachUnregistersItsOwn() throws Exception {
    String id = newId();
    Producer a = producer(config(id).setJmxEnabled(true));
    Producer b = producer(config(id).setJmxEnabled(true));
    ObjectName first =
        new ObjectName("io.logproducer:type=Producer,clientId=" + ObjectName.quote(id));
    ObjectName second =
        new ObjectName(
            "io.logproducer:type=Producer,clientId=" + ObjectName.quote(id) + ",instance=2");
    Set<ObjectName> names =
        ManagementFactory.getPlatformMBeanServer()
            .queryNames(
                new ObjectName(
                    "io.logproducer:type=Producer,clientId=" + ObjectName.quote(id) + ",*"),
                null);
    assertEquals(Set.of(first, second), names);
    b.send(record("b"));
    b.flush();
    assertEquals(
        1L,
        ManagementFactory.getPlatformMBeanServer().getAttribute(second, "RecordsSent"),
        "the second name shows the second producer");
    a.close(0);
    assertTrue(!ManagementFactory.getPlatformMBeanServer().isRegistered(second));
    assertEquals(
        1L,
        ManagementFactory.getPlatformMBeanServer().getAttribute(first, "RecordsSent"),
        "closing the first moves the other to the plain name (JmxNameTest)");
    b.close(0);
    assertTrue(!ManagementFactory.getPlatformMBeanServer().isRegistered(first));
  }

  @Test
  void impossibleTimeoutsAreRefusedNamingBothSettings() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                ProducerConfig.builder()
                    .setLingerMillis(5_000)
                    .setDeliveryTimeoutMillis(1_000)
                    .build());
    assertEquals(
        "deliveryTimeoutMillis (1000) must not be below lingerMillis (5000): batches would expire before "
            + "they are sent",
        e.getMessage());
    exporter.setRequestTimeoutMillis(10_000);
    e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                new Producer(
                    config(newId()).setLingerMillis(1_000).setDeliveryTimeoutMillis(5_000).build(),
                    exporter));
    assertEquals(
        "deliveryTimeoutMillis (5000) must be at least lingerMillis (1000) + the exporter's request timeout "
            + "(10000 ms, memory://in-memory), so that a batch gets at least one whole attempt",
        e.getMessage());
  }

  @Test
  void idleProducerThreadsBlockInsteadOfPolling() throws Exception {
    String id = newId();
    Producer p =
        producer(config(id).setLingerMillis(5).setDeliveryTimeoutMillis(100).setSendThreads(3));
    p.send(record("x"));
    p.flush();
    // Once every deadline (linger 5 ms, delivery 100 ms) has passed, nothing is pending: every
    // thread must park
    // without a timeout. Polled for up to 5 s; a thread that polls stays TIMED_WAITING and fails
    // the test.
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    List<String> states = liveThreads(id);
    while (!states.stream().allMatch(n -> n.endsWith(":WAITING")) && System.nanoTime() < deadline) {
      java.util.concurrent.locks.LockSupport.parkNanos(10_000_000L);
      states = liveThreads(id);
    }
    assertEquals(4, states.size(), states.toString());
    for (String s : states) {
      assertTrue(s.endsWith(":WAITING"), "parked without a timeout: " + states);
    }
  }

  @Test
  void splitHalvesStartTheirOwnAttemptCountAndSplitsAreNotRetries() throws Exception {
    AtomicInteger smallAttempts = new AtomicInteger();
    exporter.respondWith(
        r -> {
          if (r.bodies().size() > 2) {
            return ExportResult.tooLarge("413");
          }
          // each 2-record batch fails once, then succeeds: needs its own retry
          return r.attempt() == 1
              ? ExportResult.retryable("503", null, -1)
              : ExportResult.success();
        });
    Producer p = producer(config(newId()).setRetries(1));
    Outcomes outcomes = new Outcomes();
    for (int i = 0; i < 16; i++) {
      p.send(record("r" + i), outcomes);
    }
    p.flush();
    assertEquals(
        Map.of(SendResult.Status.DELIVERED, 16),
        outcomes.statusCounts(),
        "with retries=1 each half still has its one retry");
    assertEquals(
        8,
        p.getMetrics().getRetries(),
        "one retry per 2-record batch; the 7 splits are not retries");
    assertEquals(0, smallAttempts.get());
  }
}
