package io.logproducer.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.BufferExhaustedException;
import io.logproducer.ProducerInterruptedException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class MemoryBudgetTest {

  @Test
  void reservesAndReleasesExactBytesAndTracksPeak() {
    MemoryBudget budget = new MemoryBudget(1000);
    assertTrue(budget.tryReserve(600));
    assertTrue(budget.tryReserve(400));
    assertFalse(budget.tryReserve(1));
    assertEquals(1000, budget.used());
    budget.release(700);
    assertEquals(300, budget.used());
    assertEquals(1000, budget.peak());
    budget.release(300);
    assertEquals(0, budget.used());
  }

  @Test
  void releasingMoreThanReservedIsABug() {
    MemoryBudget budget = new MemoryBudget(100);
    budget.tryReserve(10);
    assertThrows(IllegalStateException.class, () -> budget.release(11));
  }

  @Test
  void reservingMoreThanTheWholeBudgetIsRefused() {
    MemoryBudget budget = new MemoryBudget(100);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> budget.reserve(101, 0));
    assertEquals("cannot reserve 101 bytes from a budget of 100", e.getMessage());
  }

  @Test
  void timesOutWithTheBudgetStateInTheMessage() {
    MemoryBudget budget = new MemoryBudget(2000);
    budget.tryReserve(1500);
    long start = System.nanoTime();
    BufferExhaustedException e =
        assertThrows(BufferExhaustedException.class, () -> budget.reserve(600, 200));
    assertTrue(System.nanoTime() - start >= TimeUnit.MILLISECONDS.toNanos(200));
    assertEquals(
        "failed to reserve 600 bytes within 200 ms: budget 2,000, in use 1,500, waiting threads 1",
        e.getMessage());
    assertEquals(1500, budget.used());
    assertEquals(0, budget.waitingThreads());
    assertTrue(budget.blockedNanos() >= TimeUnit.MILLISECONDS.toNanos(200));
  }

  @Test
  void waitersAreServedLongestFirstAndABigOneIsNotStarved() throws Exception {
    MemoryBudget budget = new MemoryBudget(1000);
    budget.tryReserve(1000);
    List<String> order = new CopyOnWriteArrayList<>();
    Thread big =
        new Thread(
            () -> {
              budget.reserve(800, 10_000);
              order.add("big");
            });
    big.start();
    awaitWaiters(budget, 1);
    Thread small =
        new Thread(
            () -> {
              budget.reserve(100, 10_000);
              order.add("small");
            });
    small.start();
    awaitWaiters(budget, 2);
    // 300 free would fit the small one, but the big one waits longer: small must not jump the
    // queue.
    budget.release(300);
    assertEquals(List.of(), order);
    assertEquals(2, budget.waitingThreads());
    budget.release(
        600); // 900 free: the head (big) completes first, then small fits in the remaining 100
    big.join(5000);
    small.join(5000);
    assertEquals(java.util.Set.of("big", "small"), java.util.Set.copyOf(order));
    assertEquals(1000, budget.used());
  }

  @Test
  void aSenderWaitingAgainKeepsItsPlaceAndOnlyTheHeadHoldsBytes() throws Exception {
    MemoryBudget budget = new MemoryBudget(1000);
    budget.tryReserve(1000);
    List<String> order = new CopyOnWriteArrayList<>();
    Thread later =
        new Thread(
            () -> {
              budget.reserve(800, 10_000);
              order.add("later");
            });
    later.start();
    awaitWaiters(budget, 1);
    budget.release(300);
    awaitUsed(budget, 1000); // the head took the 300 towards its 800
    assertEquals(800, budget.headWanted());
    // A sender that first waited before it (and must wait again: its batch was sealed meanwhile)
    // goes in front, and the one it displaced gives back what it took.
    Thread earlier =
        new Thread(
            () -> {
              budget.reserve(500, 10_000, System.nanoTime() - TimeUnit.SECONDS.toNanos(1));
              order.add("earlier");
            });
    earlier.start();
    awaitWaiters(budget, 2);
    assertEquals(500, budget.headWanted());
    budget.release(200); // 500 for the head only if the displaced waiter gave its 300 back
    earlier.join(5000);
    assertFalse(earlier.isAlive(), "the head got its 500: no other waiter held bytes");
    assertEquals(List.of("earlier"), order);
    assertEquals(1000, budget.used());
    assertEquals(800, budget.headWanted());
    budget.release(1000); // the 500 still held here, and the head's
    later.join(5000);
    assertEquals(List.of("earlier", "later"), order);
    assertEquals(800, budget.used());
    assertEquals(0, budget.headWanted());
  }

  @Test
  void interruptedWaiterGetsTypedExceptionAndTheBudgetIsWhole() throws Exception {
    MemoryBudget budget = new MemoryBudget(100);
    budget.tryReserve(100);
    AtomicReference<Throwable> thrown = new AtomicReference<>();
    AtomicReference<Boolean> flag = new AtomicReference<>();
    Thread t =
        new Thread(
            () -> {
              try {
                budget.reserve(50, 60_000);
              } catch (Throwable e) {
                thrown.set(e);
                flag.set(Thread.currentThread().isInterrupted());
              }
            });
    t.start();
    awaitWaiters(budget, 1);
    t.interrupt();
    t.join(5000);
    assertTrue(thrown.get() instanceof ProducerInterruptedException, String.valueOf(thrown.get()));
    assertTrue(flag.get(), "interrupt status restored");
    assertEquals(100, budget.used());
    assertEquals(0, budget.waitingThreads());
    budget.release(100);
    assertTrue(budget.tryReserve(100), "nothing leaked");
  }

  @Test
  void closeWakesEveryWaiter() throws Exception {
    MemoryBudget budget = new MemoryBudget(100);
    budget.tryReserve(100);
    CountDownLatch failed = new CountDownLatch(3);
    for (int i = 0; i < 3; i++) {
      new Thread(
              () -> {
                try {
                  budget.reserve(10, 60_000);
                } catch (IllegalStateException e) {
                  failed.countDown();
                }
              })
          .start();
    }
    awaitWaiters(budget, 3);
    budget.close();
    assertTrue(failed.await(30, TimeUnit.SECONDS));
    assertEquals(100, budget.used());
  }

  @Test
  void concurrentReserveReleaseNeverExceedsTheBound() throws Exception {
    MemoryBudget budget = new MemoryBudget(10_000);
    Thread[] threads = new Thread[8];
    for (int i = 0; i < threads.length; i++) {
      int size = 100 + i * 300;
      threads[i] =
          new Thread(
              () -> {
                for (int j = 0; j < 20_000; j++) {
                  budget.reserve(size, 10_000);
                  budget.release(size);
                }
              });
      threads[i].start();
    }
    for (Thread t : threads) {
      t.join(20_000);
    }
    assertEquals(0, budget.used());
    assertTrue(budget.peak() <= 10_000, "peak " + budget.peak());
  }

  static void awaitUsed(MemoryBudget budget, long used) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (budget.used() != used) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("expected " + used + " bytes in use, have " + budget.used());
      }
      Thread.onSpinWait();
    }
  }

  static void awaitWaiters(MemoryBudget budget, int n) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (budget.waitingThreads() < n) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("expected " + n + " waiters, have " + budget.waitingThreads());
      }
      Thread.onSpinWait();
    }
  }
}
