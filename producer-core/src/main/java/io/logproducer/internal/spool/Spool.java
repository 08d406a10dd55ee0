package io.logproducer.internal.spool;

import io.logproducer.SpoolConfig;
import io.logproducer.SpoolDurability;
import io.logproducer.SpoolLockedException;
import io.logproducer.SpoolOpenException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongPredicate;

/**
 * A crash-consistent, bounded disk spool of entries (sealed batches) in one directory: the facade
 * the producer integration calls. Layout, framing and recovery rules: {@code docs/spool-format.md}.
 *
 * <p>API: {@link #open(SpoolConfig, String, SpoolEvents)}; {@link #append} from any thread (never
 * throws: a refusal is an {@link AppendResult}); {@link #acknowledge(long)} from any thread, in any
 * order; one {@link #cursor()} reader; {@link #durableSequence()} / {@link #awaitDurable(long,
 * long)}; {@link #status()}, {@link #lastError()} and the byte and entry counters; {@link
 * #close()}.
 *
 * <p>Concurrency: one {@link ReentrantLock} guards the segments, the write position and the
 * accounting; an append holds it for the positional write only (its CRC is computed before). Forces
 * (fsync) run outside it. Acknowledgements take it briefly (deleting a segment file under it: an
 * unlink). The cursor takes it to find the next entry and reads outside it. Listener calls are made
 * after the lock is released.
 *
 * <p>Every append and acknowledgement is journaled ({@link SpoolJournal}) the moment it happens,
 * into the page cache: after a process kill, an acknowledged entry is replayed only if its
 * acknowledgement had not been made yet (the entry was in flight); after a power loss, also if it
 * was made within the last groupCommitMillis (the journal's force). The checkpoint's manifest and
 * the journal tell at open what should be on disk, so a segment that is missing, emptied or cut
 * short is reported as lost ({@link SpoolEvents#onLost}).
 */
public final class Spool implements AutoCloseable {

  final SpoolConfig config;
  final String kind;
  final SpoolEvents events;
  final SpoolTuning tuning;
  final Path dir;
  final ReentrantLock lock = new ReentrantLock();
  final Condition spaceFreed = lock.newCondition();
  final TreeMap<Long, Segment> segments = new TreeMap<>();
  Segment active;
  DirectoryLock dirLock;
  long metaBytes;
  long checkpointBytes;
  long segmentBytesOnDisk;
  long unackedBytes;
  long pendingEntries;
  long nextSequence = 1;
  long firstSequenceOfRun;
  long written;
  DurableWatermark durable;
  boolean closed;
  boolean checkpointDirty = true;
  final DiskHealth health;
  final AtomicLong corrupt = new AtomicLong();
  private final AtomicLong dropped = new AtomicLong();

  /** Asked under the lock about each pending entry DROP_OLDEST removes; see {@link #claimDrops}. */
  private volatile LongPredicate dropClaim = sequence -> false;

  private final AtomicLong expired = new AtomicLong();
  final AtomicLong lostBatches = new AtomicLong();
  private SpoolCommitter committer;

  /** The journals of appends and acknowledgements since the last checkpoint (under the lock). */
  final Journals journals;

  /** What open found worth telling that lost nothing; told after open. */
  final List<String> notices = new ArrayList<>();

  /** A spool not yet loaded; see {@link #open}. */
  private Spool(SpoolConfig config, String kind, SpoolEvents events, SpoolTuning tuning) {
    this.config = config;
    this.kind = kind;
    this.events = events == null ? SpoolEvents.NONE : events;
    this.tuning = tuning;
    this.dir = config.getDirectory();
    this.health = new DiskHealth(tuning.retryMinMillis, tuning.retryMaxMillis);
    this.journals = new Journals(dir, health);
  }

