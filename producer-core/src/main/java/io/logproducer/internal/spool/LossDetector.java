package io.logproducer.internal.spool;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Tells at open what should be on disk from what is: the checkpoint's manifest (each segment with
 * unacknowledged entries: how many, how many records) and the journals since (every entry appended
 * and acknowledged after it) against the segments found. A segment that is missing, empty or
 * shorter than what was written into it, and not acknowledged, is a loss: one {@link Lost} per
 * segment, with its batches and records (-1 records when the checkpoint could not know them).
 * Entries the scanner already counted as damaged in that segment are not counted again. Without a
 * checkpoint (missing or damaged) only the journals' entries can be checked. Confined to the
 * opening thread.
 */
final class LossDetector {

  /** One lost range: the segment file, the sequences it spanned, batches and records lost. */
  static final class Lost {
    final String file;
    final long fromSequence;
    final long toSequence;
    final int batches;
    final long records;

    Lost(String file, long fromSequence, long toSequence, int batches, long records) {
      this.file = file;
      this.fromSequence = fromSequence;
      this.toSequence = toSequence;
      this.batches = batches;
      this.records = records;
    }
  }

  private final Checkpoint cp;
  private final Map<Long, Checkpoint.SegmentState> manifest = new HashMap<>();
  private final Map<Long, Integer> acked = new HashMap<>();
  private final Map<Long, Long> ackedBase = new HashMap<>();
  private final Map<Long, TreeMap<Long, Integer>> appended = new HashMap<>();
  private final Map<Long, Integer> damaged = new HashMap<>();
  private long highest;

  /** A detector of {@code cp} (null when missing or damaged) and the journals' records since. */
  LossDetector(Checkpoint cp, List<SpoolJournal.Record> journal) {
    this.cp = cp;
    if (cp != null && cp.segments != null) {
      for (Checkpoint.SegmentState s : cp.segments) {
        manifest.put(s.base, s);
      }
    }
    for (SpoolJournal.Record r : journal) {
      highest = Math.max(highest, r.sequence);
      if (r.type == SpoolJournal.ACK) {
        acked.put(r.sequence, r.recordCount);
        ackedBase.put(r.sequence, r.segmentBase);
      } else {
        appended
            .computeIfAbsent(r.segmentBase, k -> new TreeMap<>())
            .put(r.sequence, r.recordCount);
      }
    }
  }

  /** {@return the highest sequence the journals name, or 0} */
  long highestJournaled() {
    return highest;
  }

  /** {@return whether the checkpoint or a journal acknowledges {@code sequence}} */
  boolean acknowledged(long sequence) {
    return (cp != null && cp.acknowledges(sequence)) || acked.containsKey(sequence);
  }

  /** The scanner found {@code n} damaged entries in the segment of base {@code base}. */
  void damaged(long base, int n) {
    if (n > 0) {
      damaged.merge(base, n, Integer::sum);
    }
  }

