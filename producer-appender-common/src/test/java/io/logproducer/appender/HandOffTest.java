package io.logproducer.appender;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.testsupport.SchedulerLag;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class HandOffTest {

  private static Thread worker(String name) {
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      if (t.getName().equals(name) && t.isAlive()) {
        return t;
      }
    }
    return null;
  }

  private static void awaitState(Thread t, Thread.State state) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (t.getState() != state && System.nanoTime() < deadline) {
      LockSupport.parkNanos(1_000_000L); // polling a bounded condition
    }
    assertEquals(state, t.getState());
  }

  @Test
  void everyEventOfEveryThreadArrivesOnceInItsThreadsOrder() throws Exception {
    int threads = 4;
    int perThread = 50_000;
    ConcurrentHashMap<Integer, List<Integer>> seen = new ConcurrentHashMap<>();
    AtomicInteger consumed = new AtomicInteger();
    HandOff<int[]> h =
        new HandOff<>(
            "handoff-order",
            1024,
            e -> {
              seen.computeIfAbsent(e[0], k -> new ArrayList<>())
                  .add(e[1]); // one consumer thread: lists are not shared
              consumed.incrementAndGet();
            });
    AtomicInteger refused = new AtomicInteger();
    Thread[] producers = new Thread[threads];
    for (int t = 0; t < threads; t++) {
      int id = t;
      producers[t] =
          new Thread(
              () -> {
                for (int i = 0; i < perThread; i++) {
                  while (!h.offer(
                      new int[] {id, i})) { // full: this test wants every event, so it retries
                    refused.incrementAndGet();
                    Thread.yield();
                  }
                }
              });
      producers[t].start();
    }
    for (Thread p : producers) {
      p.join();
    }
    assertEquals(0, h.stop(10_000));
    assertEquals(threads * perThread, consumed.get());
    for (int t = 0; t < threads; t++) {
      List<Integer> l = seen.get(t);
      assertEquals(perThread, l.size());
      for (int i = 0; i < perThread; i++) {
        assertEquals(i, l.get(i).intValue(), "thread " + t + " position " + i);
      }
    }
    assertFalse(h.isAlive());
  }

  @Test
  void aFullQueueRefusesAtOnceAndTheCapacityIsAPowerOfTwo() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    CountDownLatch first = new CountDownLatch(1);
    AtomicInteger consumed = new AtomicInteger();
    HandOff<Integer> h =
        new HandOff<>(
            "handoff-full",
            5,
            e -> {
              first.countDown();
              try {
                release.await();
              } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
              }
              consumed.incrementAndGet();
            });
    assertEquals(8, h.capacity());
    assertTrue(h.offer(0));
    first.await(); // the worker holds event 0: the queue has 8 free slots
    for (int i = 1; i <= 8; i++) {
      assertFalse(h.looksFull(), "before slot " + i);
      assertTrue(h.offer(i), "slot " + i);
    }
    assertTrue(h.looksFull());
    assertFalse(h.offer(9), "full");
    release.countDown();
    assertEquals(0, h.stop(10_000));
    assertEquals(9, consumed.get());
    assertFalse(h.offer(10), "stopped");
  }

  @Test
  void stopGivesUpAfterItsTimeoutAndSaysWhatIsLeft() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    HandOff<Integer> h =
        new HandOff<>(
            "handoff-stuck",
            16,
            e -> {
              try {
                release.await();
              } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
              }
            });
    for (int i = 0; i < 5; i++) {
      assertTrue(h.offer(i));
    }
    long left;
    try (SchedulerLag lag = SchedulerLag.start()) {
      long start = System.nanoTime();
      left = h.stop(200);
      // its Javadoc: returns within timeoutMillis + 1 s (plus how late this machine wakes it)
      lag.assertWithin(start, 200 + 1_000, "stop(200)");
    }
    assertEquals(4, left, "the worker holds one; four still queued");
    release.countDown();
    Thread w = worker("handoff-stuck");
    if (w != null) {
      w.join(10_000);
      assertFalse(w.isAlive(), "the worker ends after the event it was sending");
    }
  }

  @Test
  void anIdleWorkerParksWithoutATimeout() throws Exception {
    AtomicInteger consumed = new AtomicInteger();
    HandOff<Integer> h = new HandOff<>("handoff-idle", 4, e -> consumed.incrementAndGet());
    Thread w = worker("handoff-idle");
    awaitState(w, Thread.State.WAITING);
    for (int round = 0; round < 1_000; round++) {
      assertTrue(h.offer(round));
      while (consumed.get() <= round) {
        Thread.onSpinWait(); // each event wakes the parked worker
      }
    }
    awaitState(w, Thread.State.WAITING);
    assertEquals(0, h.stop(1_000));
  }

  @Test
  void steadyTrafficDoesNotMakeTheLoggingThreadWakeTheWorker() throws Exception {
    AtomicInteger consumed = new AtomicInteger();
    HandOff<Integer> h = new HandOff<>("handoff-steady", 64, e -> consumed.incrementAndGet());
    awaitState(
        worker("handoff-steady"), Thread.State.WAITING); // asleep: the first offer must wake it
    // The worker goes to sleep only after NAPS_BEFORE_SLEEP naps found no event: at least 20 ms
    // without an offer. Each wake-up after the first therefore needs a gap of 20 ms or more between
    // two offers, which only a machine that stalls this thread makes; they are counted, not
    // guessed.
    long sleepAfterNanos = HandOff.NAP_NANOS * HandOff.NAPS_BEFORE_SLEEP;
    int longGaps = 0;
    long last = 0;
    for (int i = 0; i < 500; i++) {
      long now = System.nanoTime();
      if (i > 0 && now - last >= sleepAfterNanos) {
        longGaps++;
      }
      last = now;
      assertTrue(h.offer(i));
      LockSupport.parkNanos(200_000L); // an event every ~0.2 ms: the worker naps between them
    }
    assertEquals(0, h.stop(10_000));
    assertEquals(500, consumed.get());
    assertTrue(
        h.wakeUps() >= 1 && h.wakeUps() <= 1 + longGaps,
        "wake-ups by producers: "
            + h.wakeUps()
            + " (1 expected: the first event; one more at most per gap of 20 ms or more between"
            + " two offers, of which this machine made "
            + longGaps
            + ")");
  }

  @Test
  void putWaitsForRoomAndEveryEventArrivesWithItsTag() throws Exception {
    int threads = 4;
    int perThread = 20_000;
    long[] sums = new long[threads];
    AtomicInteger consumed = new AtomicInteger();
    HandOff<int[]> h =
        new HandOff<>(
            "handoff-put",
            8,
            (e, tag) -> {
              assertEquals(e[0] * 1_000_000L + e[1], tag, "the tag travels with its event");
              sums[e[0]] += e[1]; // one consumer thread
              consumed.incrementAndGet();
            });
    Thread[] producers = new Thread[threads];
    AtomicInteger refused = new AtomicInteger();
    for (int t = 0; t < threads; t++) {
      int id = t;
      producers[t] =
          new Thread(
              () -> {
                for (int i = 0; i < perThread; i++) {
                  if (!h.put(new int[] {id, i}, id * 1_000_000L + i)) {
                    refused.incrementAndGet();
                  }
                }
              });
      producers[t].start();
    }
    for (Thread p : producers) {
      p.join();
    }
    assertEquals(0, h.stop(10_000));
    // put gives an event back only when the worker took nothing for 50 ms: on a machine this test
    // shares with others that can happen, rarely; the event is then the caller's, never lost.
    assertTrue(refused.get() <= 100, "refused " + refused.get());
    assertEquals(threads * perThread, consumed.get() + refused.get());
    if (refused.get() == 0) {
      for (int t = 0; t < threads; t++) {
        assertEquals((long) perThread * (perThread - 1) / 2, sums[t], "thread " + t);
      }
    }
    assertTrue(h.waitCount() > 0, "8 slots for 4 threads: some puts waited");
  }

  @Test
  void putGivesUpWhenTheWorkerStallsAndWhenTheHandOffStops() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    CountDownLatch first = new CountDownLatch(1);
    HandOff<Integer> h =
        new HandOff<>(
            "handoff-stall",
            1,
            e -> {
              first.countDown();
              try {
                release.await();
              } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
              }
            });
    assertTrue(h.put(0, 0));
    first.await(); // the worker holds event 0
    assertTrue(h.put(1, 0)); // the one slot
    long start = System.nanoTime();
    assertFalse(h.put(2, 0), "the worker took nothing: put gives the event back");
    long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    assertTrue(
        waited >= HandOff.STALL_MILLIS && waited < HandOff.STALL_MILLIS + 5_000,
        "waited " + waited + " ms");
    CountDownLatch waiting = new CountDownLatch(1);
    boolean[] result = {true};
    Thread waiter =
        new Thread(
            () -> {
              waiting.countDown();
              result[0] = h.put(3, 0);
            });
    waiter.start();
    waiting.await();
    release.countDown(); // the worker goes on: 1 is taken, then 3 may be queued or refused
    assertEquals(0, h.stop(10_000));
    waiter.join(10_000);
    assertFalse(waiter.isAlive());
    assertFalse(h.put(4, 0), "stopped");
  }

  @Test
  void awaitDrainedReturnsOnceTheQueuedEventsWereConsumed() throws Exception {
    AtomicInteger consumed = new AtomicInteger();
    HandOff<Integer> h =
        new HandOff<>(
            "handoff-drain",
            1024,
            e -> {
              LockSupport.parkNanos(20_000L); // a slow consumer: 1,000 events take over 20 ms
              consumed.incrementAndGet();
            });
    for (int i = 0; i < 1_000; i++) {
      assertTrue(h.offer(i));
    }
    assertTrue(h.awaitDrained(30_000));
    assertEquals(1_000, consumed.get(), "every event queued before the call was consumed");
    assertEquals(0, h.stop(1_000));
    assertTrue(h.awaitDrained(0), "nothing queued after the stop");
  }

  @Test
  void manyDrainWaitersEachReturnOnceTheEventsQueuedBeforeThemWereConsumed() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    AtomicInteger consumed = new AtomicInteger();
    HandOff<Integer> h =
        new HandOff<>(
            "handoff-drain-many",
            4096,
            e -> {
              if (e == 0) {
                try {
                  release.await(); // the worker holds the first event until every waiter waits
                } catch (InterruptedException ie) {
                  Thread.currentThread().interrupt();
                }
              }
              consumed.incrementAndGet();
            });
    int waiters = 50;
    List<Thread> threads = new ArrayList<>();
    ConcurrentHashMap<Integer, String> wrong = new ConcurrentHashMap<>();
    CountDownLatch queued = new CountDownLatch(waiters);
    int[] offered = {0};
    assertTrue(h.offer(0)); // the event the worker holds
    offered[0] = 1;
    for (int w = 0; w < waiters; w++) {
      int waiter = w;
      threads.add(
          new Thread(
              () -> {
                int before;
                synchronized (offered) { // every event offered before this waiter's wait
                  for (int i = 0; i < 3; i++) {
                    h.offer(1 + waiter * 3 + i);
                  }
                  offered[0] += 3;
                  before = offered[0];
                }
                queued.countDown();
                boolean drained = h.awaitDrained(60_000);
                int seen = consumed.get();
                if (!drained || seen < before) {
                  wrong.put(waiter, "drained=" + drained + " consumed=" + seen + " < " + before);
                }
              },
              "drain-waiter-" + w));
    }
    for (Thread t : threads) {
      t.start();
    }
    assertTrue(queued.await(30, TimeUnit.SECONDS));
    release.countDown();
    for (Thread t : threads) {
      t.join(TimeUnit.SECONDS.toMillis(60));
      assertFalse(t.isAlive(), t.getName() + " still waits for the drain");
    }
    assertEquals(Collections.emptyMap(), wrong);
    assertEquals(1 + 3 * waiters, consumed.get());
    assertEquals(0, h.stop(1_000));
  }

  @Test
  void badCapacityIsRefused() {
    assertEquals(
        "queueSize must be in [1, 1048576], was 0",
        assertThrows(IllegalArgumentException.class, () -> new HandOff<Integer>("x", 0, e -> {}))
            .getMessage());
  }
}
