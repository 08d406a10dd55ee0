package io.logproducer.examples.logback;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.joran.spi.JoranException;
import ch.qos.logback.core.status.Status;
import io.logproducer.LogRecord;
import io.logproducer.Producer;
import io.logproducer.ProducerConfig;
import io.logproducer.ProducerMetrics;
import io.logproducer.examples.Command;
import io.logproducer.examples.OptionSpec;
import io.logproducer.examples.Options;
import io.logproducer.examples.Workload;
import io.logproducer.examples.WorkloadRunner;
import io.logproducer.examples.receiver.EmbeddedOtlpReceiver;
import io.logproducer.logback.LogproducerAppender;
import java.io.File;
import java.net.URL;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * The reference workload logged through logback: a {@link LoggerContext} of its own, configured by
 * {@link JoranConfigurator} from {@code logback-example.xml} (or {@code --config FILE}), whose
 * {@link LogproducerAppender} ships the events over OTLP/HTTP to an embedded receiver that counts them (default) or
 * to {@code --endpoint URL}. Each workload record becomes one logging call: its message as the log message, its
 * {@code level}, {@code thread} and {@code location} fields as key-value pairs. logback is not the jar's SLF4J
 * provider: the producer's own logging still goes to slf4j-simple.
 */
public final class LogbackCommand implements Command {

  /** Creates the command. */
  public LogbackCommand() {
  }

  @Override
  public String name() {
    return "logback";
  }

  @Override
  public String summary() {
    return "the reference workload logged through logback's LogproducerAppender (logback-example.xml).";
  }

  @Override
  public List<OptionSpec> options() {
    return List.of(
        OptionSpec.value("endpoint", "URL", "send there (e.g. http://127.0.0.1:4318)", "an embedded receiver"),
        OptionSpec.value("config", "FILE", "a logback XML file instead of the bundled logback-example.xml", null),
        OptionSpec.value("buffer-full-policy", "P", "drop (the appender's default: never block the logging "
            + "thread) or block (wait up to --max-block-ms)", "drop"));
  }

  @Override
  public List<String> notes() {
    return List.of("refused= counts the events the appender dropped because its buffer was full (droppedCount()).");
  }

  @Override
  public int run(Options options) throws Exception {
    String endpoint = options.string("endpoint", null);
    String policy = options.string("buffer-full-policy", "drop").toUpperCase(Locale.ROOT);
    if (!policy.equals("DROP") && !policy.equals("BLOCK")) {
      throw new IllegalArgumentException("--buffer-full-policy must be drop or block, was '" + policy + "'");
    }
    ProducerConfig config = options.producerConfig().build(); // validates the common options, names the bad one
    EmbeddedOtlpReceiver receiver = null;
    if (endpoint == null) {
      receiver = new EmbeddedOtlpReceiver(0, 4);
      endpoint = receiver.endpoint();
    }
    LoggerContext ctx = new LoggerContext();
    try {
      ctx.setName("logback-example");
      ctx.setMDCAdapter(new LogbackMDCAdapter());
      ctx.putProperty("endpoint", endpoint);
      if (options.has("compression")) {
        ctx.putProperty("compression", options.string("compression", "none"));
      }
      ctx.putProperty("requestTimeoutMillis", Long.toString(options.requestTimeoutMillis(10_000)));
      ctx.putProperty("totalSizeInBytes", Long.toString(config.getTotalSizeInBytes()));
      ctx.putProperty("batchSizeInBytes", Integer.toString(config.getBatchSizeInBytes()));
      ctx.putProperty("lingerMillis", Long.toString(config.getLingerMillis()));
      ctx.putProperty("sendThreads", Integer.toString(config.getSendThreads()));
      ctx.putProperty("deliveryTimeoutMillis", Long.toString(config.getDeliveryTimeoutMillis()));
      ctx.putProperty("maxBlockMillis", Long.toString(config.getMaxBlockMillis()));
      ctx.putProperty("bufferFullPolicy", policy);
      LogproducerAppender appender = configure(ctx, options.string("config", null));
      Producer producer = appender.getProducer();
      System.err.printf(Locale.ROOT, "logging %,d events from %d threads through logback to %s%s (%s)%n",
          options.records(), options.threads(), endpoint,
          receiver != null ? " (embedded receiver)" : "", producer.getConfig());
      return logWorkload(options, ctx, appender, producer, receiver, endpoint);
    } finally {
      ctx.stop();
      if (receiver != null) {
        receiver.close();
      }
    }
  }

