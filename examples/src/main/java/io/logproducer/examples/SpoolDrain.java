package io.logproducer.examples;

import io.logproducer.Producer;
import io.logproducer.ProducerMetrics;
import java.io.PrintStream;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * {@code --records 0 --spool-dir DIR}: sends nothing new, lets the producer replay the spool it
 * finds in DIR, and waits until no stored batch is left or {@code --drain-timeout-ms} passed. Its
 * final line (stdout) is {@code drained=<n> refused=<n> expired=<n> dropped=<n> corrupt_batches=<n>
 * left_batches=<n>}: records delivered from the spool, records the receiver refused for good,
 * records expired by their age, records dropped to make room, damaged batches skipped, and stored
 * batches still undelivered.
 */
final class SpoolDrain {

  /** How often the spool's backlog is looked at, ms. */
  private static final long POLL_MILLIS = 20;

  private SpoolDrain() {}

  /**
   * Drains through {@code producer} (opened on the spool), then closes it.
   *
   * @return 0 when the spool is empty and every drained record was delivered, else 1 (with one
   *     {@code error: …} line on {@code err})
   */
  static int run(
      Producer producer, String endpoint, long timeoutMillis, PrintStream out, PrintStream err)
      throws InterruptedException {
    String directory = String.valueOf(producer.getConfig().getSpool().getDirectory());
    long start = System.nanoTime();
    long deadline = start + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    boolean drained;
    try {
      err.printf(
          Locale.ROOT,
          "draining spool %s (%,d batches stored) to %s%n",
          directory,
          producer.getMetrics().getSpoolPendingBatches(),
          endpoint);
      while (!(drained = producer.getMetrics().getSpoolPendingBatches() == 0)
          && System.nanoTime() - deadline < 0) {
        TimeUnit.MILLISECONDS.sleep(POLL_MILLIS); // paces the look at the backlog
      }
    } finally {
      producer.close();
    }
    ProducerMetrics m = producer.getMetrics();
    long lost =
        m.getSpoolRecordsRefused() + m.getSpoolRecordsExpired() + m.getSpoolRecordsDropped();
    err.printf(
        Locale.ROOT,
        "%s%ndrained %,d records in %.1f s%n",
        m,
        m.getSpoolRecordsDelivered(),
        (System.nanoTime() - start) / 1e9);
    out.printf(
        Locale.ROOT,
        "drained=%d refused=%d expired=%d dropped=%d corrupt_batches=%d left_batches=%d%n",
        m.getSpoolRecordsDelivered(),
        m.getSpoolRecordsRefused(),
        m.getSpoolRecordsExpired(),
        m.getSpoolRecordsDropped(),
        m.getSpoolBatchesCorrupt(),
        m.getSpoolPendingBatches());
    String cause = m.getLastError() == null ? "no failure was reported" : m.getLastError();
    if (!drained) {
      err.printf(
          Locale.ROOT,
          "error: spool %s did not drain to %s within --drain-timeout-ms=%d: %,d batches left; "
              + "last failure: %s%n",
          directory,
          endpoint,
          timeoutMillis,
          m.getSpoolPendingBatches(),
          cause);
      return 1;
    }
    if (lost > 0 || m.getSpoolBatchesCorrupt() > 0) {
      err.printf(
          Locale.ROOT,
          "error: spool %s is empty but not every stored record was delivered (refused=%d "
              + "expired=%d dropped=%d corrupt_batches=%d); last failure: %s%n",
          directory,
          m.getSpoolRecordsRefused(),
          m.getSpoolRecordsExpired(),
          m.getSpoolRecordsDropped(),
          m.getSpoolBatchesCorrupt(),
          cause);
      return 1;
    }
    return 0;
  }
}
