package com.example.logproducer.sample;

import java.util.BitSet;
import java.util.function.LongConsumer;

/**
 * Counts, from the embedded receiver, the sample's lines by their {@value LogController#SEQ_KEY}
 * number: distinct lines in [0, expected), duplicates, and records without a number (Spring's own
 * lines). Fed on the receiver's threads (the receiver calls {@link #accept} for every record of a
 * request before answering it). Thread-safe.
 */
final class ReceivedLines implements LongConsumer {

  private final long expected;
  private final BitSet seen;
  private long distinct;
  private long duplicates;
  private long outOfRange;
  private long unnumbered;

  /**
   * @param expected the number of lines the run logs, numbered 0 … expected-1; at most {@link
   *     Integer#MAX_VALUE}
   */
  ReceivedLines(long expected) {
    this.expected = expected;
    this.seen = new BitSet((int) expected);
  }

  /** Counts one record: its number, or -1 for a record without one. */
  @Override
  public synchronized void accept(long seq) {
    if (seq < 0) {
      unnumbered++;
    } else if (seq >= expected) {
      outOfRange++;
    } else if (seen.get((int) seq)) {
      duplicates++;
    } else {
      seen.set((int) seq);
      distinct++;
    }
  }

  /** {@return the distinct lines of the run received} */
  synchronized long distinct() {
    return distinct;
  }

  /** {@return the lines received more than once (each extra copy counts)} */
  synchronized long duplicates() {
    return duplicates + outOfRange;
  }

  /** {@return the records received without a line number: Spring's and the server's own lines} */
  synchronized long unnumbered() {
    return unnumbered;
  }
}
