package io.logproducer.internal.spool;

import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The spool's journals over time: the current {@link SpoolJournal}, the generation the next one
 * gets, and the bytes of those a checkpoint replaced but that are not deleted yet. A journal that
 * cannot be created or written is closed and skipped (its facts then reach the disk with the next
 * checkpoint: only more duplicates after a crash, never a loss); the failure is noted in the
 * spool's {@link DiskHealth}. Not thread-safe: the {@link Spool}'s lock guards it, except {@link
 * #force}, which takes that lock itself.
 */
final class Journals {

  private final Path dir;
  private final DiskHealth health;
  private SpoolJournal current;
  private long nextGeneration;
  private long retiredBytes;

  /** The journals of the spool in {@code dir}; none open until {@link #rotate()}. */
  Journals(Path dir, DiskHealth health) {
    this.dir = dir;
    this.health = health;
  }

  /** Sets the generation the next journal gets (at open: above every one on disk). */
  void startAt(long generation) {
    nextGeneration = generation;
  }

  /**
   * Writes one record to the current journal. {@return false when skipped (none open, full, or the
   * write failed)}
   */
  boolean record(int type, long sequence, int recordCount, long segmentBase) {
    SpoolJournal j = current;
    if (j == null) {
      return false;
    }
    try {
      return j.append(type, sequence, recordCount, segmentBase);
    } catch (IOException e) {
      health.noted(e);
      j.close();
      return false;
    }
  }

  /**
   * Closes the current journal (it becomes retired) and starts the next generation. {@return the
   * new generation, or -1 when it could not be created (then none is open)}
   */
  long rotate() {
    SpoolJournal old = current;
    if (old != null) {
      old.close();
      retiredBytes += old.bytes();
    }
    try {
      current = SpoolJournal.create(dir, nextGeneration++);
      return current.generation();
    } catch (IOException e) {
      current = null;
      health.noted(e);
      return -1;
    }
  }

  /** {@return the current generation, or -1 when none is open} */
  long generation() {
    return current == null ? -1 : current.generation();
  }

  /** Deletes the journals below generation {@code gen}, a checkpoint naming it being on disk. */
  void deleteBelow(long gen) throws IOException {
    long freed = SpoolJournal.deleteBelow(dir, gen);
    retiredBytes = Math.max(0, retiredBytes - freed);
  }

  /** {@return the bytes of the journal files kept (current and retired)} */
  long bytes() {
    return retiredBytes + (current == null ? 0 : current.bytes());
  }

  /**
   * Forces the current journal to disk, outside {@code lock} (the spool's); a failure is noted and
   * the journal closed.
   */
  void force(ReentrantLock lock) {
    FileChannel ch;
    lock.lock();
    try {
      ch = current == null ? null : current.channel();
    } finally {
      lock.unlock();
    }
    if (ch == null) {
      return;
    }
    try {
      ch.force(false);
    } catch (ClosedChannelException e) {
      // Rotated meanwhile: the checkpoint that rotated it is forced itself.
    } catch (IOException e) {
      lock.lock();
      try {
        health.noted(e);
        if (current != null && current.channel() == ch) {
          current.close();
        }
      } finally {
        lock.unlock();
      }
    }
  }

  /**
   * Starts over after the directory was recreated under the spool (its journals went with it): a
   * new journal, nothing retired.
   */
  void restart() {
    close();
    current = null;
    retiredBytes = 0;
    rotate();
  }

  /** Closes the current journal (it stays on disk for the next owner). */
  void close() {
    if (current != null) {
      current.close();
    }
  }
}
