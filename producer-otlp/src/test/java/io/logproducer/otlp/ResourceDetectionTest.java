package io.logproducer.otlp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.AnyValue;
import io.logproducer.LogRecord;
import io.logproducer.Producer;
import io.logproducer.ProducerConfig;
import io.logproducer.otlp.encoding.internal.resource.ResourceDetector;
import io.logproducer.spi.Exporter;
import io.logproducer.testing.otlp.OtlpGrpcReceiver;
import io.logproducer.testing.otlp.OtlpReceiver;
import io.logproducer.testing.otlp.ReceivedLogRecord;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Resource detection is on by default over OTLP/HTTP and OTLP/gRPC: what a real receiver gets from
 * a plain run on this machine, and that configured attributes (setters, OTEL_RESOURCE_ATTRIBUTES,
 * OTEL_SERVICE_NAME) win key by key.
 */
@Timeout(60)
class ResourceDetectionTest {

  @Test
  void httpRecordsCarryTheDetectedResourceUnderTheConfiguredOne() throws Exception {
    try (OtlpReceiver r = OtlpReceiver.start()) {
      Exporter e =
          OtlpHttpExporter.builder(
                  Map.of(
                      "OTEL_RESOURCE_ATTRIBUTES", "os.type=from-env,deployment.environment=test",
                      "OTEL_SERVICE_NAME", "detect-svc"))
              .setEndpoint(r.endpoint())
              .setResourceAttribute("host.name", "explicit-host")
              .build();
      send(e);
      assertTrue(r.awaitAcceptedRecords(3, 30_000));
      checkResource(r.deliveredRecords());
    }
  }

  @Test
  void grpcRecordsCarryTheDetectedResourceUnderTheConfiguredOne() throws Exception {
    try (OtlpGrpcReceiver r = OtlpGrpcReceiver.start()) {
      Exporter e =
          OtlpGrpcExporter.builder(
                  Map.of(
                      "OTEL_RESOURCE_ATTRIBUTES", "os.type=from-env,deployment.environment=test",
                      "OTEL_SERVICE_NAME", "detect-svc"))
              .setEndpoint(r.endpoint())
              .setResourceAttribute("host.name", "explicit-host")
              .build();
      send(e);
      assertTrue(r.awaitAcceptedRecords(3, 30_000));
      checkResource(r.deliveredRecords());
    }
  }

  @Test
  void detectionOffSendsOnlyTheConfiguredResource() throws Exception {
    try (OtlpGrpcReceiver r = OtlpGrpcReceiver.start()) {
      send(
          OtlpGrpcExporter.builder(Map.of())
              .setEndpoint(r.endpoint())
              .setServiceName("plain")
              .setResourceDetection(false)
              .build());
      assertTrue(r.awaitAcceptedRecords(3, 30_000));
      for (ReceivedLogRecord rec : r.deliveredRecords()) {
        assertEquals(Map.of("service.name", "plain"), rec.resourceAttributes());
      }
    }
  }

  private static void send(Exporter exporter) {
    try (Producer p =
        new Producer(ProducerConfig.builder().setJmxEnabled(false).build(), exporter)) {
      for (int i = 0; i < 3; i++) {
        p.send(LogRecord.builder().setBody("r" + i).build());
      }
      p.flush();
    }
  }

  private static void checkResource(List<ReceivedLogRecord> records) throws Exception {
    assertEquals(3, records.size());
    Map<String, AnyValue> detected = ResourceDetector.detect();
    for (ReceivedLogRecord rec : records) {
      Map<String, Object> res = rec.resourceAttributes();
      List<String> keys = new ArrayList<>(res.keySet());
      // configured first, in their order; then the detected ones not configured
      assertEquals(
          List.of("service.name", "os.type", "deployment.environment", "host.name"),
          keys.subList(0, 4));
      assertEquals("detect-svc", res.get("service.name"));
      assertEquals("from-env", res.get("os.type"), "OTEL_RESOURCE_ATTRIBUTES wins");
      assertEquals("explicit-host", res.get("host.name"), "a setter wins");
      assertEquals("java", res.get("telemetry.sdk.language"));
      assertEquals("logproducer", res.get("telemetry.sdk.name"));
      assertEquals(ProcessHandle.current().pid(), ((Number) res.get("process.pid")).longValue());
      assertEquals(detected.get("service.instance.id").asString(), res.get("service.instance.id"));
      assertEquals(36, ((String) res.get("service.instance.id")).length());
      assertEquals(System.getProperty("java.runtime.version"), res.get("process.runtime.version"));
      assertFalse(keys.contains("process.command_line"), "never the command line");
      assertFalse(keys.contains("process.command_args"), "never the command line");
      // every detected key is present, once
      for (String k : detected.keySet()) {
        assertTrue(res.containsKey(k), k + " missing from " + res);
      }
      assertEquals(res.size(), keys.size());
      assertFalse(
          String.valueOf(res.get("host.name")).equals(InetAddress.getLoopbackAddress().toString()));
    }
  }
}
