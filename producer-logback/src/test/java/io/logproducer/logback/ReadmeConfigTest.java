package io.logproducer.logback;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.core.status.Status;
import io.logproducer.testing.otlp.OtlpReceiver;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The logback configuration of docs/appenders.md (once the README's), as printed: it starts the
 * appender and ships an event.
 */
@Timeout(60)
class ReadmeConfigTest {

  @TempDir Path dir;

  private static String readmeLogbackXml() throws Exception {
    return readmeLogbackXml("io.logproducer.logback.LogproducerAppender");
  }

  /**
   * The first logback {@code <configuration>} block of docs/appenders.md containing {@code mark}.
   */
  static String readmeLogbackXml(String mark) throws Exception {
    for (Path d = Paths.get("").toAbsolutePath(); d != null; d = d.getParent()) {
      Path readme =
          d.resolve("docs").resolve("appenders.md"); // the README's configuration moved there
      if (Files.isRegularFile(readme) && Files.isDirectory(d.resolve("producer-logback"))) {
        Matcher m =
            Pattern.compile("(?s)```xml\\n(<configuration>.*?</configuration>)\\n```")
                .matcher(new String(Files.readAllBytes(readme), StandardCharsets.UTF_8));
        while (m.find()) {
          if (m.group(1).contains("io.logproducer.logback.LogproducerAppender")
              && m.group(1).contains(mark)) {
            return m.group(1);
          }
        }
        throw new AssertionError(
            "no logback <configuration> block with LogproducerAppender and "
                + mark
                + " in "
                + readme);
      }
    }
    throw new AssertionError("docs/appenders.md not found");
  }

  @Test
  void theReadmeConfigurationStartsAndShips() throws Exception {
    try (OtlpReceiver server = OtlpReceiver.start()) {
      LoggerContext ctx = new LoggerContext();
      LogbackTestSupport.useGlobalMdc(ctx);
      ctx.putProperty("otlp.endpoint", server.endpoint());
      JoranConfigurator jc = new JoranConfigurator();
      jc.setContext(ctx);
      jc.doConfigure(new ByteArrayInputStream(readmeLogbackXml().getBytes(StandardCharsets.UTF_8)));
      ctx.start();
      List<String> errors = LogbackTestSupport.statuses(ctx, Status.ERROR);
      assertEquals(List.of(), errors);
      LogproducerAppender appender = LogbackTestSupport.appender(ctx, "LOGPRODUCER");
      assertTrue(appender.isStarted());
      ctx.getLogger("com.example.Checkout").info("order {} paid", 42);
      ctx.stop();
      assertEquals(List.of("order 42 paid"), server.deliveredBodies());
      LogbackTestSupport.awaitNoThreads("logproducer-logproducer-");
    }
  }

  @Test
  void theReadmeSpoolConfigurationStartsAndShipsThroughTheSpool() throws Exception {
    Path spool = dir.resolve("spool");
    try (OtlpReceiver server = OtlpReceiver.start()) {
      LoggerContext ctx = new LoggerContext();
      LogbackTestSupport.useGlobalMdc(ctx);
      ctx.putProperty("otlp.endpoint", server.endpoint());
      ctx.putProperty("spool.dir", spool.toString());
      JoranConfigurator jc = new JoranConfigurator();
      jc.setContext(ctx);
      jc.doConfigure(
          new ByteArrayInputStream(readmeLogbackXml("<spool>").getBytes(StandardCharsets.UTF_8)));
      ctx.start();
      assertEquals(List.of(), LogbackTestSupport.statuses(ctx, Status.ERROR));
      LogproducerAppender appender = LogbackTestSupport.appender(ctx, "LOGPRODUCER");
      assertTrue(appender.isStarted());
      assertEquals(spool, appender.getProducer().getConfig().getSpool().getDirectory());
      assertEquals(2147483648L, appender.getProducer().getConfig().getSpool().getMaxBytes());
      ctx.getLogger("com.example.Checkout").info("order {} paid", 42);
      ctx.stop();
      assertEquals(List.of("order 42 paid"), server.deliveredBodies());
      assertTrue(Files.isDirectory(spool));
    }
  }
}
