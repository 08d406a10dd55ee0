package io.logproducer.examples;

import io.logproducer.LogRecord;
import io.logproducer.Producer;
import io.logproducer.ProducerMetrics;
import io.logproducer.testing.ReferenceWorkload;
import io.logproducer.testing.otlp.OtlpReceiver;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import picocli.CommandLine.Option;

/**
 * The reference workload logged through a logging framework's appender (the {@code logback} and
 * {@code log4j2} sub-commands): an embedded receiver unless {@code --endpoint} is given, {@code
 * --threads} threads logging {@code --records} events, progress lines, then the framework's stop
 * (the appender ships what is left and closes its producer) and the quick start's final line, with
 * {@code refused} = the events the appender dropped. A picocli {@code @Mixin}: it holds the options
 * these sub-commands share besides the common ones.
 */
public final class AppenderRun {

  /** One framework's side: a logging context whose appender feeds a producer. */
  public interface Target {
    /** {@return the appender's producer, for its metrics} */
    Producer producer();

    /** {@return events the appender dropped (full buffer, unmappable)} */
    long droppedCount();

    /** {@return events accepted by the producer but not delivered} */
    long failedCount();

    /**
     * Logs one workload record through the framework (called on the workload's threads).
     *
     * @param r the record: its body is the message, its three attributes the event's key-value
     *     pairs
     */
    void log(LogRecord r);

    /** Stops the logging context: the appender ships what is buffered and closes its producer. */
    void stop();
  }

  /** Builds the framework's side once the endpoint is known. */
  @FunctionalInterface
  public interface Configurer {
    /**
     * @param endpoint the OTLP endpoint to send to
     * @param bufferFullPolicy {@code DROP} or {@code BLOCK}
     * @return the started target
     * @throws Exception if the framework cannot be configured (the message says why)
     */
    Target configure(String endpoint, String bufferFullPolicy) throws Exception;
  }

  @Option(
      names = "--endpoint",
      paramLabel = "URL",
      description = "send there (e.g. http://127.0.0.1:4318) (default an embedded receiver)")
  String endpoint;

  @Option(
      names = "--buffer-full-policy",
      paramLabel = "P",
      description =
          "drop (the appender's default: never block the logging thread) or block (wait up to"
              + " --max-block-ms) (default ${DEFAULT-VALUE})")
  String bufferFullPolicy = "drop";

  /**
   * Runs the workload through {@code configurer}'s framework.
   *
   * @return the process exit code (0 only when every event was delivered and the embedded receiver
   *     counted them)
   */
  public int run(String framework, CommonOptions options, Configurer configurer) throws Exception {
    String endpoint = this.endpoint;
    String policy = bufferFullPolicy.toUpperCase(Locale.ROOT);
    if (!policy.equals("DROP") && !policy.equals("BLOCK")) {
      throw new IllegalArgumentException(
          "--buffer-full-policy must be drop or block, was '" + policy + "'");
    }
    options.producerConfig().build(); // validates the common options, naming a bad one
    OtlpReceiver receiver = null;
    if (endpoint == null) {
      receiver = OtlpReceiver.startCounting();
      endpoint = receiver.endpoint();
    }
    Target target = null;
    try {
      target = configurer.configure(endpoint, policy);
      Producer producer = target.producer();
      System.err.printf(
          Locale.ROOT,
          "logging %,d events from %d threads through %s to %s%s (%s)%n",
          options.records(),
          options.threads(),
          framework,
          endpoint,
          receiver != null ? " (embedded receiver)" : "",
          producer.getConfig());
      return logWorkload(options, target, producer, receiver, endpoint);
    } finally {
      if (target != null) {
        target.stop();
      }
      if (receiver != null) {
        receiver.close();
      }
    }
  }

