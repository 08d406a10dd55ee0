package io.logproducer.gse;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.internal.bind.TypeAdapters;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;
import io.logproducer.testing.gse.GseAgent;
import io.logproducer.testing.gse.GseFrame;
import java.io.IOException;
import java.io.StringReader;
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

/** The log4j2 appender through a GSE agent (the test kit's {@link GseAgent}, strict mode). */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class Log4j2GseTest {

  @TempDir Path dir;

  @Test
  void eventsArriveWithBodyAndSeverity() throws Exception {
    Path socket = dir.resolve("gse.sock");
    try (GseAgent agent = GseAgent.unix(socket)) {
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
      for (GseFrame f : agent.frames()) {
        assertEquals(1500123, f.dataId());
        for (String d : f.data()) {
          records.add(parseStrict(d));
        }
      }
      assertEquals(3, records.size());
      // In logged order (their severities rise): with the hand-off, the event with an exception is
      // mapped on the logging thread and can reach the agent before the two queued ones.
      records.sort(
          java.util.Comparator.comparingInt((JsonObject o) -> o.get("severity_number").getAsInt()));
      assertEquals("hello GSE 日志 ✓ 1", records.get(0).get("body").getAsString());
      assertEquals(9, records.get(0).get("severity_number").getAsInt());
      assertEquals("INFO", records.get(0).get("severity_text").getAsString());
      assertEquals("second", records.get(1).get("body").getAsString());
      assertEquals(13, records.get(1).get("severity_number").getAsInt());
      assertEquals("WARN", records.get(1).get("severity_text").getAsString());
      assertEquals("third", records.get(2).get("body").getAsString());
      assertEquals(17, records.get(2).get("severity_number").getAsInt());
      assertEquals(
          "java.lang.IllegalArgumentException",
          records.get(2).getAsJsonObject("attributes").get("exception.type").getAsString());
    }
  }

  /** Exactly one strict JSON object, nothing after it (gson, independent of the agent's parser). */
  private static JsonObject parseStrict(String text) throws IOException {
    JsonReader r = new JsonReader(new StringReader(text));
    r.setLenient(false);
    JsonElement e = TypeAdapters.JSON_ELEMENT.read(r);
    if (r.peek() != JsonToken.END_DOCUMENT || !e.isJsonObject()) {
      throw new IOException("not exactly one JSON object: " + text);
    }
    return e.getAsJsonObject();
  }
}
