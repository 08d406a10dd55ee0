package io.logproducer.internal.spool;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.SpoolConfig;
import io.logproducer.SpoolDurability;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;

/** Helpers shared by the spool tests: configs, payloads, file sizes, read-back. */
final class SpoolTestSupport {

  private SpoolTestSupport() {}

  /** The storage timings of tests: no background checkpoint during a test, retry at once. */
  static final SpoolTuning TUNING = new SpoolTuning(3_600_000, 0, 0, System::currentTimeMillis);

  /**
   * A config for tests (through the public builder): NONE durability, no free-disk guard, no maxAge
   * (entries are created at small epoch millis).
   */
  static SpoolConfig.Builder config(Path dir, long segmentBytes, long maxBytes) {
    return SpoolConfig.builder(dir)
        .setSegmentBytes(segmentBytes)
        .setMaxBytes(maxBytes)
        .setDurability(SpoolDurability.NONE)
        .setMinFreeDiskShare(0)
        .setMaxAgeMillis(Long.MAX_VALUE);
  }

  /** {@return the spool of {@code cfg} of kind "test", no events, with {@link #TUNING}} */
  static Spool open(SpoolConfig cfg) {
    return open(cfg, SpoolEvents.NONE);
  }

  /**
   * {@return the spool of {@code cfg} of kind "test" telling {@code events}, with {@link #TUNING}}
   */
  static Spool open(SpoolConfig cfg, SpoolEvents events) {
    return Spool.open(cfg, "test", events, TUNING);
  }

  /** {@return a payload of {@code size} bytes derived from {@code seed}} */
  static byte[] payload(long seed, int size) {
    byte[] b = new byte[size];
    new Random(seed).nextBytes(b);
    return b;
  }

  /** {@return meta bytes derived from {@code seed}} */
  static byte[] meta(long seed) {
    return ("meta-" + seed).getBytes(java.nio.charset.StandardCharsets.UTF_8);
  }

  /** Appends entry number {@code n} of {@code size} bytes; asserts it was stored; {@return seq} */
  static long append(Spool spool, long n, int size) {
    AppendResult r = spool.append(1000 + n, (int) n, meta(n), ByteBuffer.wrap(payload(n, size)));
    assertTrue(r.stored(), () -> "append " + n + ": " + r);
    return r.sequence();
  }

  /** {@return the sum of the sizes of every regular file in {@code dir}} */
  static long sumFileSizes(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      long sum = 0;
      for (Path p : (Iterable<Path>) s::iterator) {
        if (Files.isRegularFile(p)) {
          sum += Files.size(p);
        }
      }
      return sum;
    }
  }

  /** {@return the segment files of {@code dir}, sorted} */
  static List<Path> segments(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      List<Path> out = new ArrayList<>();
      s.filter(p -> p.getFileName().toString().endsWith(".seg")).sorted().forEach(out::add);
      return out;
    }
  }

  /** One entry read back, copied. */
  static final class Read {
    private final long sequence;
    private final long createdAt;
    private final int recordCount;
    private final byte[] meta;
    private final byte[] payload;

    Read(long sequence, long createdAt, int recordCount, byte[] meta, byte[] payload) {
      this.sequence = sequence;
      this.createdAt = createdAt;
      this.recordCount = recordCount;
      this.meta = meta;
      this.payload = payload;
    }

    long sequence() {
      return sequence;
    }

    long createdAt() {
      return createdAt;
    }

    int recordCount() {
      return recordCount;
    }

    byte[] meta() {
      return meta;
    }

    byte[] payload() {
      return payload;
    }

    @Override
    public boolean equals(Object o) {
      if (!(o instanceof Read)) {
        return false;
      }
      Read other = (Read) o;
      return sequence == other.sequence
          && createdAt == other.createdAt
          && recordCount == other.recordCount
          && java.util.Objects.equals(meta, other.meta)
          && java.util.Objects.equals(payload, other.payload);
    }

    @Override
    public int hashCode() {
      return java.util.Objects.hash(sequence, createdAt, recordCount, meta, payload);
    }

    @Override
    public String toString() {
      return "Read[sequence="
          + sequence
          + ", createdAt="
          + createdAt
          + ", recordCount="
          + recordCount
          + ", meta="
          + meta
          + ", payload="
          + payload
          + "]";
    }
  }

  /** {@return every pending entry, read through a fresh cursor} */
  static List<Read> readAll(Spool spool) {
    List<Read> out = new ArrayList<>();
    try (SpoolCursor c = spool.cursor()) {
      for (SpoolEntry e = c.next(); e != null; e = c.next()) {
        byte[] p = new byte[e.payload().remaining()];
        e.payload().get(p);
        out.add(new Read(e.sequence(), e.createdAtMillis(), e.recordCount(), e.meta(), p));
      }
    }
    return out;
  }

  /**
   * Asserts that {@code r} is entry number {@code n} of {@code size} bytes as {@link #append} wrote
   * it.
   */
  static void assertEntry(Read r, long n, int size) {
    assertEquals(1000 + n, r.createdAt(), "createdAt of " + n);
    assertEquals((int) n, r.recordCount(), "recordCount of " + n);
    assertArrayEquals(meta(n), r.meta(), "meta of " + n);
    assertArrayEquals(payload(n, size), r.payload(), "payload of " + n);
  }

  /** {@return the sequences of {@code reads}} */
  static List<Long> sequences(List<Read> reads) {
    List<Long> out = new ArrayList<>();
    reads.forEach(r -> out.add(r.sequence()));
    return out;
  }

  /** A listener recording every event. */
  static final class Recorder implements SpoolEvents {
    final List<String> events = new CopyOnWriteArrayList<>();
    final List<Long> discarded = new CopyOnWriteArrayList<>();

    @Override
    public void onDiscarded(DiscardReason reason, long sequence, int recordCount, byte[] meta) {
      events.add(
          reason
              + " "
              + sequence
              + " "
              + recordCount
              + " "
              + (meta == null
                  ? "null"
                  : new String(meta, java.nio.charset.StandardCharsets.UTF_8)));
      discarded.add(sequence);
    }

    long count(DiscardReason reason) {
      return events.stream().filter(e -> e.startsWith(reason.name() + " ")).count();
    }
  }
}
