package io.logproducer.benchmark.harness;

import io.logproducer.SpoolConfig;
import io.logproducer.SpoolDurability;
import io.logproducer.SpoolFullPolicy;
import io.logproducer.internal.spool.AppendResult;
import io.logproducer.internal.spool.Spool;
import io.logproducer.internal.spool.SpoolEvents;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

/**
 * Builds a disk spool of a given size and times it: the append rate (MB/s on disk, entries/s) under
 * a durability policy, then the open time of the spool (the median of 3 clean opens), then the open
 * time after a simulated crash (the newest segment's footer cut off and the file extended back to
 * segmentBytes with zeros, as a crash before its seal leaves it, so the open scans it whole). Not a
 * test: run by hand, e.g.
 *
 * <pre>
 * java -cp producer-benchmark/target/classes:producer-core/target/classes \
 *   io.logproducer.benchmark.harness.SpoolOpenProbe --dir /var/tmp/spool-probe --gib 1 \
 *   --entry-kib 256 --segment-mib 64 --durability GROUP_COMMIT [--write-only] [--keep]
 * </pre>
 *
 * The directory is deleted first and, unless {@code --keep}, at the end. The page cache is not
 * dropped: open times are warm-cache unless the caller drops it between runs.
 */
public final class SpoolOpenProbe {

  private SpoolOpenProbe() {}

  /** Runs the probe with the options above; prints one line per measurement. */
  public static void main(String[] args) throws Exception {
    List<String> a = Arrays.asList(args);
    Path dir = Paths.get(option(a, "--dir", "/var/tmp/spool-probe"));
    double gib = Double.parseDouble(option(a, "--gib", "1"));
    int entryBytes = Integer.parseInt(option(a, "--entry-kib", "256")) << 10;
    long segment = Long.parseLong(option(a, "--segment-mib", "64")) << 20;
    SpoolDurability durability = SpoolDurability.valueOf(option(a, "--durability", "NONE"));
    long target = (long) (gib * (1L << 30));
    deleteRecursively(dir);
    SpoolConfig cfg =
        SpoolConfig.builder(dir)
            .setSegmentBytes(segment)
            .setMaxBytes(target + 4 * segment + SpoolConfig.FIXED_OVERHEAD_BYTES)
            .setDurability(durability)
            .setGroupCommitMillis(200)
            .setFullPolicy(SpoolFullPolicy.DROP_NEWEST, 0)
            .setMinFreeDiskShare(0.05)
            .build();
    try {
      write(cfg, target, entryBytes, durability);
      if (!a.contains("--write-only")) {
        timeOpens(cfg, segment);
      }
    } finally {
      if (!a.contains("--keep")) {
        deleteRecursively(dir);
      }
    }
  }

  private static void write(SpoolConfig cfg, long target, int entryBytes, SpoolDurability d)
      throws IOException {
    byte[] payload = new byte[entryBytes];
    new Random(1).nextBytes(payload);
    byte[] meta = new byte[64];
    long start = System.nanoTime();
    long entries = 0;
    try (Spool spool = Spool.open(cfg, "probe", SpoolEvents.NONE)) {
      while (spool.bytesUsed() < target) {
        AppendResult r =
            spool.append(System.currentTimeMillis(), 1000, meta, ByteBuffer.wrap(payload));
        if (!r.stored()) {
          throw new IOException("append refused: " + r);
        }
        entries++;
      }
      long nanos = System.nanoTime() - start;
      long bytes = spool.bytesUsed();
      System.out.printf(
          "append durability=%s entry=%d B: %d entries, %d bytes in %d ms = %.1f MB/s, %.0f"
              + " entries/s (close excluded)%n",
          d,
          entryBytes,
          entries,
          bytes,
          nanos / 1_000_000,
          bytes / 1e6 / (nanos / 1e9),
          entries / (nanos / 1e9));
    }
  }

  private static void timeOpens(SpoolConfig cfg, long segmentBytes) throws IOException {
    long[] millis = new long[3];
    long pending = 0;
    int segments = 0;
    for (int i = 0; i < millis.length; i++) {
      long t = System.nanoTime();
      try (Spool spool = Spool.open(cfg, "probe", SpoolEvents.NONE)) {
        millis[i] = (System.nanoTime() - t) / 1_000_000;
        pending = spool.pendingEntries();
        segments = spool.segmentCount();
      }
    }
    Arrays.sort(millis);
    System.out.printf(
        "open (clean close): %d segments, %d pending entries: median %d ms of %s%n",
        segments, pending, millis[1], Arrays.toString(millis));
    Path newest = newestSegment(cfg.getDirectory());
    long size = Files.size(newest);
    try (RandomAccessFile f = new RandomAccessFile(newest.toFile(), "rw")) {
      f.seek(size - 24);
      long dataEnd = f.readLong();
      f.setLength(dataEnd);
      f.setLength(segmentBytes);
    }
    long t = System.nanoTime();
    try (Spool spool = Spool.open(cfg, "probe", SpoolEvents.NONE)) {
      long ms = (System.nanoTime() - t) / 1_000_000;
      System.out.printf(
          "open (after a crash: newest segment unsealed, %d bytes scanned): %d ms, %d pending, %d"
              + " corrupt%n",
          segmentBytes, ms, spool.pendingEntries(), spool.corruptEntries());
    }
  }

  private static Path newestSegment(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      List<Path> segs = new ArrayList<>();
      s.filter(p -> p.toString().endsWith(".seg")).sorted().forEach(segs::add);
      return segs.get(segs.size() - 1);
    }
  }

  private static String option(List<String> args, String name, String fallback) {
    int i = args.indexOf(name);
    return i >= 0 && i + 1 < args.size() ? args.get(i + 1) : fallback;
  }

  private static void deleteRecursively(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) s.sorted(Comparator.reverseOrder())::iterator) {
        Files.delete(p);
      }
    }
  }
}
