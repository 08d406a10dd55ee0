package io.logproducer.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.Compression;
import io.logproducer.SendResult;
import io.logproducer.SpoolConfig;
import io.logproducer.SpoolDurability;
import io.logproducer.internal.codec.Codec;
import io.logproducer.internal.spool.Spool;
import io.logproducer.internal.spool.SteppedCommits;
import io.logproducer.spi.Batch;
import io.logproducer.spi.ExportResult;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 32, step by step on one thread: the linger timer's delivery deadline ({@link
 * DeliveryDeadline}) at each step of a send thread that holds the batch, with a spool that has room
 * and whose group commit the test makes ({@link SteppedCommits}). Wherever the deadline falls, the
 * batch ends SPOOLED, never FAILED. {@code SpoolLiveKillTest} saw "OUTCOME FAILED … expired while
 * its request was in flight (attempt 0)": the timer had picked the batch (not yet with the expiry
 * spooler), a send thread that took it after its deadline wrote it and handed it to the expiry
 * spooler to wait for the group commit, and the timer then timed it out in flight, its entry not
 * durable yet: acknowledged, FAILED.
 */
@Timeout(60)
class SpoolDeadlineRaceTest {

  private static final long TIMEOUT_MILLIS = 300;
  private static final ExportResult DOWN = ExportResult.retryable("receiver down", null, -1);

  @TempDir Path dir;

  private final MemoryBudget budget = new MemoryBudget(1 << 20);
  private final ChunkPool pool = new ChunkPool(4096, budget);
  private final Metrics metrics = new Metrics(budget, pool);
  private final IncompleteBatches incomplete = new IncompleteBatches();
  private final SendQueue queue = new SendQueue();
  private final LingerTimer timer = new LingerTimer(incomplete, b -> {}, queue::add, b -> false);
  private final SteppingExporter exporter = new SteppingExporter();
  private final List<SendResult> outcomes = new CopyOnWriteArrayList<>();
  private final CountDownLatch settled = new CountDownLatch(1);
  private Spool spool;
  private Sender sender;
  private ExpirySpooler expirySpooler;
  private DeliveryDeadline deadline;
  private ProducerSpool producerSpool;
  private BatchCompleter completer;

  @BeforeEach
  void wire() {
    SpoolConfig cfg =
        SpoolConfig.builder(dir)
            .setDurability(SpoolDurability.GROUP_COMMIT)
            .setGroupCommitMillis(60_000) // the test commits
            .setMinFreeDiskShare(0)
            .build();
    SpoolMetrics spoolMetrics = new SpoolMetrics(null);
    spool = SteppedCommits.open(cfg, spoolMetrics);
    // a retry's backoff (10 s) always passes the 300 ms deadline: the send thread's FAILED path
    RetryPolicy retries = new RetryPolicy(10, 10_000, 10_000);
    producerSpool =
        new ProducerSpool(spool, cfg, spoolMetrics, exporter, Compression.NONE, retries);
    completer = new BatchCompleter(this, budget, metrics, incomplete, producerSpool.outcomes());
    sender =
        new Sender(
            queue,
            exporter,
            Codec.of(Compression.NONE, 0),
            retries,
            completer,
            timer,
            metrics,
            budget,
            4096);
    sender.writeAheadTo(producerSpool.writer());
    expirySpooler = producerSpool.expirySpooler(sender);
    deadline =
        new DeliveryDeadline(
            TIMEOUT_MILLIS,
            b -> {},
            completer,
            producerSpool,
            expirySpooler,
            metrics::noteError,
            exporter);
  }

  @AfterEach
  void closeSpool() {
    expirySpooler.stop();
    spool.close();
  }

  /** A sealed batch of one record created at {@code createdNanos}, its deadline 300 ms later. */
  private ProducerBatch batch(long createdNanos) {
    ProducerBatch b =
        new ProducerBatch(
            "s", pool, createdNanos, 0, TimeUnit.MILLISECONDS.toNanos(TIMEOUT_MILLIS), 4);
    assertEquals(
        0,
        b.tryAppend(
            new byte[] {1, 2, 3},
            3,
            r -> {
              outcomes.add(r);
              settled.countDown();
            },
            0,
            budget));
    incomplete.add(b);
    b.seal();
    return b;
  }

  /**
   * The timer's call at the batch's deadline, while the send thread is where it is: not the timer's
   * to time out (false), and no outcome yet.
   */
  private void deadlineMustWait(ProducerBatch b, String where) {
    boolean expired = deadline.test(b);
    assertEquals(List.of(), messages(), "the timer's deadline " + where);
    assertFalse(expired, "the timer's deadline " + where);
    assertEquals(ProducerBatch.IN_FLIGHT, b.state(), where);
  }

  private List<String> messages() {
    List<String> m = new ArrayList<>();
    for (SendResult r : outcomes) {
      m.add(r.getStatus() + " " + r.getMessage());
    }
    return m;
  }

  /** The group commit, then the expiry spooler gives the batch its outcome. */
  private SendResult commitAndSettle(ProducerBatch b) throws InterruptedException {
    assertTrue(b.spoolSequence > spool.durableSequence(), "written, not durable yet");
    SteppedCommits.commit(spool);
    Thread t = new Thread(expirySpooler, "test-spool-expiry");
    t.start();
    try {
      settled.await();
    } finally {
      expirySpooler.stop();
      t.join();
    }
    assertEquals(1, outcomes.size(), messages()::toString);
    assertEquals(ProducerBatch.COMPLETED, b.state());
    assertTrue(incomplete.isEmpty());
    assertEquals(pool.pooledBytes(), budget.used(), "the batch's memory was released");
    return outcomes.get(0);
  }