  /**
   * Opens (creating when needed) the spool in {@code config}'s directory for the owner {@code kind}
   * (e.g. the exporter's class name): takes its lock, checks its kind, reads sealed segments by
   * their footers, recovers the newest unsealed segment by a scan, applies the checkpoint, and
   * starts the committer thread. If no segment can be created (disk full, read-only), the spool
   * opens DISABLED and retries on later appends.
   *
   * @param events told of every entry leaving the spool undelivered and of durability; null for
   *     none
   * @throws SpoolLockedException naming the directory and the owner when another owner (in this JVM
   *     or another process) holds the directory
   * @throws SpoolOpenException naming the directory when it cannot be created or read, or belongs
   *     to another kind (naming both kinds)
   * @throws IllegalArgumentException when {@code kind} is empty or not one line
   */
  public static Spool open(SpoolConfig config, String kind, SpoolEvents events) {
    return open(config, kind, events, SpoolTuning.DEFAULT);
  }

  /** {@link #open(SpoolConfig, String, SpoolEvents)} with the storage timings {@code tuning}. */
  static Spool open(SpoolConfig config, String kind, SpoolEvents events, SpoolTuning tuning) {
    Spool spool = new Spool(config, kind, events, tuning);
    try {
      Files.createDirectories(spool.dir);
      spool.dirLock = DirectoryLock.acquire(spool.dir);
      try {
        spool.metaBytes = SpoolMeta.checkOrCreate(spool.dir, kind, spool.notices);
        List<LossDetector.Lost> lost = new ArrayList<>();
        List<Discard> corrupt = SpoolRecovery.load(spool, lost);
        spool.firstSequenceOfRun = spool.nextSequence;
        spool.written = spool.nextSequence - 1;
        spool.durable = new DurableWatermark(spool.written);
        for (String notice : spool.notices) {
          Discard.safely(() -> spool.events.onNotice(notice));
        }
        Discard.fire(spool.events, corrupt);
        for (LossDetector.Lost l : lost) {
          spool.lostBatches.addAndGet(l.batches);
          Discard.safely(
              () ->
                  spool.events.onLost(l.file, l.fromSequence, l.toSequence, l.batches, l.records));
        }
      } catch (IOException | RuntimeException | Error e) {
        spool.closeChannels();
        spool.journals.close();
        spool.dirLock.release();
        throw e;
      }
    } catch (IOException e) {
      throw new SpoolOpenException(
          spool.dir, "cannot open spool directory " + spool.dir + ": " + e, e);
    }
    SpoolCommitter.writeCheckpoint(spool, true);
    spool.committer = new SpoolCommitter(spool);
    spool.committer.start();
    return spool;
  }

  /** {@return the largest entry (header + meta + payload) a segment can hold, bytes} */
  long maxEntryBytes() {
    return config.getSegmentBytes() - SegmentFooter.bytesFor(1);
  }

  /**
   * Appends one entry. Never throws for a disk problem and never blocks longer than maxBlockMillis
   * (BLOCK) plus the write (and, for EVERY_BATCH, one fsync).
   *
   * @param createdAtMillis the batch's creation time, epoch millis (for maxAgeMillis)
   * @param recordCount the records in the batch (reported back on discard)
   * @param meta opaque bytes up to 64 KiB (may be null: empty)
   * @param payload the body (its remaining bytes; position unchanged)
   * @return STORED with the sequence, or why not (FULL, DISABLED with the cause, TOO_LARGE, CLOSED)
   */
  public AppendResult append(
      long createdAtMillis, int recordCount, byte[] meta, ByteBuffer payload) {
    return append(createdAtMillis, recordCount, meta, payload, config.getMaxBlockMillis());
  }

