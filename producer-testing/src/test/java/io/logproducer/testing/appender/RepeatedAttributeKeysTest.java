package io.logproducer.testing.appender;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.logproducer.testing.otlp.OtlpReceiver;
import io.logproducer.testing.otlp.ReceivedRequest;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import io.opentelemetry.proto.resource.v1.Resource;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Repeated keys a decoded record cannot show, found in the raw body; JSON refused. */
@Timeout(30)
class RepeatedAttributeKeysTest {

  private static KeyValue kv(String key, String value) {
    return KeyValue.newBuilder()
        .setKey(key)
        .setValue(AnyValue.newBuilder().setStringValue(value))
        .build();
  }

  private static ReceivedRequest receive(String contentType, byte[] body) throws Exception {
    try (OtlpReceiver receiver = OtlpReceiver.start()) {
      HttpResponse<Void> response =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(URI.create(receiver.logsUrl()))
                      .timeout(Duration.ofSeconds(10))
                      .header("Content-Type", contentType)
                      .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                      .build(),
                  HttpResponse.BodyHandlers.discarding());
      assertEquals(200, response.statusCode());
      return receiver.requests().get(0);
    }
  }

  @Test
  void findsEachRepeatedKeyPerListAndRecord() throws Exception {
    LogRecord distinct =
        LogRecord.newBuilder().addAttributes(kv("a", "1")).addAttributes(kv("b", "2")).build();
    LogRecord repeated =
        LogRecord.newBuilder()
            .addAttributes(kv("a", "1"))
            .addAttributes(kv("b", "2"))
            .addAttributes(kv("a", "3"))
            .build();
    ExportLogsServiceRequest request =
        ExportLogsServiceRequest.newBuilder()
            .addResourceLogs(
                ResourceLogs.newBuilder()
                    .setResource(
                        Resource.newBuilder()
                            .addAttributes(kv("service.name", "s"))
                            .addAttributes(kv("service.name", "t")))
                    .addScopeLogs(
                        ScopeLogs.newBuilder()
                            .setScope(
                                InstrumentationScope.newBuilder()
                                    .setName("x")
                                    .addAttributes(kv("k", "1"))
                                    .addAttributes(kv("k", "2")))
                            .addLogRecords(distinct)
                            .addLogRecords(repeated))
                    .addScopeLogs(ScopeLogs.newBuilder().addLogRecords(repeated)))
            .build();
    ReceivedRequest received = receive("application/x-protobuf", request.toByteArray());
    assertEquals(
        List.of("resource: service.name", "scope: k", "record 1: a", "record 2: a"),
        RepeatedAttributeKeys.in(received));
    assertEquals(
        Map.of("a", "3", "b", "2"),
        received.records().get(1).attributes(),
        "the decoded record keeps the last value only");

    ExportLogsServiceRequest clean =
        ExportLogsServiceRequest.newBuilder()
            .addResourceLogs(
                ResourceLogs.newBuilder()
                    .addScopeLogs(ScopeLogs.newBuilder().addLogRecords(distinct)))
            .build();
    assertEquals(
        List.of(),
        RepeatedAttributeKeys.in(receive("application/x-protobuf", clean.toByteArray())));
  }

  @Test
  void findsRepeatedKeysInJsonToo() throws Exception {
    String json =
        "{\"resourceLogs\":[{\"resource\":{\"attributes\":["
            + "{\"key\":\"service.name\",\"value\":{\"stringValue\":\"s\"}},"
            + "{\"key\":\"service.name\",\"value\":{\"stringValue\":\"t\"}}]},"
            + "\"scopeLogs\":[{\"logRecords\":["
            + "{\"attributes\":[{\"key\":\"a\",\"value\":{\"stringValue\":\"1\"}}]},"
            + "{\"attributes\":[{\"key\":\"a\",\"value\":{\"stringValue\":\"1\"}},"
            + "{\"key\":\"a\",\"value\":{\"stringValue\":\"2\"}},"
            + "{\"key\":\"a\",\"value\":{\"stringValue\":\"3\"}}]}]}]}]}";
    ReceivedRequest received = receive("application/json", json.getBytes("UTF-8"));
    assertEquals(
        List.of("resource: service.name", "record 1: a", "record 1: a"),
        RepeatedAttributeKeys.in(received));
    assertEquals(Map.of("a", "3"), received.records().get(1).attributes());
    assertEquals(List.of("a", "a"), received.records().get(1).repeatedAttributeKeys());
  }
}
