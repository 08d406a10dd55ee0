package io.logproducer.appender;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class QueueBudgetTest {

  @Test
  void smallEventsNeedNoReservation() {
    assertTrue(QueueBudget.isSmall(2048, 32, false));
    assertFalse(QueueBudget.isSmall(2049, 0, false), "a long message");
    assertFalse(QueueBudget.isSmall(0, 33, false), "a large MDC");
    assertFalse(QueueBudget.isSmall(0, 0, true), "an exception");
  }

  @Test
  void largeEventsReserveTheirEstimateUntilReleased() {
    assertEquals(256 + 2 * 3000 + 64 * 40 + 48 * 100, QueueBudget.estimate(3000, 40, 100));
    QueueBudget budget = new QueueBudget();
    long half = QueueBudget.LARGE_BYTES / 2;
    assertTrue(budget.tryReserve(half));
    assertTrue(budget.tryReserve(half));
    assertEquals(QueueBudget.LARGE_BYTES, budget.reservedBytes());
    assertFalse(budget.tryReserve(1), "full: mapped on the logging thread");
    budget.release(half);
    assertTrue(budget.tryReserve(half - 1));
    assertFalse(budget.tryReserve(2));
    budget.release(half);
    budget.release(half - 1);
    assertEquals(0, budget.reservedBytes());
  }
}
