package io.logproducer.benchmark.sls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.aliyun.openservices.log.common.Logs;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import net.jpountz.lz4.LZ4Factory;
import org.junit.jupiter.api.Test;

/**
 * The SLS sink's LogGroup walk, checked against the aliyun-log SDK's own protobuf classes, and its
 * HTTP answers.
 */
class SlsReceiverTest {

  /**
   * A LogGroup as the SDK builds one for PutLogs: topic, source, tags, logs with time, nanoseconds
   * and contents.
   */
  private static byte[] logGroup(int logs, int contentsPerLog) {
    Logs.LogGroup.Builder g = Logs.LogGroup.newBuilder().setTopic("topic").setSource("10.0.0.1");
    g.addLogTagsBuilder().setKey("__pack_id__").setValue("ABC-1");
    for (int i = 0; i < logs; i++) {
      Logs.Log.Builder l = g.addLogsBuilder().setTime(1_700_000_000 + i).setTimeNs(123_456);
      for (int k = 0; k < contentsPerLog; k++) {
        l.addContentsBuilder().setKey("k" + k).setValue("测试日志_value_" + i + "_" + k);
      }
    }
    return g.build().toByteArray();
  }

  @Test
  void countsWhatTheSdkEncoded() {
    byte[] b = logGroup(1_000, 4);
    LogGroupCounter.Counts c = LogGroupCounter.count(b, 0, b.length);
    assertEquals(1_000, c.logs());
    assertEquals(4_000, c.contents());
    byte[] empty = Logs.LogGroup.newBuilder().setTopic("t").build().toByteArray();
    assertEquals(0, LogGroupCounter.count(empty, 0, empty.length).logs());
  }

  @Test
  void refusesMalformedGroups() {
    byte[] b = logGroup(3, 2);
    assertThrows(IllegalArgumentException.class, () -> LogGroupCounter.count(b, 0, b.length - 1));
    // Time is required: a Log without it (buildPartial skips the check) makes the group malformed
    Logs.Log noTime =
        Logs.Log.newBuilder()
            .addContents(Logs.Log.Content.newBuilder().setKey("k").setValue("v"))
            .buildPartial();
    byte[] bad = Logs.LogGroup.newBuilder().addLogs(noTime).buildPartial().toByteArray();
    assertThrows(IllegalArgumentException.class, () -> LogGroupCounter.count(bad, 0, bad.length));
  }

  @Test
  void answersPutLogsAsSlsDoes() throws Exception {
    try (SlsReceiver r = new SlsReceiver(0)) {
      HttpClient http = HttpClient.newHttpClient();
      byte[] raw = logGroup(50, 4);
      byte[] lz4 = LZ4Factory.fastestInstance().fastCompressor().compress(raw);
      URI uri = URI.create(r.endpoint() + "/logstores/reference/shards/lb");
      HttpResponse<String> ok =
          http.send(
              HttpRequest.newBuilder(uri)
                  .header("x-log-compresstype", "lz4")
                  .header("x-log-bodyrawsize", Integer.toString(raw.length))
                  .header("Content-Type", "application/x-protobuf")
                  .POST(HttpRequest.BodyPublishers.ofByteArray(lz4))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertEquals(200, ok.statusCode());
      assertTrue(ok.headers().firstValue("x-log-requestid").isPresent());
      assertEquals(50, r.records());
      assertEquals(200, r.contents());
      assertEquals(lz4.length, r.wireBytes());
      assertEquals(raw.length, r.bodyBytes());

      // x-log-bodyrawsize that does not match what the body decompresses to
      HttpResponse<String> bad =
          http.send(
              HttpRequest.newBuilder(uri)
                  .header("x-log-compresstype", "lz4")
                  .header("x-log-bodyrawsize", Integer.toString(raw.length + 1))
                  .POST(HttpRequest.BodyPublishers.ofByteArray(lz4))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertEquals(400, bad.statusCode());
      assertTrue(bad.body().contains("\"errorCode\":\"PostBodyInvalid\""), bad.body());
      // uncompressed, with the hash-key route
      HttpResponse<String> none =
          http.send(
              HttpRequest.newBuilder(
                      URI.create(r.endpoint() + "/logstores/reference/shards/route?key=00"))
                  .header("x-log-bodyrawsize", Integer.toString(raw.length))
                  .POST(HttpRequest.BodyPublishers.ofByteArray(raw))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertEquals(200, none.statusCode());
      HttpResponse<String> elsewhere =
          http.send(
              HttpRequest.newBuilder(URI.create(r.endpoint() + "/v1/logs"))
                  .POST(HttpRequest.BodyPublishers.ofByteArray(raw))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertEquals(404, elsewhere.statusCode());
      assertEquals(100, r.records());
      assertEquals(2, r.requests());
      assertEquals(2, r.badRequests());
    }
  }
}
