package io.logproducer.examples;

import io.logproducer.BufferExhaustedException;
import io.logproducer.Callback;
import io.logproducer.LogRecord;
import io.logproducer.Producer;
import io.logproducer.ProducerConfig;
import io.logproducer.ProducerMetrics;
import io.logproducer.RecordTooLargeException;
import io.logproducer.SendResult;
import io.logproducer.spi.Exporter;
import io.logproducer.testing.ReferenceWorkload;
import java.io.PrintStream;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * Sends the reference workload through a producer from {@code threads} application threads, prints
 * progress every second (stderr), and ends with the one-line summary every sub-command prints
 * (stdout): {@code delivered=<n> failed=<n> spooled=<n> refused=<n> not_sent=<n>
 * records_per_sec=<x> raw_mb_per_sec=<y> wire_mb_per_sec=<z>}, which accounts for every record (see
 * {@link Main#SUMMARY_USAGE}). MB is 10^6 bytes; rates are over the time from the first send to the
 * last outcome (flush included).
 *
 * <p>A thread whose {@code send} throws {@link BufferExhaustedException} (no buffer space within
 * {@code maxBlockMillis}: the receiver is unreachable or does not keep up) stops sending: waiting
 * that long again for each of its further records would only prolong a failed run. Its remaining
 * records count as not sent. A {@link RecordTooLargeException} concerns that record only; the
 * thread goes on.
 */
public final class WorkloadRunner {

  /**
   * What a run measured.
   *
   * @param delivered records the receiver accepted
   * @param failed records send() accepted that were not delivered (failed, rejected, failed at
   *     close)
   * @param spooled records send() accepted whose outcome was SPOOLED: not delivered yet, stored in
   *     the disk spool for the next producer on its directory
   * @param refused records send() did not accept (it threw, or reported them DROPPED)
   * @param notSent records never passed to send() because their thread stopped early
   * @param lastProblem the last failure's explanation (a failed batch's, else a refusal's), or null
   */
  public record Result(
      long delivered,
      long failed,
      long spooled,
      long refused,
      long notSent,
      double seconds,
      long rawBytes,
      long wireBytes,
      long receiverCount,
      long peakBufferedBytes,
      String lastProblem) {

    public double recordsPerSec() {
      return delivered / seconds;
    }

    /**
     * Raw bytes of the delivered records per second; {@code rawBytes} are those of the accepted
     * records.
     */
    public double rawMbPerSec() {
      long accepted = delivered + failed + spooled;
      double deliveredRaw = accepted == 0 ? 0 : (double) rawBytes * delivered / accepted;
      return deliveredRaw / 1e6 / seconds;
    }

    public double wireMbPerSec() {
      return wireBytes / 1e6 / seconds;
    }

    /** Records the summary accounts for: delivered + failed + spooled + refused + not sent. */
    public long accountedFor() {
      return delivered + failed + spooled + refused + notSent;
    }

    /** The final line. */
    public String summary() {
      return String.format(
          Locale.ROOT,
          "delivered=%d failed=%d spooled=%d refused=%d not_sent=%d records_per_sec=%.0f "
              + "raw_mb_per_sec=%.1f wire_mb_per_sec=%.1f",
          delivered,
          failed,
          spooled,
          refused,
          notSent,
          recordsPerSec(),
          rawMbPerSec(),
          wireMbPerSec());
    }

    /**
     * Prints, when not every one of {@code records} was delivered, one {@code error: …} sentence
     * saying so to {@code err}, and returns the exit code: 0 when every record was delivered and
     * {@code verified}, else 1.
     *
     * @param destination where the records went, e.g. the endpoint URL
     * @param deliveryTimeoutMillis the producer's deliveryTimeoutMillis
     * @param verified whether the receiver's own count (if any) matched
     */
    public int report(
        long records,
        String destination,
        long deliveryTimeoutMillis,
        boolean verified,
        PrintStream err) {
      String cause = lastProblem == null ? "no failure was reported" : lastProblem;
      if (accountedFor() != records) {
        err.printf(
            Locale.ROOT,
            "MISMATCH: the summary accounts for %d records, %d were to be sent%n",
            accountedFor(),
            records);
        return 1;
      }
      if (delivered == records) {
        return verified ? 0 : 1;
      }
      if (delivered + spooled == records && spooled > 0) {
        err.printf(
            Locale.ROOT,
            "error: %d of %d records were not delivered to %s within deliveryTimeoutMillis=%d but "
                + "are stored in the spool (spooled=%d): run again on its directory with "
                + "--records 0 to deliver them; last failure: %s%n",
            spooled,
            records,
            destination,
            deliveryTimeoutMillis,
            spooled,
            cause);
      } else if (delivered == 0) {
        err.printf(
            Locale.ROOT,
            "error: no record could be delivered to %s within deliveryTimeoutMillis=%d: %s%n",
            destination,
            deliveryTimeoutMillis,
            cause);
      } else {
        err.printf(
            Locale.ROOT,
            "error: %d of %d records were not delivered to %s (failed=%d spooled=%d refused=%d "
                + "not_sent=%d); last failure: %s%n",
            records - delivered,
            records,
            destination,
            failed,
            spooled,
            refused,
            notSent,
            cause);
      }
      return 1;
    }
  }

  private final long records;
  private final int threads;
  private final boolean quiet;
  private final PrintStream progress;

  public WorkloadRunner(long records, int threads, boolean quiet, PrintStream progress) {
    this.records = records;
    this.threads = threads;
    this.quiet = quiet;
    this.progress = progress;
  }

  public WorkloadRunner(CommonOptions options) {
    this(options.records(), options.threads(), options.quiet(), System.err);
  }

  /**
   * A producer on {@code exporter}; if the producer refuses the pair (e.g. deliveryTimeoutMillis
   * below lingerMillis plus the exporter's request timeout), closes the exporter and throws the
   * reason.
   *
   * @throws IllegalArgumentException naming the settings that do not fit
   */
  public static Producer newProducer(ProducerConfig config, Exporter exporter) {
    try {
      return new Producer(config, exporter);
    } catch (RuntimeException e) {
      exporter.close();
      throw e;
    }
  }

  /**
   * Runs the workload, then flushes and closes the producer.
   *
   * @param receiverCount records the receiver counted so far, or null when it cannot be asked
   */
  public Result run(Producer producer, LongSupplier receiverCount) throws InterruptedException {
    LongAdder acceptedRawBytes = new LongAdder();
    LongAdder refused = new LongAdder();
    LongAdder notSent = new LongAdder();
    AtomicInteger stoppedThreads = new AtomicInteger();
    AtomicReference<SendResult> lastFailure = new AtomicReference<>();
    AtomicReference<Throwable> lastRefusal = new AtomicReference<>();
    Callback outcome =
        result -> {
          if (!result.isSuccess()) {
            lastFailure.set(result);
          }
        };
    Thread[] workers = new Thread[threads];
    long start = System.nanoTime();
    for (int t = 0; t < threads; t++) {
      long from = records * t / threads;
      long to = records * (t + 1) / threads;
      workers[t] =
          new Thread(
              () -> {
                ReferenceWorkload workload = new ReferenceWorkload();
                long refusedRawBytes = 0;
                try {
                  for (long seq = from; seq < to; seq++) {
                    long rawBefore = workload.rawBytes();
                    LogRecord record = workload.next(seq - from);
                    try {
                      producer.send(record, outcome);
                    } catch (RecordTooLargeException e) {
                      refused.increment();
                      refusedRawBytes += workload.rawBytes() - rawBefore;
                      lastRefusal.set(e);
                    } catch (Throwable e) {
                      // BufferExhaustedException, or anything unexpected: stop this thread
                      refused.increment();
                      refusedRawBytes += workload.rawBytes() - rawBefore;
                      lastRefusal.set(e);
                      notSent.add(to - seq - 1);
                      stoppedThreads.incrementAndGet();
                      return;
                    }
                  }
                } finally {
                  acceptedRawBytes.add(workload.rawBytes() - refusedRawBytes);
                }
              },
              "app-" + t);
      workers[t].start();
    }
    Thread reporter = null;
    if (!quiet) {
      reporter = new Thread(() -> report(producer, receiverCount, start, refused), "progress");
      reporter.setDaemon(true);
      reporter.start();
    }
    for (Thread w : workers) {
      w.join();
    }
    producer.flush();
    long end = System.nanoTime();
    producer.close();
    if (reporter != null) {
      reporter.interrupt();
    }
    Throwable refusal = lastRefusal.get();
    printRefusal(refusal, refused.sum(), stoppedThreads.get(), notSent.sum());
    ProducerMetrics m = producer.getMetrics();
    long received = receiverCount == null ? -1 : receiverCount.getAsLong();
    SendResult failure = lastFailure.get();
    String lastProblem =
        failure != null && failure.getStatus() != SendResult.Status.DROPPED
            ? explain(failure)
            : refusal != null
                ? String.valueOf(refusal.getMessage() != null ? refusal.getMessage() : refusal)
                : failure != null ? explain(failure) : null;
    return new Result(
        m.getRecordsSent(),
        m.getRecordsFailed() + m.getRecordsRejected(),
        m.getRecordsSpooled(),
        refused.sum() + m.getRecordsDropped(),
        notSent.sum(),
        (end - start) / 1e9,
        acceptedRawBytes.sum(),
        m.getWireBytesSent(),
        received,
        m.getPeakBufferedBytes(),
        lastProblem);
  }

  /** Prints, when {@code send} refused records, how many and why, and what stopped sending. */
  private void printRefusal(Throwable refusal, long refused, int stoppedThreads, long notSent) {
    if (refusal != null) {
      progress.printf(
          Locale.ROOT,
          "send() refused %d record(s), the last with %s%s%n",
          refused,
          refusal,
          stoppedThreads == 0
              ? ""
              : String.format(
                  Locale.ROOT,
                  "; %d of %d threads stopped sending at "
                      + "their refusal, leaving %d records not sent",
                  stoppedThreads,
                  threads,
                  notSent));
    }
  }

  /**
   * A failed outcome in one line: the error that caused it (e.g. "Connect to http://127.0.0.1:9
   * failed: Connection refused"), else the producer's or the receiver's message (e.g. an HTTP
   * status line), else the status.
   */
  static String explain(SendResult result) {
    Throwable error = result.getError();
    if (error != null) {
      return error.getMessage() != null ? error.getMessage() : error.toString();
    }
    return result.getMessage() != null ? result.getMessage() : result.getStatus().toString();
  }

  private void report(
      Producer producer, LongSupplier receiverCount, long start, LongAdder refused) {
    long lastSent = 0;
    long lastNanos = start;
    while (true) {
      try {
        TimeUnit.SECONDS.sleep(1);
      } catch (InterruptedException e) {
        return;
      }
      ProducerMetrics m = producer.getMetrics();
      long now = System.nanoTime();
      double rate = (m.getRecordsSent() - lastSent) / ((now - lastNanos) / 1e9);
      long refusedNow = refused.sum() + m.getRecordsDropped();
      progress.printf(
          Locale.ROOT,
          "[%5.1fs] accepted=%d delivered=%d (%.0f/s) failed=%d%s%s buffered=%.1fMB%s%n",
          (now - start) / 1e9,
          m.getRecordsAccepted(),
          m.getRecordsSent(),
          rate,
          m.getRecordsFailed() + m.getRecordsRejected(),
          m.getRecordsSpooled() == 0 ? "" : " spooled=" + m.getRecordsSpooled(),
          refusedNow == 0 ? "" : " refused=" + refusedNow,
          m.getBufferedBytes() / 1e6,
          receiverCount == null ? "" : " receiver=" + receiverCount.getAsLong());
      lastSent = m.getRecordsSent();
      lastNanos = now;
    }
  }
}