  private static LogproducerAppender configure(LoggerContext ctx, String configFile) throws JoranException {
    JoranConfigurator jc = new JoranConfigurator();
    jc.setContext(ctx);
    if (configFile != null) {
      File f = new File(configFile);
      if (!f.isFile()) {
        throw new IllegalArgumentException("--config " + configFile + ": no such file");
      }
      jc.doConfigure(f);
    } else {
      URL url = LogbackCommand.class.getClassLoader().getResource("logback-example.xml");
      jc.doConfigure(url);
    }
    ctx.start();
    LogproducerAppender found = null;
    for (Iterator<Appender<ILoggingEvent>> it = ctx.getLogger(Logger.ROOT_LOGGER_NAME).iteratorForAppenders();
        it.hasNext(); ) {
      Appender<ILoggingEvent> a = it.next();
      if (a instanceof LogproducerAppender) {
        found = (LogproducerAppender) a;
      }
    }
    if (found == null || !found.isStarted()) {
      List<String> errors = new ArrayList<>();
      for (Status s : ctx.getStatusManager().getCopyOfStatusList()) {
        if (s.getLevel() >= Status.WARN) {
          errors.add(s.getMessage());
        }
      }
      throw new IllegalArgumentException(found == null ? "the logback configuration attaches no LogproducerAppender"
          + " to the root logger" : "the LogproducerAppender did not start: " + String.join("; ", errors));
    }
    return found;
  }

  private static int logWorkload(Options options, LoggerContext ctx, LogproducerAppender appender,
      Producer producer, EmbeddedOtlpReceiver receiver, String endpoint) throws InterruptedException {
    long records = options.records();
    int threads = options.threads();
    LongAdder rawBytes = new LongAdder();
    AtomicReference<Throwable> crash = new AtomicReference<>();
    Thread[] workers = new Thread[threads];
    long start = System.nanoTime();
    for (int t = 0; t < threads; t++) {
      long from = records * t / threads;
      long to = records * (t + 1) / threads;
      workers[t] = new Thread(() -> {
        Logger log = ctx.getLogger("app.workload");
        Workload workload = new Workload();
        try {
          for (long seq = from; seq < to; seq++) {
            LogRecord r = workload.next(seq - from);
            log.atInfo()
                .setMessage(r.getBody().asString())
                .addKeyValue("level", r.getAttribute("level").asString())
                .addKeyValue("thread", r.getAttribute("thread").asString())
                .addKeyValue("location", r.getAttribute("location").asString())
                .log();
          }
        } catch (Throwable e) { // logging never throws; this would be a bug
          crash.set(e);
        } finally {
          rawBytes.add(workload.rawBytes());
        }
      }, "app-" + t);
      workers[t].start();
    }
    Thread reporter = null;
    if (!options.quiet()) {
      reporter = new Thread(() -> progress(producer, appender, receiver, start), "progress");
      reporter.setDaemon(true);
      reporter.start();
    }
    for (Thread w : workers) {
      w.join();
    }
    if (crash.get() != null) {
      throw new IllegalStateException("a logging call threw", crash.get());
    }
    producer.flush();
    ProducerMetrics m = producer.getMetrics();
    ctx.stop(); // what an application's shutdown does: the appender ships what is left and closes the producer
    long end = System.nanoTime();
    if (reporter != null) {
      reporter.interrupt();
    }
    m = producer.getMetrics();
    long received = receiver == null ? -1 : receiver.records();
    long delivered = receiver == null ? m.getRecordsSent() : received;
    long dropped = appender.droppedCount();
    long accepted = records - dropped;
    long failed = appender.failedCount();
    String lastProblem = m.getLastError() != null ? m.getLastError()
        : dropped > 0 ? dropped + " events dropped: the appender's buffer was full" : null;
    WorkloadRunner.Result result = new WorkloadRunner.Result(delivered, failed, dropped, 0, (end - start) / 1e9,
        records == 0 ? 0 : rawBytes.sum() * accepted / records, m.getWireBytesSent(), received,
        m.getPeakBufferedBytes(), lastProblem);
    System.err.printf(Locale.ROOT, "%s%npeak buffered %,d bytes of %,d; appender: dropped %,d, failed %,d%s%n", m,
        m.getPeakBufferedBytes(), producer.getConfig().getTotalSizeInBytes(), dropped, failed,
        receiver == null ? "" : String.format(Locale.ROOT, "; receiver counted %,d records in %,d requests",
            receiver.records(), receiver.requests()));
    System.out.println(result.summary());
    boolean verified = receiver == null || m.getRecordsSent() == received;
    if (!verified) {
      System.err.printf(Locale.ROOT, "MISMATCH: producer reports %d delivered, receiver counted %d%n",
          m.getRecordsSent(), received);
    }
    return result.report(records, endpoint, producer.getConfig().getDeliveryTimeoutMillis(), verified, System.err);
  }

  private static void progress(Producer producer, LogproducerAppender appender, EmbeddedOtlpReceiver receiver,
      long start) {
    while (true) {
      try {
        TimeUnit.SECONDS.sleep(1); // paces the progress lines
      } catch (InterruptedException e) {
        return;
      }
      ProducerMetrics m = producer.getMetrics();
      System.err.printf(Locale.ROOT, "[%5.1fs] accepted=%d delivered=%d dropped=%d buffered=%.1fMB%s%n",
          (System.nanoTime() - start) / 1e9, m.getRecordsAccepted(), m.getRecordsSent(), appender.droppedCount(),
          m.getBufferedBytes() / 1e6, receiver == null ? "" : " receiver=" + receiver.records());
    }
  }
}