  /** {@link #append}, blocking (BLOCK) at most {@code maxBlockMillis} (≥ 0) instead. */
  public AppendResult append(
      long createdAtMillis, int recordCount, byte[] meta, ByteBuffer payload, long maxBlockMillis) {
    byte[] m = meta == null ? new byte[0] : meta;
    long total = (long) EntryFrame.HEADER_BYTES + m.length + payload.remaining();
    if (m.length > EntryFrame.MAX_META_BYTES || total > maxEntryBytes()) {
      return AppendResult.refused(
          AppendResult.Status.TOO_LARGE,
          new IllegalArgumentException(
              "entry of "
                  + total
                  + " bytes (meta "
                  + m.length
                  + ") does not fit a segment of "
                  + config.getSegmentBytes()
                  + " bytes in spool "
                  + dir));
    }
    Crc32c crc = Crc32c.create();
    crc.update(m, 0, m.length);
    crc.update(payload);
    ByteBuffer header = ByteBuffer.allocate(EntryFrame.HEADER_BYTES);
    List<Discard> drops = new ArrayList<>(0);
    long seq;
    lock.lock();
    try {
      AppendResult refusal = ensureRoom(total, drops, maxBlockMillis);
      if (refusal != null) {
        return refusal;
      }
      seq = nextSequence;
      EntryFrame.writeHeader(header, (int) total, seq, createdAtMillis, recordCount, m.length, crc);
      long pos = active.dataEnd();
      try {
        FileChannel ch = active.channel;
        ch.position(pos);
        ByteBuffer[] srcs = {header, ByteBuffer.wrap(m), payload.duplicate()};
        long left = total;
        while (left > 0) {
          left -= ch.write(srcs);
        }
      } catch (ClosedChannelException e) {
        abandonActive();
        return AppendResult.refused(AppendResult.Status.INTERRUPTED, e);
      } catch (IOException e) {
        fail(e);
        return AppendResult.refused(AppendResult.Status.DISABLED, e);
      }
      active.addEntry(seq, (int) pos, (int) total, recordCount);
      journal(SpoolJournal.APPEND, seq, recordCount, active.baseSequence());
      nextSequence++;
      written = seq;
      checkpointDirty = true;
      unackedBytes += total;
      pendingEntries++;
    } finally {
      lock.unlock();
      Discard.fire(events, drops);
    }
    if (config.getDurability() == SpoolDurability.EVERY_BATCH) {
      IOException e = SpoolCommitter.commit(this);
      if (e != null) {
        acknowledge(seq);
        return new AppendResult(AppendResult.Status.DISABLED, seq, e);
      }
    }
    return AppendResult.stored(seq);
  }

  /**
   * Makes room for an entry of {@code total} bytes; {@return null when there is, else the refusal}
   */
  private AppendResult ensureRoom(long total, List<Discard> drops, long maxBlockMillis) {
    if (closed) {
      return AppendResult.refused(AppendResult.Status.CLOSED, null);
    }
    long now = tuning.clock.getAsLong();
    if (health.disabled()) {
      if (!health.retryDue(now)) {
        return AppendResult.refused(AppendResult.Status.DISABLED, health.lastError());
      }
      try {
        SpoolRecovery.reviveDirectory(this);
      } catch (IOException e) {
        health.failed(e, now);
        return AppendResult.refused(AppendResult.Status.DISABLED, e);
      }
    }
    if (fits(total)) {
      return null;
    }
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(maxBlockMillis);
    while (!roomForNewSegment()) {
      AppendResult r = applyFullPolicy(deadline, drops);
      if (r != null) {
        return r;
      }
      if (fits(total)) {
        return null;
      }
    }
    try {
      roll();
    } catch (IOException e) {
      fail(e);
      return AppendResult.refused(AppendResult.Status.DISABLED, e);
    }
    health.recovered();
    return null;
  }