  /**
   * {@return whether the file {@code path} (a segment name of base {@code base}) is no segment of
   * this spool}: the checkpoint has a manifest that does not list it, no journal wrote into it, its
   * base is below the checkpoint's next sequence (so the manifest would list it if it held a
   * pending entry), and it holds no whole entry (only bytes that are not zeros). Such a file is a
   * stray (copied in, or left by a tool), not damage.
   */
  boolean isStray(long base, Path path, long maxEntryBytes) throws IOException {
    if (cp == null
        || cp.segments == null
        || manifest.containsKey(base)
        || appended.containsKey(base)
        || base >= cp.nextSequence) {
      return false;
    }
    try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
      long size = ch.size();
      if (size == 0) {
        return false;
      }
      Segment probe = new Segment(path, base);
      if (SegmentFiles.readFooter(ch, size, probe)) {
        return false;
      }
      SegmentScanner scanner = new SegmentScanner(ch, size, maxEntryBytes);
      scanner.scanInto(probe, base - 1);
      return probe.count() == 0 && scanner.corrupt() > 0;
    }
  }

  /** {@return the losses, given the segments loaded and marked acknowledged} */
  List<Lost> lost(TreeMap<Long, Segment> segments) {
    TreeSet<Long> bases = new TreeSet<>(manifest.keySet());
    bases.addAll(appended.keySet());
    List<Lost> out = new ArrayList<>();
    for (long base : bases) {
      Lost l = lostIn(base, segments.get(base));
      if (l != null) {
        out.add(l);
      }
    }
    return out;
  }

  private Lost lostIn(long base, Segment actual) {
    int batches = 0;
    long records = 0;
    long from = Long.MAX_VALUE;
    long to = Long.MIN_VALUE;
    Checkpoint.SegmentState st = manifest.get(base);
    long manifestLast = Long.MIN_VALUE;
    if (st != null) {
      manifestLast = st.lastSequence;
      int expected = st.unackedCount;
      long expectedRecords = st.unackedRecords;
      for (Map.Entry<Long, Integer> a : acked.entrySet()) {
        long seq = a.getKey();
        if (ackedBase.get(seq) == base && seq <= st.lastSequence && !cp.acknowledges(seq)) {
          expected--;
          expectedRecords =
              a.getValue() < 0 || expectedRecords < 0 ? -1 : expectedRecords - a.getValue();
        }
      }
      int present = 0;
      long presentRecords = 0;
      if (actual != null) {
        for (int i = 0; i < actual.count(); i++) {
          if (actual.sequenceAt(i) <= st.lastSequence && !actual.isAcked(i)) {
            present++;
            int rc = actual.recordsAt(i);
            presentRecords = rc < 0 || presentRecords < 0 ? -1 : presentRecords + rc;
          }
        }
      }
      if (expected > present) {
        batches += expected - present;
        records = expectedRecords < 0 || presentRecords < 0 ? -1 : expectedRecords - presentRecords;
        from = base;
        to = st.lastSequence;
      }
    }
    TreeMap<Long, Integer> journaled = appended.get(base);
    if (journaled != null) {
      for (Map.Entry<Long, Integer> e : journaled.entrySet()) {
        long seq = e.getKey();
        if (seq <= manifestLast
            || acknowledged(seq)
            || (actual != null && actual.indexOf(seq) >= 0)) {
          continue;
        }
        batches++;
        records = records < 0 || e.getValue() < 0 ? -1 : records + e.getValue();
        from = Math.min(from, seq);
        to = Math.max(to, seq);
      }
    }
    int counted = damaged.getOrDefault(base, 0);
    if (batches <= counted) {
      return null;
    }
    if (counted > 0) {
      records = -1; // which of the missing entries the damaged ones were is not known
    }
    return new Lost(Segment.fileName(base), from, to, batches - counted, records);
  }

  /**
   * The cursor found the file of {@code s} gone: every pending entry in it is lost. They leave the
   * accounting and are reported as one range ({@link SpoolEvents#onLost}).
   */
  static void lose(Spool spool, Segment s) {
    int batches = 0;
    long records = 0;
    long from = Long.MAX_VALUE;
    long to = Long.MIN_VALUE;
    spool.lock.lock();
    try {
      if (spool.segments.get(s.baseSequence()) != s) {
        return;
      }
      for (int i = 0; i < s.count(); i++) {
        if (!s.isAcked(i)) {
          int rc = s.recordsAt(i);
          records = records < 0 || rc < 0 ? -1 : records + rc;
          from = Math.min(from, s.sequenceAt(i));
          to = Math.max(to, s.sequenceAt(i));
          batches++;
          spool.credit(s, i);
        }
      }
      if (s == spool.active) {
        SegmentFiles.closeQuietly(s.channel);
        s.channel = null;
        spool.active = null;
        s.sealAt(s.dataEnd());
      }
      spool.segments.remove(s.baseSequence());
      spool.segmentBytesOnDisk -= s.fileBytes();
      spool.spaceFreed.signalAll();
    } finally {
      spool.lock.unlock();
    }
    if (batches > 0) {
      spool.lostBatches.addAndGet(batches);
      int b = batches;
      long r = records;
      long f = from;
      long t = to;
      Discard.safely(() -> spool.events.onLost(s.path().getFileName().toString(), f, t, b, r));
    }
  }
}
