package io.logproducer.examples.log4j2;

import io.logproducer.LogRecord;
import io.logproducer.Producer;
import io.logproducer.ProducerConfig;
import io.logproducer.examples.AppenderRun;
import io.logproducer.examples.CommonOptions;
import io.logproducer.examples.Main;
import io.logproducer.log4j2.LogproducerAppender;
import java.net.URI;
import java.util.concurrent.Callable;
import org.apache.logging.log4j.Logger;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.config.Configurator;
import org.apache.logging.log4j.message.StringMapMessage;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * The reference workload logged through log4j2: a LoggerContext of its own configured from {@code
 * log4j2-example.xml} (the Logproducer appender over OTLP/HTTP), {@code --threads} application
 * threads logging {@code --records} events (the workload's body as the MapMessage's {@code
 * message}, its three attributes as entries), to the embedded receiver or {@code --endpoint}. Ends
 * with the quick start's summary line; {@code refused} counts the events the appender dropped (its
 * buffer was full, {@code bufferFullPolicy=DROP}).
 */
@Command(
    name = "log4j2",
    description =
        "the reference workload logged through log4j2 and the Logproducer appender (OTLP/HTTP).",
    footerHeading = "%n",
    footer = {
      "The appender is configured by log4j2-example.xml (in the jar); the options above and the",
      "common ones fill its $${sys:lp.*} properties.",
      "",
      Main.SUMMARY_USAGE
    })
public final class Log4j2Command implements Callable<Integer> {

  @Mixin AppenderRun appenderRun;

  @Mixin CommonOptions common;

  @Override
  public Integer call() throws Exception {
    return appenderRun.run(
        "log4j2",
        common,
        (endpoint, policy) -> {
          ProducerConfig config = common.producerConfig().build();
          System.setProperty("lp.endpoint", endpoint);
          System.setProperty("lp.bufferFullPolicy", policy);
          System.setProperty("lp.maxBlockMillis", Long.toString(config.getMaxBlockMillis()));
          System.setProperty("lp.totalSizeInBytes", Long.toString(config.getTotalSizeInBytes()));
          System.setProperty("lp.batchSizeInBytes", Integer.toString(config.getBatchSizeInBytes()));
          System.setProperty("lp.lingerMillis", Long.toString(config.getLingerMillis()));
          System.setProperty("lp.sendThreads", Integer.toString(config.getSendThreads()));
          System.setProperty(
              "lp.deliveryTimeoutMillis", Long.toString(config.getDeliveryTimeoutMillis()));
          if (common.compression() != null) {
            System.setProperty("lp.compression", common.compression());
          }
          System.setProperty("lp.compressionLevel", Integer.toString(config.getCompressionLevel()));
          common
              .requestTimeoutMillis()
              .ifPresent(ms -> System.setProperty("lp.requestTimeoutMillis", Long.toString(ms)));
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
