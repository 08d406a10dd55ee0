package io.logproducer.otlp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.AnyValue;
import io.logproducer.Compression;
import io.logproducer.LogRecord;
import io.logproducer.Producer;
import io.logproducer.ProducerConfig;
import io.logproducer.SendResult.Status;
import io.logproducer.otlp.encoding.testing.ExpectedProto;
import io.logproducer.otlp.encoding.testing.TestRecords;
import io.logproducer.otlp.testing.ProtoRequests;
import io.logproducer.testing.Outcomes;
import io.logproducer.testing.otlp.OtlpReceiver;
import io.logproducer.testing.otlp.ReceivedRequest;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every compression × encoding × scope mode through the real producer and a loopback receiver:
 * headers and exact contents (records carry logger names, which only the scope-from-records mode
 * uses).
 */
class CompressionEncodingRoundTripTest {

  static Stream<Arguments> combinations() {
    List<Arguments> out = new ArrayList<>();
    for (Compression c : Compression.values()) {
      for (OtlpEncoding e : OtlpEncoding.values()) {
        out.add(Arguments.of(c, e, false));
        out.add(Arguments.of(c, e, true));
      }
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0} x {1}, scope from records: {2}")
  @MethodSource("combinations")
  void roundTrip(Compression compression, OtlpEncoding encoding, boolean scopeFromRecords)
      throws Exception {
    String[] loggers = {"com.example.Checkout", null, "长.日志", "com.example.Checkout", null};
    List<LogRecord> records = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      String logger = loggers[i % loggers.length];
      records.add(
          i % 4 == 0
              ? TestRecords.full("full-" + i + "-" + "长".repeat(i * 10), logger)
              : TestRecords.simple("simple-" + i, logger));
    }
    Map<String, AnyValue> resource = new LinkedHashMap<>();
    resource.put("service.name", AnyValue.of("round-trip"));
    resource.put("bk.data.token", AnyValue.of("tok"));
    Outcomes outcomes = new Outcomes();
    try (OtlpReceiver server = OtlpReceiver.start()) {
      OtlpHttpExporter exporter =
          OtlpHttpExporter.builder(Map.of())
              .setResourceDetection(false) // the expected resource is the configured one
              .setEndpoint(server.endpoint())
              .setEncoding(encoding)
              .setCompression(compression)
              .setServiceName("round-trip")
              .setResourceAttribute("bk.data.token", "tok")
              .setScope("rt.scope", "3.1")
              .setInstrumentationScopeFromRecords(scopeFromRecords)
              .build();
      try (Producer producer =
          new Producer(
              ProducerConfig.builder()
                  .setJmxEnabled(false)
                  .setLingerMillis(60_000)
                  .setBatchCountThreshold(records.size())
                  .build(),
              exporter)) {
        for (int i = 0; i < records.size(); i++) {
          producer.send(records.get(i), outcomes.callback(i));
        }
        producer.flush();
        assertEquals(Map.of(Status.DELIVERED, records.size()), outcomes.statusCounts());
      }
      assertEquals(List.of(), server.invalidRequests());
      List<ReceivedRequest> requests = server.requests();
      assertEquals(1, requests.size());
      ReceivedRequest r = requests.get(0);
      assertEquals(compression.contentEncoding(), r.contentEncoding());
      if (compression == Compression.NONE) {
        assertNull(r.header("content-encoding"));
      }
      assertEquals(
          encoding == OtlpEncoding.JSON ? "application/json" : "application/x-protobuf",
          r.contentType());
      ExportLogsServiceRequest expected =
          scopeFromRecords
              ? ExpectedProto.scopedRequest(resource, "rt.scope", "3.1", records)
              : ExpectedProto.request(resource, "rt.scope", "3.1", records);
      assertEquals(expected, ProtoRequests.parse(r));
      if (encoding == OtlpEncoding.PROTOBUF) {
        assertTrue(
            java.util.Arrays.equals(expected.toByteArray(), r.body()), "byte-identical body");
      }
    }
  }
}
