package io.logproducer.otlp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.AnyValue;
import io.logproducer.Compression;
import io.logproducer.LogRecord;
import io.logproducer.otlp.encoding.internal.JsonScopeLogsEncoder;
import io.logproducer.otlp.encoding.internal.ProtobufScopeLogsEncoder;
import io.logproducer.otlp.encoding.testing.ExpectedProto;
import io.logproducer.testing.NullArguments;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.resource.v1.Resource;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/** Defaults, validation messages, environment variables and their precedence. */
class OtlpHttpExporterBuilderTest {

  private static OtlpHttpExporterBuilder builder(String... kv) {
    Map<String, String> env = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      env.put(kv[i], kv[i + 1]);
    }
    // detection off: these tests are about the configured resource (ResourceDetectionTest)
    return OtlpHttpExporter.builder(env).setResourceDetection(false);
  }

  @Test
  void defaults() {
    assertEquals("http://localhost:4318/v1/logs", OtlpHttpExporter.DEFAULT_ENDPOINT);
    assertEquals(10_000L, OtlpHttpExporter.DEFAULT_TIMEOUT_MILLIS);
    assertEquals(16 * 1024 * 1024, OtlpHttpExporter.DEFAULT_MAX_REQUEST_SIZE_IN_BYTES);
    assertEquals(8, OtlpHttpExporter.DEFAULT_MAX_STRIPES);
    assertEquals("io.logproducer", OtlpHttpExporter.DEFAULT_SCOPE_NAME);
    assertEquals("unknown_service:java", OtlpHttpExporter.DEFAULT_SERVICE_NAME);
    assertEquals(OtlpEncoding.PROTOBUF, OtlpHttpExporter.DEFAULT_ENCODING);
    assertEquals(Compression.NONE, OtlpHttpExporter.DEFAULT_COMPRESSION);

    try (OtlpHttpExporter e = builder().build()) {
      assertEquals(OtlpHttpExporter.DEFAULT_ENDPOINT, e.describe());
      assertEquals("otlp", e.name());
      assertEquals(OtlpHttpExporter.DEFAULT_ENCODING, e.encoding());
      assertEquals(OtlpHttpExporter.DEFAULT_COMPRESSION, e.capabilities().defaultCompression());
      assertEquals(OtlpHttpExporter.DEFAULT_TIMEOUT_MILLIS, e.timeoutMillis());
      assertEquals(OtlpHttpExporter.DEFAULT_MAX_REQUEST_SIZE_IN_BYTES, e.maxRequestSizeInBytes());
      assertEquals(Math.min(8, Runtime.getRuntime().availableProcessors()), e.stripeCount());
      assertEquals(Map.of(), e.headers());
      assertEquals(
          Map.of("service.name", AnyValue.of("unknown_service:java")), e.resourceAttributes());
      assertEquals("io.logproducer", e.scopeName());
      assertNull(e.scopeVersion());
      for (Compression c : Compression.values()) {
        assertTrue(e.capabilities().supports(c));
      }
      // maxBatchSizeInBytes = 16 MiB - (two tags + two 5-byte varints + resource field + scope
      // field)
      Resource resource =
          Resource.newBuilder()
              .addAttributes(
                  ExpectedProto.keyValue("service.name", AnyValue.of("unknown_service:java")))
              .build();
      InstrumentationScope scope =
          InstrumentationScope.newBuilder().setName("io.logproducer").build();
      int framing = 12 + 2 + resource.getSerializedSize() + 2 + scope.getSerializedSize();
      assertEquals(16 * 1024 * 1024 - framing, e.capabilities().maxBatchSizeInBytes());
    }
  }

  @Test
  void validationMessagesNameTheFieldAndBound() {
    OtlpHttpExporterBuilder b = builder();
    assertEquals(
        "timeoutMillis must be in [1, 3600000], was 0",
        assertThrows(IllegalArgumentException.class, () -> b.setTimeoutMillis(0)).getMessage());
    assertEquals(
        "timeoutMillis must be in [1, 3600000], was 3600001",
        assertThrows(IllegalArgumentException.class, () -> b.setTimeoutMillis(3_600_001))
            .getMessage());
    assertEquals(
        "maxRequestSizeInBytes must be in [1024, 268435456], was 1023",
        assertThrows(IllegalArgumentException.class, () -> b.setMaxRequestSizeInBytes(1023))
            .getMessage());
    assertEquals(
        "stripes must be in [1, 1024], was 0",
        assertThrows(IllegalArgumentException.class, () -> b.setStripes(0)).getMessage());
    assertEquals(
        "stripes must be in [1, 1024], was 1025",
        assertThrows(IllegalArgumentException.class, () -> b.setStripes(1025)).getMessage());
    assertEquals(
        "endpoint must be an http or https URL with a host, was 'ftp://x/'",
        assertThrows(IllegalArgumentException.class, () -> b.setEndpoint("ftp://x/")).getMessage());
    assertEquals(
        "endpoint must be an http or https URL, was 'null'",
        assertThrows(IllegalArgumentException.class, () -> b.setEndpoint(null)).getMessage());
    assertEquals(
        "encoding must not be null",
        assertThrows(IllegalArgumentException.class, () -> b.setEncoding(null)).getMessage());
    assertEquals(
        "compression must not be null",
        assertThrows(IllegalArgumentException.class, () -> b.setCompression(null)).getMessage());
    assertEquals(
        "header name must be an HTTP token, was 'bad name'",
        assertThrows(IllegalArgumentException.class, () -> b.addHeader("bad name", "v"))
            .getMessage());
    assertEquals(
        "header Content-Type is set by the exporter and cannot be added",
        assertThrows(IllegalArgumentException.class, () -> b.addHeader("Content-Type", "x"))
            .getMessage());
    assertEquals(
        "header X-A value must not be null or hold CR, LF or NUL",
        assertThrows(IllegalArgumentException.class, () -> b.addHeader("X-A", "a\r\nb: c"))
            .getMessage());
    assertEquals(
        "serviceName must not be empty",
        assertThrows(IllegalArgumentException.class, () -> b.setServiceName("")).getMessage());
    assertEquals(
        "resource attribute key must not be empty",
        assertThrows(IllegalArgumentException.class, () -> b.setResourceAttribute("", "v"))
            .getMessage());
    assertEquals(
        "scope name must not be empty",
        assertThrows(IllegalArgumentException.class, () -> b.setScope(null, "1")).getMessage());
    b.setMaxRequestSizeInBytes(1024).setResourceAttribute("big", "x".repeat(2000));
    assertEquals(
        "maxRequestSizeInBytes (1024) leaves no room for records after the request framing "
            + "(resource and scope)",
        assertThrows(IllegalArgumentException.class, b::build).getMessage());
  }

  @Test
  void endpointRules() {
    assertEquals(
        "http://127.0.0.1:4318/v1/logs",
        builder().setEndpoint("http://127.0.0.1:4318").build().describe());
    assertEquals(
        "http://127.0.0.1:4318/v1/logs",
        builder().setEndpoint("http://127.0.0.1:4318/").build().describe());
    assertEquals("https://h/custom", builder().setEndpoint("https://h/custom").build().describe());
    assertEquals(
        "http://h:9/v1/logs?token=a%20b",
        builder().setEndpoint("http://h:9?token=a%20b").build().describe());
  }

  @Test
  void environmentIsReadAndSettersOverrideIt() {
    OtlpHttpExporterBuilder b =
        builder(
            "OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318",
            "OTEL_EXPORTER_OTLP_HEADERS", "X-BK-TOKEN=tok%3D,Authorization=Bearer%20abc",
            "OTEL_EXPORTER_OTLP_COMPRESSION", "gzip",
            "OTEL_EXPORTER_OTLP_TIMEOUT", "2500",
            "OTEL_EXPORTER_OTLP_PROTOCOL", "http/json",
            "OTEL_RESOURCE_ATTRIBUTES",
                "service.name=attr-svc,deployment.environment=prod,host.name=h%201",
            "OTEL_SERVICE_NAME", "env-svc");
    try (OtlpHttpExporter e = b.build()) {
      assertEquals("http://collector:4318/v1/logs", e.describe());
      assertEquals(Map.of("X-BK-TOKEN", "tok=", "Authorization", "Bearer abc"), e.headers());
      assertEquals(Compression.GZIP, e.capabilities().defaultCompression());
      assertEquals(2500, e.timeoutMillis());
      assertEquals(OtlpEncoding.JSON, e.encoding());
      assertEquals(
          List.of("service.name", "deployment.environment", "host.name"),
          List.copyOf(e.resourceAttributes().keySet()));
      assertEquals(
          AnyValue.of("env-svc"),
          e.resourceAttributes().get("service.name"),
          "OTEL_SERVICE_NAME wins");
      assertEquals(AnyValue.of("h 1"), e.resourceAttributes().get("host.name"));
    }
    b.setEndpoint("http://other:1")
        .setCompression(Compression.ZSTD)
        .setTimeoutMillis(99)
        .setEncoding(OtlpEncoding.PROTOBUF)
        .setServiceName("explicit")
        .addHeader("x-bk-token", "new")
        .setResourceAttribute("n", 5L)
        .setResourceAttribute("t", true)
        .setResourceAttribute("d", 0.5)
        .setScope("my.scope", "2.0");
    try (OtlpHttpExporter e = b.build()) {
      assertEquals("http://other:1/v1/logs", e.describe());
      assertEquals(Compression.ZSTD, e.capabilities().defaultCompression());
      assertEquals(99, e.timeoutMillis());
      assertEquals(OtlpEncoding.PROTOBUF, e.encoding());
      assertEquals(AnyValue.of("explicit"), e.resourceAttributes().get("service.name"));
      assertEquals(
          Map.of("Authorization", "Bearer abc", "x-bk-token", "new"),
          e.headers(),
          "a header name replaces its case-insensitive twin");
      assertEquals(AnyValue.of(5L), e.resourceAttributes().get("n"));
      assertEquals(AnyValue.of(true), e.resourceAttributes().get("t"));
      assertEquals(AnyValue.of(0.5), e.resourceAttributes().get("d"));
      assertEquals("my.scope", e.scopeName());
      assertEquals("2.0", e.scopeVersion());
    }
  }

  @Test
  void logsSpecificVariablesWin() {
    try (OtlpHttpExporter e =
        builder(
                "OTEL_EXPORTER_OTLP_ENDPOINT", "http://generic:4318",
                "OTEL_EXPORTER_OTLP_LOGS_ENDPOINT", "http://logs:4318/custom",
                "OTEL_EXPORTER_OTLP_HEADERS", "a=1",
                "OTEL_EXPORTER_OTLP_LOGS_HEADERS", "b=2",
                "OTEL_EXPORTER_OTLP_COMPRESSION", "gzip",
                "OTEL_EXPORTER_OTLP_LOGS_COMPRESSION", "none",
                "OTEL_EXPORTER_OTLP_TIMEOUT", "1000",
                "OTEL_EXPORTER_OTLP_LOGS_TIMEOUT", "2000",
                "OTEL_EXPORTER_OTLP_PROTOCOL", "http/json",
                "OTEL_EXPORTER_OTLP_LOGS_PROTOCOL", "http/protobuf")
            .build()) {
      assertEquals("http://logs:4318/custom", e.describe());
      assertEquals(Map.of("b", "2"), e.headers());
      assertEquals(Compression.NONE, e.capabilities().defaultCompression());
      assertEquals(2000, e.timeoutMillis());
      assertEquals(OtlpEncoding.PROTOBUF, e.encoding());
    }
  }

  @Test
  void malformedEnvironmentFailsNamingTheVariable() {
    assertEquals(
        "OTEL_EXPORTER_OTLP_TIMEOUT: timeoutMillis must be in [1, 3600000], was 0",
        assertThrows(
                IllegalArgumentException.class, () -> builder("OTEL_EXPORTER_OTLP_TIMEOUT", "0"))
            .getMessage());
    assertEquals(
        "OTEL_EXPORTER_OTLP_HEADERS: header Content-Type is set by the exporter and cannot be added",
        assertThrows(
                IllegalArgumentException.class,
                () -> builder("OTEL_EXPORTER_OTLP_HEADERS", "Content-Type=text/plain"))
            .getMessage());
    // The code chose HTTP: a protocol variable naming gRPC is ignored, with a WARN at build.
    assertEquals(
        "OTEL_EXPORTER_OTLP_LOGS_PROTOCOL is grpc, but this is the OTLP/HTTP exporter, chosen by"
            + " the code: the variable is ignored (OtlpExporters.fromEnvironment() picks the"
            + " exporter the variable names)",
        builder("OTEL_EXPORTER_OTLP_LOGS_PROTOCOL", "grpc").protocolMismatch());
    assertNull(builder("OTEL_EXPORTER_OTLP_PROTOCOL", "http/json").protocolMismatch());
    assertEquals(
        "OTEL_EXPORTER_OTLP_PROTOCOL must be grpc, http/protobuf or http/json, was 'http/xml'",
        assertThrows(
                IllegalArgumentException.class,
                () -> builder("OTEL_EXPORTER_OTLP_PROTOCOL", "http/xml"))
            .getMessage());
  }

  @Test
  void shardKeysArePrecomputedPerThreadStripes() throws Exception {
    try (OtlpHttpExporter e = builder().setStripes(4).build()) {
      LogRecord r = LogRecord.builder().setBody("x").build();
      Object first = e.shardKey(r);
      assertSame(first, e.shardKey(r), "same thread, same Integer instance");
      Set<Object> keys = ConcurrentHashMap.newKeySet();
      Thread[] threads = new Thread[16];
      for (int i = 0; i < threads.length; i++) {
        threads[i] = new Thread(() -> keys.add(e.shardKey(r)));
        threads[i].start();
      }
      for (Thread t : threads) {
        t.join(10_000);
      }
      Set<Object> all = new HashSet<>(keys);
      all.add(first);
      for (Object k : all) {
        assertNotNull(k);
        assertTrue((Integer) k >= 0 && (Integer) k < 4, "key " + k);
      }
      assertEquals(4, all.size(), "16 consecutive thread ids cover all 4 stripes: " + all);
    }
  }

  @Test
  void instrumentationScopeFromRecordsIsOffByDefaultAndFramesNoSharedScope() {
    try (OtlpHttpExporter shared = builder().build();
        OtlpHttpExporter scoped = builder().setInstrumentationScopeFromRecords(true).build();
        OtlpHttpExporter scopedJson =
            builder()
                .setInstrumentationScopeFromRecords(true)
                .setEncoding(OtlpEncoding.JSON)
                .build()) {
      assertFalse(shared.instrumentationScopeFromRecords());
      assertTrue(scoped.instrumentationScopeFromRecords());
      assertTrue(
          scoped.toString().contains("instrumentationScopeFromRecords=true"), scoped.toString());
      assertFalse(shared.toString().contains("instrumentationScopeFromRecords"), shared.toString());
      // each record carries its ScopeLogs: the framing is one tag, a 5-byte varint and the resource
      // field
      Resource resource =
          Resource.newBuilder()
              .addAttributes(
                  ExpectedProto.keyValue("service.name", AnyValue.of("unknown_service:java")))
              .build();
      assertEquals(
          16 * 1024 * 1024 - (6 + 2 + resource.getSerializedSize()),
          scoped.capabilities().maxBatchSizeInBytes());
      assertTrue(
          scoped.capabilities().maxBatchSizeInBytes()
              > shared.capabilities().maxBatchSizeInBytes());
      assertTrue(
          scopedJson.capabilities().maxBatchSizeInBytes() > 16 * 1024 * 1024 * 56L / 57 - 200);
      assertTrue(scoped.encoder() instanceof ProtobufScopeLogsEncoder);
      assertTrue(scopedJson.encoder() instanceof JsonScopeLogsEncoder);
    }
  }

  @Test
  void nullArgumentsGetANamedIllegalArgumentExceptionNeverANullPointerException() throws Exception {
    java.util.List<String> checked =
        NullArguments.callEachWithNulls(OtlpHttpExporterBuilder.class, OtlpHttpExporter::builder);
    assertTrue(checked.size() >= 5, String.join("\n", checked));
  }
}
