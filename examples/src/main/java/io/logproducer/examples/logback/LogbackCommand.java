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
import io.logproducer.examples.AppenderRun;
import io.logproducer.examples.CommonOptions;
import io.logproducer.examples.Main;
import io.logproducer.logback.LogproducerAppender;
import java.io.File;
import java.net.URL;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The reference workload logged through logback: a {@link LoggerContext} of its own, configured by
 * {@link JoranConfigurator} from {@code logback-example.xml} (or {@code --config FILE}), whose
 * {@link LogproducerAppender} ships the events over OTLP/HTTP to an embedded receiver that counts
 * them (default) or to {@code --endpoint URL}. Each workload record becomes one logging call: its
 * message as the log message, its {@code level}, {@code thread} and {@code location} fields as
 * key-value pairs. logback is not the jar's SLF4J provider: the producer's own logging still goes
 * to slf4j-simple.
 */
@Command(
    name = "logback",
    description =
        "the reference workload logged through logback's LogproducerAppender"
            + " (logback-example.xml).",
    footerHeading = "%n",
    footer = {
      "refused= counts the events the appender dropped because its buffer was full"
          + " (droppedCount()).",
      "",
      Main.SUMMARY_USAGE
    })
public final class LogbackCommand implements Callable<Integer> {

  /** Creates the command. */
  public LogbackCommand() {}

  @Mixin AppenderRun appenderRun;

  @Option(
      names = "--config",
      paramLabel = "FILE",
      description = "a logback XML file instead of the bundled logback-example.xml")
  String configFile;

  @Mixin CommonOptions common;

  @Override
  public Integer call() throws Exception {
    return appenderRun.run(
        "logback",
        common,
        (endpoint, policy) -> {
          ProducerConfig config = common.producerConfig().build();
          LoggerContext ctx = new LoggerContext();
          ctx.setName("logback-example");
          ctx.setMDCAdapter(new LogbackMDCAdapter());
          ctx.putProperty("endpoint", endpoint);
          if (common.compression() != null) {
            ctx.putProperty("compression", common.compression());
          }
          ctx.putProperty(
              "requestTimeoutMillis", Long.toString(common.requestTimeoutMillis().orElse(10_000)));
          ctx.putProperty("totalSizeInBytes", Long.toString(config.getTotalSizeInBytes()));
          ctx.putProperty("batchSizeInBytes", Integer.toString(config.getBatchSizeInBytes()));
          ctx.putProperty("lingerMillis", Long.toString(config.getLingerMillis()));
          ctx.putProperty("sendThreads", Integer.toString(config.getSendThreads()));
          ctx.putProperty(
              "deliveryTimeoutMillis", Long.toString(config.getDeliveryTimeoutMillis()));
          ctx.putProperty("maxBlockMillis", Long.toString(config.getMaxBlockMillis()));
          ctx.putProperty("bufferFullPolicy", policy);
          LogproducerAppender appender;
          try {
            appender = configure(ctx, configFile);
          } catch (RuntimeException | JoranException e) {
            ctx.stop();
            throw e;
          }
          Logger log = ctx.getLogger("app.workload");
          return new AppenderRun.Target() {
            @Override
            public Producer producer() {
              return appender.getProducer();
            }

            @Override
            public long droppedCount() {
              return appender.droppedCount();
            }

            @Override
            public long failedCount() {
              return appender.failedCount();
            }

            @Override
            public void log(LogRecord r) {
              log.atInfo()
                  .setMessage(r.getBody().asString())
                  .addKeyValue("level", r.getAttribute("level").asString())
                  .addKeyValue("thread", r.getAttribute("thread").asString())
                  .addKeyValue("location", r.getAttribute("location").asString())
                  .log();
            }

            @Override
            public void stop() {
              ctx.stop();
            }
          };
        });
  }

  private static LogproducerAppender configure(LoggerContext ctx, String configFile)
      throws JoranException {
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
    for (Iterator<Appender<ILoggingEvent>> it =
            ctx.getLogger(Logger.ROOT_LOGGER_NAME).iteratorForAppenders();
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
      throw new IllegalArgumentException(
          found == null
              ? "the logback configuration attaches no LogproducerAppender" + " to the root logger"
              : "the LogproducerAppender did not start: " + String.join("; ", errors));
    }
    return found;
  }
}
