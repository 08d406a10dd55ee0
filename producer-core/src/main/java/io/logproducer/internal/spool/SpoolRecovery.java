package io.logproducer.internal.spool;

import io.logproducer.SpoolDurability;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;

/**
 * What {@link Spool#open} does to the directory, and the checkpoint snapshot. Open costs
 * O(segments) small footer reads plus one scan of the newest segment when it is unsealed (the tail
 * after a crash): never O(bytes spooled).
 *
 * <ol>
 *   <li>Each {@code *.seg} file, oldest first: a valid footer makes it sealed and indexed without
 *       reading its entries. Without one, it is scanned ({@link SegmentScanner}); a scanned older
 *       segment (its seal was lost to a crash) then gets its footer written, so the next open is
 *       cheap again.
 *   <li>The newest segment, when unsealed, becomes the active one: its torn tail is zeroed, its
 *       write position is the end of its last whole entry, and it is extended back to segmentBytes.
 *   <li>The checkpoint's acknowledgements are applied; fully acknowledged sealed segments are
 *       deleted. No checkpoint (missing or damaged): every entry on disk is pending again.
 *   <li>The next sequence is the highest of the checkpoint's, the newest segment's base and its
 *       last entry + 1, so sequences never repeat even when every segment had been deleted.
 * </ol>
 *
 * Runs on the opening thread; stateless.
 */
final class SpoolRecovery {

  /** How far sequences jump after an unclean stop. */
  static final long UNCLEAN_GAP = 1L << 20;

  /** Not instantiable. */
  private SpoolRecovery() {}

