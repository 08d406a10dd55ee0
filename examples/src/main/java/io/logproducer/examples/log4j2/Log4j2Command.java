package io.logproducer.examples.log4j2;

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
import io.logproducer.log4j2.LogproducerAppender;
import java.net.URI;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.LongAdder;
import org.apache.logging.log4j.Logger;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.config.Configurator;
import org.apache.logging.log4j.message.StringMapMessage;

/**
 * The reference workload logged through log4j2: a LoggerContext of its own configured from
 * {@code log4j2-example.xml} (the Logproducer appender over OTLP/HTTP), {@code --threads} application threads
 * logging {@code --records} events (the workload's body as the MapMessage's {@code message}, its three attributes
 * as entries), to the embedded receiver or {@code --endpoint}. Ends with the quick start's summary line;
 * {@code refused} counts the events the appender dropped (its buffer was full, {@code bufferFullPolicy=DROP}).
 */
public final class Log4j2Command implements Command {

  @Override
  public String name() {
    return "log4j2";
  }

  @Override
  public String summary() {
    return "the reference workload logged through log4j2 and the Logproducer appender (OTLP/HTTP).";
  }

  @Override
  public List<OptionSpec> options() {
    return List.of(
        OptionSpec.value("endpoint", "URL", "send there (e.g. http://127.0.0.1:4318)", "an embedded receiver"),
        OptionSpec.value("buffer-full-policy", "P", "DROP (the appender default: never wait, count the drop) or "
            + "BLOCK (wait up to --max-block-ms)", "DROP"));
  }

  @Override
  public List<String> notes() {
    return List.of("The appender is configured by log4j2-example.xml (in the jar); the options above and the common"
        + " ones fill its ${sys:lp.*} properties.");
  }

  @Override
  public int run(Options options) throws Exception {
    String endpoint = options.string("endpoint", null);
    String policy = options.string("buffer-full-policy", "DROP").toUpperCase(Locale.ROOT);
    if (!policy.equals("DROP") && !policy.equals("BLOCK")) {
      throw new IllegalArgumentException("--buffer-full-policy must be DROP or BLOCK, was '" + policy + "'");
    }
    ProducerConfig config = options.producerConfig().build(); // validates the common options
    EmbeddedOtlpReceiver receiver = null;
    if (endpoint == null) {
      receiver = new EmbeddedOtlpReceiver(0, 4);
      endpoint = receiver.endpoint();
    }
    System.setProperty("lp.endpoint", endpoint);
    System.setProperty("lp.bufferFullPolicy", policy);
    System.setProperty("lp.maxBlockMillis", Long.toString(config.getMaxBlockMillis()));
    System.setProperty("lp.totalSizeInBytes", Long.toString(config.getTotalSizeInBytes()));
    System.setProperty("lp.batchSizeInBytes", Integer.toString(config.getBatchSizeInBytes()));
    System.setProperty("lp.lingerMillis", Long.toString(config.getLingerMillis()));
    System.setProperty("lp.sendThreads", Integer.toString(config.getSendThreads()));
    System.setProperty("lp.deliveryTimeoutMillis", Long.toString(config.getDeliveryTimeoutMillis()));
    if (options.has("compression")) {
      System.setProperty("lp.compression", options.string("compression", "none"));
    }
    System.setProperty("lp.compressionLevel", Integer.toString(config.getCompressionLevel()));
    if (options.has("request-timeout-ms")) {
      System.setProperty("lp.requestTimeoutMillis", Long.toString(options.requestTimeoutMillis(10_000)));
    }
    URI xml = Log4j2Command.class.getClassLoader().getResource("log4j2-example.xml").toURI();
    LoggerContext ctx = Configurator.initialize("logproducer-log4j2-example", Log4j2Command.class.getClassLoader(),
        xml);
    try {
      if (ctx == null || !(ctx.getConfiguration().getAppender("example") instanceof LogproducerAppender)) {
        throw new IllegalArgumentException("log4j2-example.xml did not configure the Logproducer appender (see the"
            + " log4j2 status messages above)");
      }
      LogproducerAppender appender = ctx.getConfiguration().getAppender("example");
      Producer producer = appender.producer();
      if (producer == null) {
        throw new IllegalArgumentException("the Logproducer appender did not start (see the log4j2 status messages"
            + " above)");
      }
      long records = options.records();
      int threads = options.threads();
      System.err.printf(Locale.ROOT, "logging %,d events from %d threads through log4j2 to %s%s (%s)%n", records,
          threads, endpoint, receiver != null ? " (embedded receiver)" : "", producer.getConfig());
      Logger log = ctx.getLogger("io.example.Workload");
      LongAdder rawBytes = new LongAdder();
      Thread[] workers = new Thread[threads];
      long start = System.nanoTime();
      for (int t = 0; t < threads; t++) {
        long from = records * t / threads;
        long to = records * (t + 1) / threads;
        workers[t] = new Thread(() -> {
          Workload workload = new Workload();
          for (long seq = from; seq < to; seq++) {
            LogRecord r = workload.next(seq - from);
            log.info(new StringMapMessage(4).with("message", r.getBody().asString())
                .with(r.getAttributeKey(0), r.getAttributeValue(0).asString())
                .with(r.getAttributeKey(1), r.getAttributeValue(1).asString())
                .with(r.getAttributeKey(2), r.getAttributeValue(2).asString()));
          }
          rawBytes.add(workload.rawBytes());
        }, "app-" + t);
        workers[t].start();
      }
      for (Thread w : workers) {
        w.join();
      }
      ctx.stop(); // the appender ships what is buffered and closes the producer
      double seconds = (System.nanoTime() - start) / 1e9;
      ProducerMetrics m = producer.getMetrics();
      long delivered = receiver != null ? receiver.records() : m.getRecordsSent();
      WorkloadRunner.Result result = new WorkloadRunner.Result(delivered, m.getRecordsFailed()
          + m.getRecordsRejected(), appender.droppedCount(), 0, seconds, rawBytes.sum(), m.getWireBytesSent(),
          receiver != null ? receiver.records() : -1, m.getPeakBufferedBytes(), m.getLastError());
      System.err.printf(Locale.ROOT, "%s%npeak buffered %,d bytes of %,d%s%n", m, m.getPeakBufferedBytes(),
          config.getTotalSizeInBytes(), receiver == null ? "" : String.format(Locale.ROOT,
              "; receiver counted %,d records in %,d requests", receiver.records(), receiver.requests()));
      System.out.println(result.summary());
      boolean verified = receiver == null || receiver.records() == m.getRecordsSent();
      if (!verified) {
        System.err.printf(Locale.ROOT, "MISMATCH: producer reports %d delivered, receiver counted %d%n",
            m.getRecordsSent(), receiver.records());
      }
      return result.report(records, endpoint, config.getDeliveryTimeoutMillis(), verified, System.err);
    } finally {
      if (ctx != null) {
        ctx.stop();
      }
      if (receiver != null) {
        receiver.close();
      }
    }
  }
}
