package io.logproducer.gse;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.gson.JsonObject;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.logging.log4j.Logger;
import org.apache.logging.log4j.core.LoggerContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The log4j2 appender through a GSE agent (producer-gse's test agent, package-private: hence this package). */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class Log4j2GseTest {

  @TempDir
  Path dir;

  @Test
  void eventsArriveWithBodyAndSeverity() throws Exception {
    Path socket = dir.resolve("gse.sock");
    try (TestAgent agent = TestAgent.unix(socket)) {
      System.setProperty("gse.socket", socket.toString());
      URI uri = getClass().getClassLoader().getResource("gse.xml").toURI();
      LoggerContext ctx = new LoggerContext("gse", null, uri);
      ctx.start();
      try {
        Logger log = ctx.getLogger("test.gse");
        log.info("hello GSE 日志 ✓ {}", 1);
        log.warn("second");
        log.error("third", new IllegalArgumentException("bad"));
        agent.awaitRecords(3, 10_000);
      } finally {
        ctx.stop();
        System.clearProperty("gse.socket");
      }
      assertEquals(List.of(), agent.violations());
      List<JsonObject> records = new ArrayList<>();
      for (TestAgent.Frame f : agent.frames()) {
        assertEquals(1500123, f.dataId());
        for (String d : f.data()) {
          records.add(TestAgent.parseStrict(d));
        }
      }
      assertEquals(3, records.size());
      assertEquals("hello GSE 日志 ✓ 1", records.get(0).get("body").getAsString());
      assertEquals(9, records.get(0).get("severity_number").getAsInt());
      assertEquals("INFO", records.get(0).get("severity_text").getAsString());
      assertEquals("second", records.get(1).get("body").getAsString());
      assertEquals(13, records.get(1).get("severity_number").getAsInt());
      assertEquals("WARN", records.get(1).get("severity_text").getAsString());
      assertEquals("third", records.get(2).get("body").getAsString());
      assertEquals(17, records.get(2).get("severity_number").getAsInt());
      assertEquals("java.lang.IllegalArgumentException",
          records.get(2).getAsJsonObject("attributes").get("exception.type").getAsString());
    }
  }
}
