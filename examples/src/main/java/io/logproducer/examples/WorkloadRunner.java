package io.logproducer.examples;

import io.logproducer.Producer;
import io.logproducer.ProducerMetrics;
import java.io.PrintStream;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;

/**
 * Sends the reference workload through a producer from {@code threads} application threads, prints progress
 * every second (stderr), and ends with the one-line summary every sub-command prints (stdout):
 * {@code delivered=<n> failed=<n> records_per_sec=<x> raw_mb_per_sec=<y> wire_mb_per_sec=<z>}. MB is 10^6 bytes;
 * rates are over the time from the first send to the last outcome (flush included).
 */
public final class WorkloadRunner {

  /** What a run measured. */
  public record Result(long delivered, long failed, long dropped, double seconds, long rawBytes, long wireBytes,
      long receiverCount, long peakBufferedBytes) {

    public double recordsPerSec() {
      return delivered / seconds;
    }

    public double rawMbPerSec() {
      long accepted = delivered + failed;
      double deliveredRaw = accepted == 0 ? 0 : (double) rawBytes * delivered / accepted;
      return deliveredRaw / 1e6 / seconds;
    }

    public double wireMbPerSec() {
      return wireBytes / 1e6 / seconds;
    }

    /** The final line. */
    public String summary() {
      return String.format(Locale.ROOT, "delivered=%d failed=%d records_per_sec=%.0f raw_mb_per_sec=%.1f "
          + "wire_mb_per_sec=%.1f", delivered, failed, recordsPerSec(), rawMbPerSec(), wireMbPerSec());
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

  public WorkloadRunner(Options options) {
    this(options.records(), options.threads(), options.quiet(), System.err);
  }

  /**
   * Runs the workload, then flushes and closes the producer.
   *
   * @param receiverCount records the receiver counted so far, or null when it cannot be asked
   */
  public Result run(Producer producer, LongSupplier receiverCount) throws InterruptedException {
    AtomicLong rawBytes = new AtomicLong();
    AtomicReference<Throwable> error = new AtomicReference<>();
    Thread[] workers = new Thread[threads];
    long start = System.nanoTime();
    for (int t = 0; t < threads; t++) {
      long from = records * t / threads;
      long to = records * (t + 1) / threads;
      workers[t] = new Thread(() -> {
        Workload workload = new Workload();
        try {
          for (long seq = from; seq < to; seq++) {
            producer.send(workload.next(seq - from));
          }
        } catch (Throwable e) {
          error.compareAndSet(null, e);
        } finally {
          rawBytes.addAndGet(workload.rawBytes());
        }
      }, "app-" + t);
      workers[t].start();
    }
    Thread reporter = null;
    if (!quiet) {
      reporter = new Thread(() -> report(producer, receiverCount, start), "progress");
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
    if (error.get() != null) {
      progress.println("send failed: " + error.get());
    }
    ProducerMetrics m = producer.getMetrics();
    long received = receiverCount == null ? -1 : receiverCount.getAsLong();
    return new Result(m.getRecordsSent(), m.getRecordsFailed() + m.getRecordsRejected(), m.getRecordsDropped(),
        (end - start) / 1e9, rawBytes.get(), m.getWireBytesSent(), received, m.getPeakBufferedBytes());
  }

  private void report(Producer producer, LongSupplier receiverCount, long start) {
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
      progress.printf(Locale.ROOT, "[%5.1fs] accepted=%d delivered=%d (%.0f/s) failed=%d buffered=%.1fMB%s%n",
          (now - start) / 1e9, m.getRecordsAccepted(), m.getRecordsSent(), rate,
          m.getRecordsFailed() + m.getRecordsRejected(), m.getBufferedBytes() / 1e6,
          receiverCount == null ? "" : " receiver=" + receiverCount.getAsLong());
      lastSent = m.getRecordsSent();
      lastNanos = now;
    }
  }
}
