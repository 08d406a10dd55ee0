package io.logproducer.gse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.logproducer.logback.LogproducerAppender;
import io.logproducer.testing.gse.GseAgent;
import io.logproducer.testing.gse.GseFrame;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The appender to a GSE agent (the test kit's {@link GseAgent}) on a real Unix socket: body and
 * severity arrive.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class LogbackGseTest {

  @Test
  void eventsReachTheAgent(@TempDir Path dir) throws Exception {
    try (GseAgent agent = GseAgent.unix(dir.resolve("ipc.state.report"))) {
      LoggerContext ctx = new LoggerContext();
      ctx.putProperty("gse.socket", agent.socketPath().toString());
      JoranConfigurator jc = new JoranConfigurator();
      jc.setContext(ctx);
      jc.doConfigure(LogbackGseTest.class.getClassLoader().getResource("gse.xml"));
      ctx.start();
      LogproducerAppender lp =
          (LogproducerAppender) ctx.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).getAppender("LP");
      assertTrue(lp.isStarted(), () -> ctx.getStatusManager().getCopyOfStatusList().toString());
      ctx.getLogger("app.gse").info("hello 日志 ✓");
      ctx.getLogger("app.gse").warn("careful");
      ctx.getLogger("app.gse").error("broken");
      try {
        agent.awaitRecords(3, 10_000);
      } catch (AssertionError e) {
        throw new AssertionError(
            e.getMessage()
                + "; dropped "
                + lp.droppedCount()
                + ", failed "
                + lp.failedCount()
                + ", metrics "
                + lp.getProducer().getMetrics()
                + ", status "
                + ctx.getStatusManager().getCopyOfStatusList(),
            e);
      }
      ctx.stop();
      assertEquals(List.of(), agent.violations());
      List<JsonObject> items = new ArrayList<>();
      for (GseFrame f : agent.frames()) {
        assertEquals(1500001, f.dataId());
        for (String data : f.data()) {
          items.add(JsonParser.parseString(data).getAsJsonObject());
        }
      }
      assertEquals(
          List.of("hello 日志 ✓", "careful", "broken"),
          items.stream().map(o -> o.get("body").getAsString()).collect(Collectors.toList()));
      assertEquals(
          List.of(9, 13, 17),
          items.stream()
              .map(o -> o.get("severity_number").getAsInt())
              .collect(Collectors.toList()));
      assertEquals(
          List.of("INFO", "WARN", "ERROR"),
          items.stream()
              .map(o -> o.get("severity_text").getAsString())
              .collect(Collectors.toList()));
    }
  }
}
