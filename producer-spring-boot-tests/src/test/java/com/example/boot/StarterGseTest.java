package com.example.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.logproducer.Producer;
import io.logproducer.testing.gse.GseAgent;
import io.logproducer.testing.gse.GseFrame;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * {@code logproducer.exporter=gse}: the application's lines go to a BlueKing GSE agent over its
 * Unix socket (a real one, on a temporary path), under the configured dataid.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class StarterGseTest {

  private static final Pattern LINE = Pattern.compile("request (\\d+) line (\\d+)");

  @Test
  void theGseExporterShipsEveryLineToTheAgentsSocket() throws Exception {
    Path dir = Files.createTempDirectory("lp-gse");
    try (GseAgent agent = GseAgent.unix(dir.resolve("ipc.state.report"))) {
      List<String> properties = Apps.baseProperties("http://127.0.0.1:9");
      properties.add("logproducer.exporter=gse");
      properties.add("logproducer.gse.socket-path=" + agent.socketPath());
      properties.add("logproducer.gse.data-id=1500001");
      ConfigurableApplicationContext context = Apps.start(properties);
      int port = Apps.port(context);
      Producer producer = context.getBean(Producer.class);
      for (int i = 0; i < 40; i++) {
        assertEquals("200", Apps.get(port, "/log?id=" + i + "&lines=5")[0]);
      }
      producer.flush();
      // Delivered means written to the socket: wait until the agent has read as many.
      agent.awaitRecords(
          producer.getMetrics().getRecordsSent(), 60_000); // a condition; the cap only ends a hang
      Set<String> lines = new HashSet<>();
      int items = 0;
      for (GseFrame frame : agent.frames()) {
        assertEquals(1500001, frame.dataId());
        for (String data : frame.data()) {
          Matcher m = LINE.matcher(data);
          if (m.find()) {
            items++;
            lines.add(m.group());
          }
        }
      }
      assertEquals(200, items, "the application's lines");
      assertEquals(200, lines.size(), "each once");
      assertEquals(
          producer.getMetrics().getRecordsSent(), agent.records(), "every delivered record");
      context.close();
      assertEquals(Set.of(), Apps.producerThreads());
    }
  }
}