  /**
   * Loads the directory into {@code spool}: segments, checkpoint and journals; finds what was lost
   * (into {@code lost}). {@return the damaged entries found, to report}
   */
  static List<Discard> load(Spool spool, List<LossDetector.Lost> lost) throws IOException {
    TreeMap<Long, Path> files = new TreeMap<>();
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(spool.dir, "*" + Segment.SUFFIX)) {
      for (Path p : ds) {
        long base = Segment.parseBase(p.getFileName().toString());
        if (base >= 0) {
          files.put(base, p);
        }
      }
    }
    Checkpoint cp = Checkpoint.read(spool.dir);
    TreeMap<Long, Path> journals = SpoolJournal.list(spool.dir);
    List<SpoolJournal.Record> journal =
        SpoolJournal.read(spool.dir, cp == null ? 0 : cp.journalGeneration);
    LossDetector detector = new LossDetector(cp, journal);
    spool.journals.startAt(
        Math.max(journals.isEmpty() ? 0 : journals.lastKey(), cp == null ? 0 : cp.journalGeneration)
            + 1);
    List<Discard> damaged = new ArrayList<>();
    long newestSize = files.isEmpty() ? 0 : Files.size(files.lastEntry().getValue());
    long last = 0;
    for (Path p : files.values()) {
      boolean newest = p.equals(files.lastEntry().getValue());
      long base = Segment.parseBase(p.getFileName().toString());
      if (detector.isStray(base, p, spool.maxEntryBytes())) {
        Path aside = p.resolveSibling(p.getFileName() + ".stray");
        Files.move(p, aside, StandardCopyOption.REPLACE_EXISTING);
        spool.notices.add(
            "spool "
                + spool.dir
                + ": "
                + p.getFileName()
                + " holds no entry this spool wrote (not in its checkpoint or journal); moved"
                + " aside as "
                + aside.getFileName()
                + ", nothing counted");
        continue;
      }
      List<Discard> here = new ArrayList<>();
      Segment s = loadSegment(spool, p, newest, last, here);
      damaged.addAll(here);
      detector.damaged(base, here.size());
      spool.segments.put(s.baseSequence(), s);
      spool.segmentBytesOnDisk += s.fileBytes();
      last = Math.max(last, s.lastSequence());
    }
    spool.corrupt.addAndGet(damaged.size());
    long next = Math.max(1, last + 1);
    if (!files.isEmpty()) {
      next = Math.max(next, files.lastKey());
    }
    if (cp != null) {
      next = Math.max(next, cp.nextSequence);
    }
    next = Math.max(next, detector.highestJournaled() + 1);
    Segment newest = spool.segments.isEmpty() ? null : spool.segments.lastEntry().getValue();
    if (newest != null && !newest.sealed() && newestSize > 0) {
      next += UNCLEAN_GAP;
    }
    spool.nextSequence = next;
    markAcknowledged(spool, detector);
    readRecordCounts(spool);
    lost.addAll(detector.lost(spool.segments));
    deleteFullyAcknowledged(spool);
    return damaged;
  }

  private static Segment loadSegment(
      Spool spool, Path p, boolean newest, long after, List<Discard> damaged) throws IOException {
    long base = Segment.parseBase(p.getFileName().toString());
    Segment s = new Segment(p, base);
    FileChannel ch = FileChannel.open(p, StandardOpenOption.READ, StandardOpenOption.WRITE);
    boolean keepOpen = false;
    try {
      long size = ch.size();
      s.setFileBytes(size);
      if (SegmentFiles.readFooter(ch, size, s)) {
        return s;
      }
      SegmentScanner scanner = new SegmentScanner(ch, size, spool.maxEntryBytes());
      scanner.scanInto(s, Math.max(after, base - 1));
      for (int i = 0; i < scanner.corrupt(); i++) {
        damaged.add(new Discard(DiscardReason.CORRUPT, -1, -1, null));
      }
      if (newest) {
        if (scanner.garbageEnd() > 0) {
          SegmentFiles.zero(ch, scanner.dataEnd(), scanner.garbageEnd());
        }
        if (size < spool.config.getSegmentBytes()) {
          try {
            SegmentFiles.zero(ch, size, spool.config.getSegmentBytes());
          } catch (IOException e) {
            ch.truncate(size);
            s.sealAt(s.dataEnd());
            spool.health.failed(e, spool.tuning.clock.getAsLong());
            return s;
          }
          s.setFileBytes(spool.config.getSegmentBytes());
        }
        s.channel = ch;
        spool.active = s;
        keepOpen = true;
        return s;
      }
      try {
        s.setFileBytes(
            SegmentFiles.seal(ch, s, spool.config.getDurability() != SpoolDurability.NONE));
      } catch (IOException e) {
        spool.health.noted(e);
      }
      s.sealAt(s.dataEnd());
      return s;
    } finally {
      if (!keepOpen) {
        ch.close();
      }
    }
  }

  /**
   * Marks what the checkpoint and the journals acknowledge; totals the pending bytes and entries.
   */
  private static void markAcknowledged(Spool spool, LossDetector detector) {
    for (Segment s : spool.segments.values()) {
      for (int i = 0; i < s.count(); i++) {
        if (detector.acknowledged(s.sequenceAt(i))) {
          s.acknowledge(i);
        }
      }
      spool.unackedBytes += s.unackedBytes();
      spool.pendingEntries += s.unackedCount();
    }
  }

  /**
   * Reads the record count of each pending entry indexed from a footer (which does not carry it)
   * from its header: one small read per pending entry. A header that does not match is left unknown
   * (the cursor finds the entry damaged when it reads it).
   */
  private static void readRecordCounts(Spool spool) {
    ByteBuffer h = ByteBuffer.allocate(EntryFrame.HEADER_BYTES);
    for (Segment s : spool.segments.values()) {
      FileChannel ch = null;
      try {
        for (int i = 0; i < s.count(); i++) {
          if (s.isAcked(i) || s.recordsAt(i) >= 0) {
            continue;
          }
          if (ch == null) {
            ch = FileChannel.open(s.path(), StandardOpenOption.READ);
          }
          h.clear();
          if (SegmentFiles.readFully(ch, h, s.offsetAt(i))
              && h.getInt(0) == EntryFrame.MAGIC
              && EntryFrame.sequence(h, 0) == s.sequenceAt(i)) {
            s.setRecordsAt(i, Math.max(0, h.getInt(24)));
          }
        }
      } catch (IOException e) {
        // Left unknown; the cursor reports the entry when it cannot read it.
      } finally {
        SegmentFiles.closeQuietly(ch);
      }
    }
  }

  /** Deletes fully acknowledged sealed segments. */
  private static void deleteFullyAcknowledged(Spool spool) throws IOException {
    List<Segment> done = new ArrayList<>();
    for (Segment s : spool.segments.values()) {
      if (s.sealed() && s.fullyAcked()) {
        done.add(s);
      }
    }
    for (Segment s : done) {
      Files.deleteIfExists(s.path());
      spool.segments.remove(s.baseSequence());
      spool.segmentBytesOnDisk -= s.fileBytes();
    }
  }

  /**
   * Recreates {@code spool}'s directory when it was deleted under it (meta and lock included)
   * before a retry; segments whose files vanished no longer count against maxBytes (their entries
   * are reported CORRUPT when the cursor reaches them). Caller holds the spool's lock.
   *
   * @throws IOException when the directory cannot be recreated
   */
  static void reviveDirectory(Spool spool) throws IOException {
    if (Files.isDirectory(spool.dir)) {
      return;
    }
    Files.createDirectories(spool.dir);
    spool.metaBytes = SpoolMeta.write(spool.dir, spool.kind);
    spool.dirLock.release();
    spool.dirLock = DirectoryLock.acquire(spool.dir);
    spool.checkpointBytes = 0;
    spool.checkpointDirty = true;
    spool.journals.restart();
    for (Segment s : spool.segments.values()) {
      if (!Files.exists(s.path())) {
        spool.segmentBytesOnDisk -= s.fileBytes();
        s.setFileBytes(0);
      }
    }
  }

  /**
   * {@return the checkpoint of {@code spool}'s current state, naming {@code journalGeneration} as
   * the first journal to apply on top of it} Caller holds its lock. Cost: one pass over the entries
   * on disk.
   */
  static Checkpoint snapshot(Spool spool, long journalGeneration) {
    long low = spool.nextSequence;
    Segment lowSegment = null;
    List<Checkpoint.SegmentState> manifest = new ArrayList<>();
    for (Segment s : spool.segments.values()) {
      int i = s.firstUnackedAfter(Long.MIN_VALUE);
      if (i < 0) {
        continue;
      }
      if (lowSegment == null) {
        low = s.sequenceAt(i);
        lowSegment = s;
      }
      if (manifest.size() < Checkpoint.maxSegments()) {
        manifest.add(
            new Checkpoint.SegmentState(
                s.baseSequence(),
                s.lastSequence(),
                s.count(),
                s.unackedCount(),
                s.unackedRecords()));
      }
    }
    int maxRuns = Checkpoint.maxRuns(manifest.size());
    long[] runs = new long[16];
    int n = 0;
    if (lowSegment != null) {
      boolean open = false;
      outer:
      for (Segment s : spool.segments.tailMap(lowSegment.baseSequence(), true).values()) {
        for (int i = 0; i < s.count(); i++) {
          long seq = s.sequenceAt(i);
          if (seq <= low) {
            continue;
          }
          if (!s.isAcked(i)) {
            open = false;
          } else if (open) {
            runs[2 * n - 1] = seq;
          } else {
            if (n == maxRuns) {
              break outer;
            }
            if (2 * n + 2 > runs.length) {
              runs = Arrays.copyOf(runs, runs.length * 2);
            }
            runs[2 * n] = seq;
            runs[2 * n + 1] = seq;
            n++;
            open = true;
          }
        }
      }
    }
    return new Checkpoint(
        spool.nextSequence,
        low,
        journalGeneration,
        Arrays.copyOf(runs, 2 * n),
        manifest.toArray(new Checkpoint.SegmentState[0]));
  }
}