  @Test
  void aBatchTheSendThreadHandedToTheExpirySpoolerAfterTheTimerPickedItEndsSpooled()
      throws Exception {
    ProducerBatch b = batch(System.nanoTime() - TimeUnit.SECONDS.toNanos(1)); // deadline passed
    assertSame(b, incomplete.oldestNotExpirySpooling(), "the timer picks it at its deadline");
    // A send thread takes it after its deadline (a starved CPU): writes it, and hands it to the
    // expiry spooler to wait for the group commit.
    sender.process(b, new ChunkWriter(), System.nanoTime());
    assertTrue(b.expirySpooling, "with the expiry spooler");
    assertEquals(0, b.attempt());
    // The timer goes on with the batch it picked.
    deadlineMustWait(b, "after the send thread handed it to the expiry spooler");
    SendResult r = commitAndSettle(b);
    assertEquals(SendResult.Status.SPOOLED, r.getStatus(), r.toString());
    assertTrue(
        r.getMessage().contains("deliveryTimeoutMillis expired after 0 attempt(s)"),
        r.getMessage());
  }

  @Test
  void theDeadlineAtEachStepOfASendThreadPastItEndsSpooled() throws Exception {
    ProducerBatch b = batch(System.nanoTime() - TimeUnit.SECONDS.toNanos(1));
    exporter.onWriteRequest = () -> deadlineMustWait(b, "while the send thread builds its body");
    exporter.onSpoolShardKey = () -> deadlineMustWait(b, "while the send thread writes it");
    sender.process(b, new ChunkWriter(), System.nanoTime());
    assertEquals(2, exporter.steps, "both steps were reached");
    deadlineMustWait(b, "after the send thread handed it to the expiry spooler");
    SendResult r = commitAndSettle(b);
    assertEquals(SendResult.Status.SPOOLED, r.getStatus(), r.toString());
  }

  @Test
  void theDeadlineAtEachStepOfAnExportWhoseRetryWouldPassItEndsSpooled() throws Exception {
    ProducerBatch b = batch(System.nanoTime());
    exporter.onWriteRequest = () -> deadlineMustWait(b, "while the send thread builds its body");
    exporter.onSpoolShardKey = () -> deadlineMustWait(b, "while the send thread writes it");
    exporter.onExport = () -> deadlineMustWait(b, "while its export is in flight");
    // taken before its deadline; the receiver is down and the next retry would pass the deadline
    sender.process(b, new ChunkWriter(), b.createdNanos);
    assertEquals(3, exporter.steps, "every step was reached");
    assertEquals(1, b.attempt());
    assertTrue(b.expirySpooling, "with the expiry spooler");
    deadlineMustWait(b, "after the send thread handed it to the expiry spooler");
    SendResult r = commitAndSettle(b);
    assertEquals(SendResult.Status.SPOOLED, r.getStatus(), r.toString());
    assertTrue(r.getMessage().contains("would expire before the next retry"), r.getMessage());
  }

  @Test
  void theExpirySpoolersLostClaimWhileTheSendThreadEndsTheBatchEndsSpooled() throws Exception {
    ProducerBatch b = batch(System.nanoTime());
    // The timer's offer saw the batch SEALED, then this thread claimed it; the offer sets its flag
    // before its claim (which fails) and clears it after: the send thread ends the batch meanwhile.
    exporter.onExport = () -> b.expirySpooling = true;
    sender.process(b, new ChunkWriter(), b.createdNanos);
    assertEquals(List.of(), messages(), "the send thread ends it with the flag set for a moment");
    b.expirySpooling = false; // the offer's claim failed
    deadlineMustWait(b, "with its entry not durable yet");
    SendResult r = commitAndSettle(b);
    assertEquals(SendResult.Status.SPOOLED, r.getStatus(), r.toString());
  }

  /** Answers "down" and runs a test's step where a send thread would be preempted. */
  private static final class SteppingExporter extends StubExporter {
    volatile Runnable onWriteRequest = () -> {};
    volatile Runnable onSpoolShardKey = () -> {};
    volatile Runnable onExport = () -> {};
    int steps;

    private void step(Runnable r) {
      steps++;
      r.run();
    }

    @Override
    public void writeRequest(Batch batch, OutputStream out) throws IOException {
      step(onWriteRequest);
      batch.writeTo(out);
    }

    @Override
    public byte[] spoolShardKey(Object shardKey) {
      step(onSpoolShardKey);
      return super.spoolShardKey(shardKey);
    }

    @Override
    public ExportResult export(Batch batch, byte[] body, int length, Compression compression) {
      step(onExport);
      return DOWN;
    }
  }

  /**
   * The send thread lets go of a batch timed out in flight (its late answer not a delivery) before
   * the timer's hand-over marks its entry as answered: the entry must still go to replay, not be
   * held back from it for the rest of the process.
   */
  @Test
  void aSendThreadLettingGoBeforeTheTimersHandOverLeavesTheEntryToReplay() {
    ProducerBatch b = batch(System.nanoTime());
    assertTrue(b.tryStartAttempt(), "the send thread holds it");
    assertTrue(sender.writeExpired(b, sender.newBodyWriter()), "written ahead");
    long seq = b.spoolSequence;
    SteppedCommits.commit(spool);
    assertTrue(b.tryTimeOutInFlight(), "the timer times it out in flight");
    completer.releaseAfterTimeout(b); // the send thread's export ended first
    assertTrue(producerSpool.writer().handOver(b, true, false), "handed over: SPOOLED");
    assertTrue(
        producerSpool.writer().replayBound() >= seq,
        "replay may read the entry: bound "
            + producerSpool.writer().replayBound()
            + ", entry "
            + seq);
  }
}
