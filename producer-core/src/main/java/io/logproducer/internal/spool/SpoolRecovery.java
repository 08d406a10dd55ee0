package io.logproducer.internal.spool;

import io.logproducer.SpoolDurability;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
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

  /** Loads the directory into {@code spool}; {@return the damaged entries found, to report} */
  static List<Discard> load(Spool spool) throws IOException {
    TreeMap<Long, Path> files = new TreeMap<>();
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(spool.dir, "*" + Segment.SUFFIX)) {
      for (Path p : ds) {
        long base = Segment.parseBase(p.getFileName().toString());
        if (base >= 0) {
          files.put(base, p);
        }
      }
    }
    List<Discard> damaged = new ArrayList<>();
    long newestSize = files.isEmpty() ? 0 : Files.size(files.lastEntry().getValue());
    long last = 0;
    for (Path p : files.values()) {
      boolean newest = p.equals(files.lastEntry().getValue());
      Segment s = loadSegment(spool, p, newest, last, damaged);
      spool.segments.put(s.baseSequence(), s);
      spool.segmentBytesOnDisk += s.fileBytes();
      last = Math.max(last, s.lastSequence());
    }
    spool.corrupt.addAndGet(damaged.size());
    Checkpoint cp = Checkpoint.read(spool.dir);
    long next = Math.max(1, last + 1);
    if (!files.isEmpty()) {
      next = Math.max(next, files.lastKey());
    }
    if (cp != null) {
      next = Math.max(next, cp.nextSequence);
    }
    Segment newest = spool.segments.isEmpty() ? null : spool.segments.lastEntry().getValue();
    if (newest != null && !newest.sealed() && newestSize > 0) {
      next += UNCLEAN_GAP;
    }
    spool.nextSequence = next;
    applyCheckpoint(spool, cp);
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
   * Marks what {@code cp} acknowledges (all pending when null), totals the pending bytes and
   * entries, and deletes fully acknowledged sealed segments.
   */
  private static void applyCheckpoint(Spool spool, Checkpoint cp) throws IOException {
    List<Segment> done = new ArrayList<>();
    for (Segment s : spool.segments.values()) {
      for (int i = 0; i < s.count(); i++) {
        if (cp != null && cp.acknowledges(s.sequenceAt(i))) {
          s.acknowledge(i);
        }
      }
      spool.unackedBytes += s.unackedBytes();
      spool.pendingEntries += s.unackedCount();
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
    for (Segment s : spool.segments.values()) {
      if (!Files.exists(s.path())) {
        spool.segmentBytesOnDisk -= s.fileBytes();
        s.setFileBytes(0);
      }
    }
  }

  /** {@return the checkpoint of {@code spool}'s current state (caller holds its lock)} */
  static Checkpoint snapshot(Spool spool) {
    long low = spool.nextSequence;
    Segment lowSegment = null;
    for (Segment s : spool.segments.values()) {
      int i = s.firstUnackedAfter(Long.MIN_VALUE);
      if (i >= 0) {
        low = s.sequenceAt(i);
        lowSegment = s;
        break;
      }
    }
    long[] acked = new long[Checkpoint.MAX_ACKED_ABOVE];
    int n = 0;
    if (lowSegment != null) {
      for (Segment s : spool.segments.tailMap(lowSegment.baseSequence(), true).values()) {
        for (int i = 0; i < s.count() && n < acked.length; i++) {
          if (s.sequenceAt(i) > low && s.isAcked(i)) {
            acked[n++] = s.sequenceAt(i);
          }
        }
      }
    }
    long[] exact = new long[n];
    System.arraycopy(acked, 0, exact, 0, n);
    return new Checkpoint(spool.nextSequence, low, exact);
  }
}
