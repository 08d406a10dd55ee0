package io.logproducer.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.SendResult;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class OutcomesTest {

  private static SendResult result(SendResult.Status status) {
    return new SendResult(status, 1, 1, 0, status.name(), null);
  }

  @Test
  void countsOutcomesWithAndWithoutIds() {
    Outcomes outcomes = new Outcomes();
    outcomes.onCompletion(result(SendResult.Status.DELIVERED));
    outcomes.callback(1).onCompletion(result(SendResult.Status.DELIVERED));
    outcomes.callback(2).onCompletion(result(SendResult.Status.FAILED));
    outcomes.callback(2).onCompletion(result(SendResult.Status.DELIVERED));
    assertEquals(4, outcomes.total());
    assertEquals(2, outcomes.distinctIds());
    assertEquals(1, outcomes.duplicates());
    assertEquals(
        SendResult.Status.FAILED, outcomes.get(2).getStatus(), "the first outcome of id 2");
    assertNull(outcomes.get(3));
    assertEquals(new TreeSet<>(Arrays.asList(1)), outcomes.idsWith(SendResult.Status.DELIVERED));
    Map<SendResult.Status, Integer> expected = new EnumMap<>(SendResult.Status.class);
    expected.put(SendResult.Status.DELIVERED, 3);
    expected.put(SendResult.Status.FAILED, 1);
    assertEquals(expected, outcomes.statusCounts());
    assertEquals(SendResult.Status.DELIVERED, outcomes.all().get(0).getStatus());
  }

  @Test
  void awaitingReturnsWhenTheOutcomesArriveOrTimesOut() throws Exception {
    Outcomes outcomes = new Outcomes();
    Thread t = new Thread(() -> outcomes.onCompletion(result(SendResult.Status.DELIVERED)));
    t.start();
    assertTrue(outcomes.await(1, 10_000));
    t.join();
    assertFalse(outcomes.await(2, 10));
    AssertionError e = assertThrows(AssertionError.class, () -> outcomes.awaitCount(2, 10));
    assertEquals("expected 2 outcomes within 10 ms, got 1: {DELIVERED=1}", e.getMessage());
    assertTrue(Outcomes.until(() -> true, 0));
    assertFalse(Outcomes.until(() -> false, 20));
  }
}