  /** One step of the full policy; {@return null to check again, else the refusal} */
  private AppendResult applyFullPolicy(long deadline, List<Discard> drops) {
    AppendResult full = AppendResult.refused(AppendResult.Status.FULL, null);
    switch (config.getFullPolicy()) {
      case DROP_OLDEST:
        return dropOldest(drops) ? null : full;
      case BLOCK:
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return full;
        }
        try {
          spaceFreed.awaitNanos(left);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return AppendResult.refused(AppendResult.Status.INTERRUPTED, e);
        }
        return closed ? AppendResult.refused(AppendResult.Status.CLOSED, null) : null;
      default:
        return full;
    }
  }

  /** {@return whether an entry of {@code total} bytes fits the active segment, footer included} */
  private boolean fits(long total) {
    return active != null
        && !health.disabled()
        && active.dataEnd() + total + SegmentFooter.bytesFor(active.count() + 1)
            <= active.fileBytes();
  }

  /** {@return whether sealing the active segment and creating a new one stays within maxBytes} */
  private boolean roomForNewSegment() {
    long shrink = 0;
    if (active != null) {
      shrink = active.fileBytes() - (active.dataEnd() + SegmentFooter.bytesFor(active.count()));
    }
    return reservedBytes() - shrink + config.getSegmentBytes() <= config.getMaxBytes();
  }

  /** {@return the bytes counted against maxBytes: files, with the checkpoint reserved twice} */
  private long reservedBytes() {
    return segmentBytesOnDisk
        + dirLock.bytes()
        + metaBytes
        + 2L * Checkpoint.MAX_BYTES
        + 2L * SpoolJournal.MAX_BYTES;
  }

  /** Seals the active segment (if any) and creates the next one. */
  private void roll() throws IOException {
    boolean force = config.getDurability() != SpoolDurability.NONE;
    if (active != null) {
      Segment s = active;
      long before = s.fileBytes();
      s.setFileBytes(SegmentFiles.seal(s.channel, s, force));
      segmentBytesOnDisk += s.fileBytes() - before;
      s.sealAt(s.dataEnd());
      SegmentFiles.closeQuietly(s.channel);
      s.channel = null;
      active = null;
      if (s.fullyAcked()) {
        deleteSegment(s);
      }
    }
    SegmentFiles.checkFreeDisk(dir, config.getSegmentBytes(), config.getMinFreeDiskShare());
    long base = nextSequence;
    Segment stale = segments.get(base);
    if (stale != null && stale.count() == 0) {
      Files.deleteIfExists(stale.path());
      segments.remove(base);
      segmentBytesOnDisk -= stale.fileBytes();
    }
    Segment s = new Segment(dir.resolve(Segment.fileName(base)), base);
    s.channel = SegmentFiles.createPreallocated(s.path(), config.getSegmentBytes());
    s.setFileBytes(config.getSegmentBytes());
    segments.put(base, s);
    segmentBytesOnDisk += config.getSegmentBytes();
    active = s;
    if (force) {
      Checkpoint.forceDirectory(dir);
    }
  }

  /**
   * Records a disk failure: DISABLED until a retry; the active segment is abandoned (its entries
   * stay readable; the next segment starts after them). Caller holds the lock.
   */
  void fail(IOException e) {
    health.failed(e, tuning.clock.getAsLong());
    abandonActive();
  }

  /**
   * Stops appending to the active segment: forces what was written to it (through a new descriptor
   * if its channel was closed by an interrupt; a failure is queued for the listener), closes it and
   * keeps its entries readable; the next append starts a new segment. Caller holds the lock.
   */
  void abandonActive() {
    Segment s = active;
    active = null;
    if (s == null) {
      return;
    }
    if (config.getDurability() != SpoolDurability.NONE && written > durable.value()) {
      try {
        SegmentFiles.force(s.channel, s.path(), s.dataEnd());
      } catch (IOException forceFailure) {
        durable.queueFailure(durable.value() + 1, written, forceFailure);
      }
    }
    SegmentFiles.closeQuietly(s.channel);
    s.channel = null;
    s.sealAt(s.dataEnd());
    if (s.count() == 0) {
      try {
        Files.deleteIfExists(s.path());
        segments.remove(s.baseSequence());
        segmentBytesOnDisk -= s.fileBytes();
      } catch (IOException ignored) {
        // Stays listed; the next segment with its base replaces it.
      }
    }
  }

  /** Deletes a fully acknowledged sealed segment (caller holds the lock). */
  private void deleteSegment(Segment s) {
    try {
      Files.deleteIfExists(s.path());
    } catch (IOException e) {
      health.noted(e);
      return;
    }
    segments.remove(s.baseSequence());
    segmentBytesOnDisk -= s.fileBytes();
    checkpointDirty = true;
    spaceFreed.signalAll();
  }

  /** Drops the oldest sealed segment, collecting its unacknowledged entries; false if none. */
  private boolean dropOldest(List<Discard> drops) {
    Map.Entry<Long, Segment> first = segments.firstEntry();
    if (first == null || first.getValue() == active) {
      return false;
    }
    Segment s = first.getValue();
    for (int i = 0; i < s.count(); i++) {
      if (!s.isAcked(i)) {
        if (!dropClaim.test(s.sequenceAt(i))) {
          drops.add(Discard.read(DiscardReason.DROPPED_OLDEST, s, i));
        }
        credit(s, i);
        dropped.incrementAndGet();
      }
    }
    int before = segments.size();
    deleteSegment(s);
    return segments.size() < before;
  }

  /** Acknowledges entry {@code i} of {@code s} without deleting; {@return the bytes credited} */
  int credit(Segment s, int i) {
    int bytes = s.acknowledge(i);
    if (bytes > 0) {
      unackedBytes -= bytes;
      pendingEntries--;
      checkpointDirty = true;
      journal(SpoolJournal.ACK, s.sequenceAt(i), s.recordsAt(i), s.baseSequence());
    }
    return bytes;
  }

  /** Journals one fact (caller holds the lock); a skipped one asks for a checkpoint now. */
  private void journal(int type, long sequence, int recordCount, long segmentBase) {
    if (!journals.record(type, sequence, recordCount, segmentBase) && committer != null) {
      committer.checkpointSoon();
    }
  }

  /**
   * Acknowledges the entry {@code sequence}: its bytes leave {@link #bytesUsed()} at once; its
   * segment file is deleted once every entry in it is acknowledged (the active one only once
   * sealed). Thread-safe; any order. After {@link #close()} nothing changes (the checkpoint is
   * written, so the entry stays pending on disk and the counts must say so: a late answer after
   * close leaves its entry to the next owner). {@return false when unknown, already acknowledged,
   * or closed}
   */
  public boolean acknowledge(long sequence) {
    lock.lock();
    try {
      if (closed) {
        return false;
      }
      Map.Entry<Long, Segment> e = segments.floorEntry(sequence);
      if (e == null) {
        return false;
      }
      Segment s = e.getValue();
      int i = s.indexOf(sequence);
      if (i < 0 || credit(s, i) == 0) {
        return false;
      }
      if (s.sealed() && s.fullyAcked()) {
        deleteSegment(s);
      }
      return true;
    } finally {
      lock.unlock();
    }
  }

  /** Removes entry {@code i} of {@code s} for {@code reason} if still pending; reports it. */
  void discard(Segment s, int i, Discard event) {
    boolean removed;
    lock.lock();
    try {
      removed = segments.get(s.baseSequence()) == s && !s.isAcked(i);
      if (removed) {
        credit(s, i);
        if (s.sealed() && s.fullyAcked()) {
          deleteSegment(s);
        }
      }
    } finally {
      lock.unlock();
    }
    if (removed) {
      (event.reason == DiscardReason.EXPIRED ? expired : corrupt).incrementAndGet();
      List<Discard> one = new ArrayList<>(1);
      one.add(event);
      Discard.fire(events, one);
    }
  }

  /**
   * Lets {@code claim} take the fate of entries DROP_OLDEST removes: asked under the lock for each
   * one's sequence (one step with the removal, ordered with {@link #acknowledge} and {@link
   * #isPending}); on true its claimant reports the records' fate and the drop is not reported to
   * the {@link SpoolEvents}. Fast, never calling into the spool; set before the spool is used.
   */
  public void claimDrops(LongPredicate claim) {
    this.dropClaim = claim;
  }

  /**
   * {@return whether entry {@code sequence} is still in the spool, unacknowledged} Under the lock:
   * ordered with drops, so that a reader that saw the entry on disk can tell whether a drop took it
   * meanwhile.
   *
   * @param sequence the entry's sequence
   */
  public boolean isPending(long sequence) {
    lock.lock();
    try {
      Map.Entry<Long, Segment> e = segments.floorEntry(sequence);
      if (e == null) {
        return false;
      }
      int i = e.getValue().indexOf(sequence);
      return i >= 0 && !e.getValue().isAcked(i);
    } finally {
      lock.unlock();
    }
  }

  /** {@return whether entry {@code i} of {@code s} is still pending (listed, unacknowledged)} */
  boolean pending(Segment s, int i) {
    lock.lock();
    try {
      return segments.get(s.baseSequence()) == s && !s.isAcked(i);
    } finally {
      lock.unlock();
    }
  }

  /**
   * {@return the first pending entry with a sequence in (after, upTo], as [segment, index], or
   * null}
   */
  Object[] locateNext(long after, long upTo) {
    lock.lock();
    try {
      Long from = segments.floorKey(after + 1);
      Map<Long, Segment> tail = from == null ? segments : segments.tailMap(from, true);
      for (Segment s : tail.values()) {
        int i = s.firstUnackedAfter(after);
        if (i >= 0) {
          return s.sequenceAt(i) <= upTo ? new Object[] {s, i} : null;
        }
      }
      return null;
    } finally {
      lock.unlock();
    }
  }

  /** {@return a cursor over the pending entries, oldest first; one reader at a time} */
  public SpoolCursor cursor() {
    return new SpoolCursor(this);
  }

  /**
   * {@return every sequence up to this one is as durable as the policy promises (for NONE: written
   * to the page cache), or reported through {@link SpoolEvents#onDurabilityFailed}}
   */
  public long durableSequence() {
    if (config.getDurability() == SpoolDurability.NONE) {
      return locked(() -> written);
    }
    return durable.value();
  }

  /**
   * Waits until {@link #durableSequence()} reaches {@code sequence} or {@code timeoutMillis}
   * passes. {@return whether it did}
   *
   * @throws InterruptedException when interrupted while waiting
   */
  public boolean awaitDurable(long sequence, long timeoutMillis) throws InterruptedException {
    if (config.getDurability() == SpoolDurability.NONE) {
      return durableSequence() >= sequence;
    }
    return durable.await(sequence, timeoutMillis);
  }

  /** {@return ENABLED, DISABLED (see {@link #lastError()}) or CLOSED} */
  public SpoolStatus status() {
    if (closed) {
      return SpoolStatus.CLOSED;
    }
    return health.disabled() ? SpoolStatus.DISABLED : SpoolStatus.ENABLED;
  }

  /** {@return the last disk error met, or null} */
  public Throwable lastError() {
    return health.lastError();
  }

  /** {@return the bytes of unacknowledged entries (headers included), dropping as acks arrive} */
  public long bytesUsed() {
    return locked(() -> unackedBytes);
  }

  /** {@return the bytes of every file the spool keeps in its directory, as it sized them} */
  public long bytesOnDisk() {
    return locked(
        () ->
            segmentBytesOnDisk + dirLock.bytes() + metaBytes + checkpointBytes + journals.bytes());
  }

  /** {@return the number of unacknowledged entries} */
  public long pendingEntries() {
    return locked(() -> pendingEntries);
  }

  /** {@return the sequence the next append gets} */
  public long nextSequence() {
    return locked(() -> nextSequence);
  }

  /** {@return the first sequence appended by this run (earlier ones come from previous runs)} */
  public long firstSequenceOfThisRun() {
    return firstSequenceOfRun;
  }

  /** {@return the number of segment files the spool holds} */
  public int segmentCount() {
    return (int) locked(() -> segments.size());
  }

  /** {@return damaged entries found (at open and when read) since open} */
  public long corruptEntries() {
    return corrupt.get();
  }

  /** {@return entries found lost (missing, emptied or shortened segments) since open} */
  public long lostEntries() {
    return lostBatches.get();
  }

  /** {@return entries dropped by DROP_OLDEST since open} */
  public long droppedEntries() {
    return dropped.get();
  }

  /** {@return entries expired by maxAgeMillis since open} */
  public long expiredEntries() {
    return expired.get();
  }

  /** {@return the spool directory} */
  public Path directory() {
    return dir;
  }

  /**
   * Closes: stops the committer, forces (unless NONE), seals the active segment (or, when every
   * entry in it is acknowledged, empties it and renames it after the next sequence, so that
   * sequences continue even without a checkpoint), writes the checkpoint and releases the lock.
   * Idempotent; never throws.
   */
  @Override
  public void close() {
    lock.lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      spaceFreed.signalAll();
    } finally {
      lock.unlock();
    }
    committer.shutdown();
    SpoolCommitter.commit(this);
    lock.lock();
    try {
      sealActiveAtClose();
    } finally {
      lock.unlock();
    }
    SpoolCommitter.writeCheckpoint(this, true);
    lock.lock();
    try {
      journals.close();
    } finally {
      lock.unlock();
    }
    dirLock.release();
  }

  /**
   * Leaves the directory as a process kill would (tests and fault injection only): stops the
   * committer, closes every file without sealing, forcing or checkpointing, and releases the lock.
   */
  void abandon() {
    lock.lock();
    try {
      closed = true;
      spaceFreed.signalAll();
    } finally {
      lock.unlock();
    }
    committer.shutdown();
    lock.lock();
    try {
      closeChannels();
      journals.close();
    } finally {
      lock.unlock();
    }
    dirLock.release();
  }

  /** {@return whether an appender waits for space under BLOCK (tests)} */
  boolean hasBlockedAppenders() {
    lock.lock();
    try {
      return lock.hasWaiters(spaceFreed);
    } finally {
      lock.unlock();
    }
  }

  /** Seals the active segment at close (or empties and renames it when fully acknowledged). */
  private void sealActiveAtClose() {
    Segment s = active;
    if (s == null) {
      return;
    }
    try {
      long before = s.fileBytes();
      if (s.fullyAcked()) {
        s.channel.truncate(0);
        s.setFileBytes(0);
        segmentBytesOnDisk -= before;
        closeChannels();
        segments.remove(s.baseSequence());
        Path empty = dir.resolve(Segment.fileName(nextSequence));
        if (!empty.equals(s.path())) {
          Files.move(s.path(), empty);
        }
        segments.put(nextSequence, new Segment(empty, nextSequence));
        return;
      } else {
        s.setFileBytes(
            SegmentFiles.seal(s.channel, s, config.getDurability() != SpoolDurability.NONE));
      }
      segmentBytesOnDisk += s.fileBytes() - before;
    } catch (IOException e) {
      health.noted(e);
    }
    closeChannels();
  }

  /** Closes the active segment's channel and forgets it as active. */
  private void closeChannels() {
    if (active != null) {
      SegmentFiles.closeQuietly(active.channel);
      active.channel = null;
      active = null;
    }
  }

  /** {@return {@code s} evaluated under the lock} */
  private long locked(java.util.function.LongSupplier s) {
    lock.lock();
    try {
      return s.getAsLong();
    } finally {
      lock.unlock();
    }
  }
}
