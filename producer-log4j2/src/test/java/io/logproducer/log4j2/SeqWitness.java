package io.logproducer.log4j2;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import org.apache.logging.log4j.core.Appender;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Node;
import org.apache.logging.log4j.core.config.Property;
import org.apache.logging.log4j.core.config.plugins.Plugin;
import org.apache.logging.log4j.core.config.plugins.PluginAttribute;
import org.apache.logging.log4j.core.config.plugins.PluginFactory;
import org.apache.logging.log4j.message.MapMessage;

/**
 * A test appender beside the Logproducer one: records the {@code seq} of every MapMessage log4j2
 * hands it into the set registered under its {@code run} (shared by the instances every
 * reconfiguration creates).
 */
@Plugin(name = "SeqWitness", category = Node.CATEGORY, elementType = Appender.ELEMENT_TYPE)
public final class SeqWitness extends AbstractAppender {

  static final Map<String, Seqs> RUNS = new ConcurrentHashMap<>();

  private final Seqs seen;

  private SeqWitness(String name, Seqs seen) {
    super(name, null, null, true, Property.EMPTY_ARRAY);
    this.seen = seen;
  }

  @PluginFactory
  public static SeqWitness create(
      @PluginAttribute("name") String name, @PluginAttribute("run") String run) {
    return new SeqWitness(name, RUNS.get(run));
  }

  @Override
  public void append(LogEvent event) {
    if (seen != null && event.getMessage() instanceof MapMessage<?, ?> m) {
      Object seq = m.get("seq");
      if (seq != null) {
        seen.add(Long.parseLong(seq.toString()));
      }
    }
  }

  /** A thread-safe set of numbers in [0, capacity) as a bit set; counts numbers added twice. */
  static final class Seqs {
    private final AtomicLongArray bits;
    private final long capacity;
    final AtomicLong anomalies = new AtomicLong();

    Seqs(long capacity) {
      this.capacity = capacity;
      this.bits = new AtomicLongArray((int) ((capacity + 63) / 64));
    }

    void add(long seq) {
      if (seq < 0 || seq >= capacity) {
        anomalies.incrementAndGet();
        return;
      }
      int i = (int) (seq >>> 6);
      long mask = 1L << (seq & 63);
      long old;
      do {
        old = bits.get(i);
        if ((old & mask) != 0) {
          anomalies.incrementAndGet();
          return;
        }
      } while (!bits.compareAndSet(i, old, old | mask));
    }

    long count() {
      long n = 0;
      for (int i = 0; i < bits.length(); i++) {
        n += Long.bitCount(bits.get(i));
      }
      return n;
    }

    /** {@return how many numbers of this set {@code other} lacks} */
    long missingFrom(Seqs other) {
      long n = 0;
      for (int i = 0; i < bits.length(); i++) {
        n += Long.bitCount(bits.get(i) & ~other.bits.get(i));
      }
      return n;
    }
  }
}
