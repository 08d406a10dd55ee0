package io.logproducer.log4j2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.testing.otlp.OtlpReceiver;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.logging.log4j.core.LoggerContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The log4j2 configuration of docs/appenders.md (once the README's), as printed: it creates the
 * appender and ships an event.
 */
@Timeout(60)
class ReadmeConfigTest {

  @TempDir Path dir;

  private static String readmeLog4j2Xml() throws Exception {
    return readmeLog4j2Xml("<Logproducer ");
  }

  /**
   * The first log4j2 {@code <Configuration>} block of docs/appenders.md containing {@code mark}.
   */
  static String readmeLog4j2Xml(String mark) throws Exception {
    for (Path d = Paths.get("").toAbsolutePath(); d != null; d = d.getParent()) {
      Path readme =
          d.resolve("docs").resolve("appenders.md"); // the README's configuration moved there
      if (Files.isRegularFile(readme) && Files.isDirectory(d.resolve("producer-log4j2"))) {
        Matcher m =
            Pattern.compile("(?s)```xml\\n(<Configuration.*?</Configuration>)\\n```")
                .matcher(new String(Files.readAllBytes(readme), StandardCharsets.UTF_8));
        while (m.find()) {
          if (m.group(1).contains("<Logproducer ") && m.group(1).contains(mark)) {
            return m.group(1);
          }
        }
        throw new AssertionError(
            "no log4j2 <Configuration> block with <Logproducer> and " + mark + " in " + readme);
      }
    }
    throw new AssertionError("docs/appenders.md not found");
  }

  @Test
  void theReadmeConfigurationStartsAndShips() throws Exception {
    try (OtlpReceiver server = OtlpReceiver.start()) {
      Path xml = dir.resolve("log4j2-readme.xml");
      // the documented configuration reads the endpoint from the system property otlp.endpoint
      // (default 127.0.0.1:4318)
      Files.write(
          xml,
          readmeLog4j2Xml()
              .replace("${sys:otlp.endpoint:-http://127.0.0.1:4318}", server.endpoint())
              .getBytes(StandardCharsets.UTF_8));
      LoggerContext ctx = new LoggerContext("readme", null, xml.toUri());
      ctx.start();
      LogproducerAppender appender = Support.appender(ctx, "LOGPRODUCER");
      assertTrue(appender.isStarted());
      ctx.getLogger("com.example.Checkout").info("order {} paid", 42);
      ctx.stop();
      assertEquals(List.of("order 42 paid"), server.deliveredBodies());
      Support.awaitNoThreads("logproducer-logproducer-");
    }
  }

  @Test
  void theReadmeSpoolConfigurationStartsAndShipsThroughTheSpool() throws Exception {
    Path spool = dir.resolve("spool");
    try (OtlpReceiver server = OtlpReceiver.start()) {
      Path xml = dir.resolve("log4j2-readme-spool.xml");
      Files.write(
          xml,
          readmeLog4j2Xml("<Spool ")
              .replace("${sys:otlp.endpoint:-http://127.0.0.1:4318}", server.endpoint())
              .replace("${sys:spool.dir:-/var/spool/myapp-logs}", spool.toString())
              .getBytes(StandardCharsets.UTF_8));
      LoggerContext ctx = new LoggerContext("readme-spool", null, xml.toUri());
      ctx.start();
      LogproducerAppender appender = Support.appender(ctx, "LOGPRODUCER");
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
