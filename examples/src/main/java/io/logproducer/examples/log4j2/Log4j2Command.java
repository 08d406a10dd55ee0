package io.logproducer.examples.log4j2;

import io.logproducer.LogRecord;
import io.logproducer.Producer;
import io.logproducer.ProducerConfig;
import io.logproducer.examples.AppenderRun;
import io.logproducer.examples.Command;
import io.logproducer.examples.OptionSpec;
import io.logproducer.examples.Options;
import io.logproducer.log4j2.LogproducerAppender;
import java.net.URI;
import java.util.List;
import org.apache.logging.log4j.Logger;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.config.Configurator;
import org.apache.logging.log4j.message.StringMapMessage;

/**
 * The reference workload logged through log4j2: a LoggerContext of its own configured from {@code
 * log4j2-example.xml} (the Logproducer appender over OTLP/HTTP), {@code --threads} application
 * threads logging {@code --records} events (the workload's body as the MapMessage's {@code
 * message}, its three attributes as entries), to the embedded receiver or {@code --endpoint}. Ends
 * with the quick start's summary line; {@code refused} counts the events the appender dropped (its
 * buffer was full, {@code bufferFullPolicy=DROP}).
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
    return AppenderRun.options();
  }

  @Override
  public List<String> notes() {
    return List.of(
        "The appender is configured by log4j2-example.xml (in the jar); the options above and the common"
            + " ones fill its ${sys:lp.*} properties.");
  }

  @Override
  public int run(Options options) throws Exception {
    return AppenderRun.run(
        "log4j2",
        options,
        (endpoint, policy) -> {
          ProducerConfig config = options.producerConfig().build();
          System.setProperty("lp.endpoint", endpoint);
          System.setProperty("lp.bufferFullPolicy", policy);
          System.setProperty("lp.maxBlockMillis", Long.toString(config.getMaxBlockMillis()));
          System.setProperty("lp.totalSizeInBytes", Long.toString(config.getTotalSizeInBytes()));
          System.setProperty("lp.batchSizeInBytes", Integer.toString(config.getBatchSizeInBytes()));
          System.setProperty("lp.lingerMillis", Long.toString(config.getLingerMillis()));
          System.setProperty("lp.sendThreads", Integer.toString(config.getSendThreads()));
          System.setProperty(
              "lp.deliveryTimeoutMillis", Long.toString(config.getDeliveryTimeoutMillis()));
          if (options.has("compression")) {
            System.setProperty("lp.compression", options.string("compression", "none"));
          }
          System.setProperty("lp.compressionLevel", Integer.toString(config.getCompressionLevel()));
          if (options.has("request-timeout-ms")) {
            System.setProperty(
                "lp.requestTimeoutMillis", Long.toString(options.requestTimeoutMillis(10_000)));
          }
          URI xml = Log4j2Command.class.getClassLoader().getResource("log4j2-example.xml").toURI();
          LoggerContext ctx =
              Configurator.initialize(
                  "logproducer-log4j2-example", Log4j2Command.class.getClassLoader(), xml);
          if (ctx == null
              || !(ctx.getConfiguration().getAppender("example") instanceof LogproducerAppender)) {
            if (ctx != null) {
              ctx.stop();
            }
            throw new IllegalArgumentException(
                "log4j2-example.xml did not configure the Logproducer appender (see the"
                    + " log4j2 status messages above)");
          }
          LogproducerAppender appender = ctx.getConfiguration().getAppender("example");
          if (appender.getProducer() == null) {
            ctx.stop();
            throw new IllegalArgumentException(
                "the Logproducer appender did not start (see the log4j2 status messages"
                    + " above)");
          }
          Logger log = ctx.getLogger("io.example.Workload");
          Producer producer = appender.getProducer();
          return new AppenderRun.Target() {
            @Override
            public Producer producer() {
              return producer;
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
              log.info(
                  new StringMapMessage(4)
                      .with("message", r.getBody().asString())
                      .with(r.getAttributeKey(0), r.getAttributeValue(0).asString())
                      .with(r.getAttributeKey(1), r.getAttributeValue(1).asString())
                      .with(r.getAttributeKey(2), r.getAttributeValue(2).asString()));
            }

            @Override
            public void stop() {
              ctx.stop();
            }
          };
        });
  }
}