  private static int logWorkload(
      CommonOptions options,
      Target target,
      Producer producer,
      OtlpReceiver receiver,
      String endpoint)
      throws InterruptedException {
    long records = options.records();
    int threads = options.threads();
    LongAdder rawBytes = new LongAdder();
    AtomicReference<Throwable> crash = new AtomicReference<>();
    Thread[] workers = new Thread[threads];
    long start = System.nanoTime();
    for (int t = 0; t < threads; t++) {
      long from = records * t / threads;
      long to = records * (t + 1) / threads;
      workers[t] =
          new Thread(
              () -> {
                ReferenceWorkload workload = new ReferenceWorkload();
                try {
                  for (long seq = from; seq < to; seq++) {
                    target.log(workload.next(seq - from));
                  }
                } catch (Throwable e) { // logging never throws; this would be a bug
                  crash.set(e);
                } finally {
                  rawBytes.add(workload.rawBytes());
                }
              },
              "app-" + t);
      workers[t].start();
    }
    Thread reporter = null;
    if (!options.quiet()) {
      reporter = new Thread(() -> progress(producer, target, receiver, start), "progress");
      reporter.setDaemon(true);
      reporter.start();
    }
    for (Thread w : workers) {
      w.join();
    }
    if (crash.get() != null) {
      throw new IllegalStateException("a logging call threw", crash.get());
    }
    target
        .stop(); // what an application's shutdown does: the appender ships what is left and closes
    // the producer
    long end = System.nanoTime();
    if (reporter != null) {
      reporter.interrupt();
    }
    ProducerMetrics m = producer.getMetrics();
    long received = receiver == null ? -1 : receiver.acceptedRecords();
    long delivered = receiver == null ? m.getRecordsSent() : received;
    long dropped = target.droppedCount();
    long accepted = records - dropped;
    long failed = target.failedCount();
    String lastProblem =
        m.getLastError() != null
            ? m.getLastError()
            : dropped > 0 ? dropped + " events dropped: the appender's buffer was full" : null;
    WorkloadRunner.Result result =
        new WorkloadRunner.Result(
            delivered,
            failed,
            m.getRecordsSpooled(),
            dropped,
            0,
            (end - start) / 1e9,
            records == 0 ? 0 : rawBytes.sum() * accepted / records,
            m.getWireBytesSent(),
            received,
            m.getPeakBufferedBytes(),
            lastProblem);
    System.err.printf(
        Locale.ROOT,
        "%s%npeak buffered %,d bytes of %,d; appender: dropped %,d, failed %,d%s%n",
        m,
        m.getPeakBufferedBytes(),
        producer.getConfig().getTotalSizeInBytes(),
        dropped,
        failed,
        receiver == null
            ? ""
            : String.format(
                Locale.ROOT,
                "; receiver counted %,d records in %,d requests",
                receiver.acceptedRecords(),
                receiver.acceptedRequests()));
    System.out.println(result.summary());
    boolean verified = receiver == null || m.getRecordsSent() == received;
    if (!verified) {
      System.err.printf(
          Locale.ROOT,
          "MISMATCH: producer reports %d delivered, receiver counted %d%n",
          m.getRecordsSent(),
          received);
    }
    return result.report(
        records, endpoint, producer.getConfig().getDeliveryTimeoutMillis(), verified, System.err);
  }

  private static void progress(
      Producer producer, Target target, OtlpReceiver receiver, long start) {
    while (true) {
      try {
        TimeUnit.SECONDS.sleep(1); // paces the progress lines
      } catch (InterruptedException e) {
        return;
      }
      ProducerMetrics m = producer.getMetrics();
      System.err.printf(
          Locale.ROOT,
          "[%5.1fs] accepted=%d delivered=%d dropped=%d buffered=%.1fMB%s%n",
          (System.nanoTime() - start) / 1e9,
          m.getRecordsAccepted(),
          m.getRecordsSent(),
          target.droppedCount(),
          m.getBufferedBytes() / 1e6,
          receiver == null ? "" : " receiver=" + receiver.acceptedRecords());
    }
  }
}
