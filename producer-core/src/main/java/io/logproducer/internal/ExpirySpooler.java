package io.logproducer.internal;

import io.logproducer.SendResult;
import io.logproducer.internal.spool.Spool;
import java.util.ArrayDeque;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Spools the batches whose delivery deadline passes while they wait for a send thread, never
 * written to the spool (write-ahead happens at a batch's first export, and every send thread may be
 * busy: blocked on a dead Kafka broker for {@code max.block.ms}, or retrying against a dead
 * collector under load). Without it such a batch would get FAILED although a spool is there.
 *
 * <p>The linger timer hands each such batch over at its deadline ({@link #offer}), which claims it
 * (SEALED or RETRY_WAIT → IN_FLIGHT, so no send thread exports it any more); this thread frames and
 * compresses its request body as a send thread would, writes it to the spool, and gives it its
 * outcome once the durable watermark has passed its entry: SPOOLED ({@link SpoolOutcomes}). A batch
 * the spool does not store (full, disk failed), or whose entry is not durable within {@code
 * durableWaitMillis} (a minute and more: a hung disk, not a late committer), gets the FAILED it
 * would have got. Batches wait for durability in a queue of their own, so one group commit covers
 * many of them and the timer goes on meanwhile.
 *
 * <p>It also settles the batches already in the spool whose entry is not durable yet when they are
 * about to fail: at their deadline while waiting to retry ({@link #offer}), or on the send thread
 * that ends them ({@link #settleWhenDurable}). However late the machine schedules the committer,
 * the batch gets SPOOLED once its entry is durable, never FAILED for the delay.
 *
 * <p>Thread-safe: {@link #offer} from the linger thread, {@link #settleWhenDurable} from send
 * threads, {@link #run()} on its own thread, {@link #stop()} from the closing thread.
 */
final class ExpirySpooler implements Runnable {

  /**
   * How long, beyond twice the group-commit interval, a written batch may wait for its entry to be
   * durable before it gets FAILED, in ms: a minute, for a disk whose fsync hangs. A committer that
   * is only late (a CPU starved by other work) is waited for: the outcome is SPOOLED, later.
   */
  static final long DURABLE_SLACK_MILLIS = 60_000;

  /** How often the watermark is looked at while batches wait for it, in ms. */
  private static final long DURABLE_POLL_MILLIS = 5;

  /** How long the thread waits for work when nothing waits for durability, in ms. */
  private static final long IDLE_MILLIS = 100;

  private final Sender sender;
  private final Spool spool;
  private final long durableWaitNanos;
  private final LinkedBlockingQueue<Expired> offered = new LinkedBlockingQueue<>();

  /** Written, waiting for the watermark, in write order; confined to the thread. */
  private final ArrayDeque<Expired> awaitingDurable = new ArrayDeque<>();

  private volatile boolean stopped;

  /** A claimed batch and the outcome it gets when the spool cannot take it. */
  private static final class Expired {
    final ProducerBatch batch;
    final SendResult failed;
    long writtenNanos;

    Expired(ProducerBatch batch, SendResult failed) {
      this.batch = batch;
      this.failed = failed;
    }
  }

  /**
   * @param durableWaitMillis how long a written batch may wait for the durable watermark before it
   *     gets its FAILED outcome, in ms (the spool has failed or the disk is stalled)
   */
  ExpirySpooler(Sender sender, Spool spool, long durableWaitMillis) {
    this.sender = sender;
    this.spool = spool;
    this.durableWaitNanos = TimeUnit.MILLISECONDS.toNanos(durableWaitMillis);
  }

  /**
   * Claims batch {@code b} at its delivery deadline, waiting to be sent or to retry, to spool it
   * (or, when it is in the spool already, to wait for its entry to be durable); the caller must
   * then leave its outcome to this class.
   *
   * @param failed the outcome it gets if the spool cannot take it
   * @return false (and nothing changed) if the batch is not waiting to be sent or the spooler is
   *     stopping: the caller gives the outcome itself
   */
  boolean offer(ProducerBatch b, SendResult failed) {
    if (stopped) {
      return false;
    }
    int s = b.state();
    if (s != ProducerBatch.SEALED && s != ProducerBatch.RETRY_WAIT) {
      return false;
    }
    b.expirySpooling = true; // before the claim: a send thread that loses it then skips the batch
    if (!b.tryStartAttempt()) {
      b.expirySpooling = false;
      return false;
    }
    offered.add(new Expired(b, failed));
    return true;
  }

  /**
   * Takes batch {@code b}, IN_FLIGHT on the calling send thread, about to get {@code failed}, whose
   * entry is in the spool but not durable yet: this thread gives it its outcome once the entry is
   * durable (SPOOLED). The caller must then leave the batch to this class.
   *
   * @return false (and nothing changed) when the spooler is stopping: the caller finishes it
   */
  boolean settleWhenDurable(ProducerBatch b, SendResult failed) {
    if (stopped) {
      return false;
    }
    b.expirySpooling = true; // the timer leaves it alone; settling does not wait again
    offered.add(new Expired(b, failed));
    return true;
  }

  @Override
  public void run() {
    ChunkWriter body = sender.newBodyWriter();
    while (!stopped) {
      Expired e;
      try {
        e =
            offered.poll(
                awaitingDurable.isEmpty() ? IDLE_MILLIS : DURABLE_POLL_MILLIS,
                TimeUnit.MILLISECONDS);
      } catch (InterruptedException ignored) {
        continue; // close interrupts only to hurry; the flag says when to leave
      }
      if (e != null) {
        if (e.batch.spoolSequence >= 0 || sender.writeExpired(e.batch, body)) {
          e.writtenNanos = System.nanoTime();
          awaitingDurable.addLast(e);
        } else {
          sender.finishExpired(e.batch, e.failed);
        }
      }
      settleDurable(System.nanoTime());
    }
    // close: the batches still here were given FAILED_AT_CLOSE (or SPOOLED) by close's abort
    // while in flight; let them go
    for (Expired e : awaitingDurable) {
      sender.finishExpired(e.batch, e.failed);
    }
    for (Expired e = offered.poll(); e != null; e = offered.poll()) {
      sender.finishExpired(e.batch, e.failed);
    }
  }

  /** Gives every written batch whose entry is durable now, or waited too long, its outcome. */
  private void settleDurable(long nowNanos) {
    long durable = spool.durableSequence();
    Expired head;
    while ((head = awaitingDurable.peekFirst()) != null
        && (head.batch.spoolSequence <= durable
            || nowNanos - head.writtenNanos - durableWaitNanos >= 0)) {
      awaitingDurable.pollFirst();
      sender.finishExpired(head.batch, head.failed); // SpoolOutcomes makes it SPOOLED if durable
    }
  }

  /** Makes the thread give every batch it holds its outcome and leave. */
  void stop() {
    stopped = true;
  }
}
