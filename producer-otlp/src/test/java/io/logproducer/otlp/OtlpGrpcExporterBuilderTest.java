package io.logproducer.otlp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.AnyValue;
import io.logproducer.Compression;
import io.logproducer.otlp.encoding.testing.ExpectedProto;
import io.logproducer.spi.Exporter;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.resource.v1.Resource;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The gRPC builder: defaults, what differs from HTTP (endpoint as given, protobuf only, no lz4,
 * reserved metadata, 4 MiB), the environment, and {@link OtlpExporters#fromEnvironment()}.
 */
class OtlpGrpcExporterBuilderTest {

  private static Map<String, String> env(String... kv) {
    Map<String, String> env = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      env.put(kv[i], kv[i + 1]);
    }
    return env;
  }

  /** Detection off: these tests are about the configured resource (ResourceDetectionTest). */
  private static OtlpGrpcExporterBuilder builder(String... kv) {
    return OtlpGrpcExporter.builder(env(kv)).setResourceDetection(false);
  }

  @Test
  void defaults() {
    assertEquals("http://localhost:4317", OtlpGrpcExporter.DEFAULT_ENDPOINT);
    assertEquals(4_194_304, OtlpGrpcExporter.DEFAULT_MAX_REQUEST_SIZE_IN_BYTES);
    try (OtlpGrpcExporter e = builder().build()) {
      assertEquals("http://localhost:4317", e.describe());
      assertEquals("otlp-grpc", e.name());
      assertEquals(10_000L, e.timeoutMillis());
      assertEquals(4_194_304, e.maxRequestSizeInBytes());
      assertEquals(Map.of(), e.headers());
      assertEquals(
          Map.of("service.name", AnyValue.of("unknown_service:java")), e.resourceAttributes());
      assertEquals(Compression.NONE, e.capabilities().defaultCompression());
      assertEquals(
          EnumSet.of(Compression.NONE, Compression.GZIP, Compression.ZSTD),
          e.capabilities().supportedCompressions());
      assertEquals(10_000L, e.capabilities().requestTimeoutMillis());
      Resource resource =
          Resource.newBuilder()
              .addAttributes(
                  ExpectedProto.keyValue("service.name", AnyValue.of("unknown_service:java")))
              .build();
      InstrumentationScope scope =
          InstrumentationScope.newBuilder().setName("io.logproducer").build();
      int framing = 12 + 2 + resource.getSerializedSize() + 2 + scope.getSerializedSize();
      assertEquals(
          4_194_304 - 5 - framing,
          e.capabilities().maxBatchSizeInBytes(),
          "the 5-byte message prefix and the framing fit under 4 MiB");
      assertEquals(
          "OtlpGrpcExporter{endpoint=http://localhost:4317, compression=NONE,"
              + " timeoutMillis=10000, maxRequestSizeInBytes=4194304, stripes="
              + Math.min(8, Runtime.getRuntime().availableProcessors())
              + ", headers=[]}",
          e.toString());
    }
  }

  @Test
  void theEndpointIsUsedAsGivenFromSettersAndVariables() {
    try (OtlpGrpcExporter e = builder().setEndpoint("http://collector:4317").build()) {
      assertEquals("http://collector:4317", e.describe());
    }
    try (OtlpGrpcExporter e = builder().setEndpoint(" https://collector/otlp/ ").build()) {
      assertEquals("https://collector/otlp/", e.describe());
    }
    try (OtlpGrpcExporter e =
        builder("OTEL_EXPORTER_OTLP_ENDPOINT", "http://generic:4317").build()) {
      assertEquals("http://generic:4317", e.describe(), "no /v1/logs for gRPC");
    }
    try (OtlpGrpcExporter e =
        builder(
                "OTEL_EXPORTER_OTLP_ENDPOINT", "http://generic:4317",
                "OTEL_EXPORTER_OTLP_LOGS_ENDPOINT", "http://logs:4317")
            .build()) {
      assertEquals("http://logs:4317", e.describe());
    }
    try (OtlpGrpcExporter e =
        builder("OTEL_EXPORTER_OTLP_ENDPOINT", "https://u:pw@generic:4317").build()) {
      assertEquals("https://generic:4317", e.describe());
      assertEquals(Map.of("authorization", "Basic dTpwdw=="), e.headers());
    }
  }

  @Test
  void variablesApply() {
    try (OtlpGrpcExporter e =
        builder(
                "OTEL_EXPORTER_OTLP_PROTOCOL", "grpc",
                "OTEL_EXPORTER_OTLP_HEADERS", "api-key=k1,tenant=t%2C1",
                "OTEL_EXPORTER_OTLP_COMPRESSION", "zstd",
                "OTEL_EXPORTER_OTLP_LOGS_TIMEOUT", "2500",
                "OTEL_SERVICE_NAME", "svc")
            .build()) {
      assertEquals(Map.of("api-key", "k1", "tenant", "t,1"), e.headers());
      assertEquals(Compression.ZSTD, e.capabilities().defaultCompression());
      assertEquals(2500, e.timeoutMillis());
      assertEquals(AnyValue.of("svc"), e.resourceAttributes().get("service.name"));
      assertFalse(e.toString().contains("k1"), e.toString());
    }
  }

  @Test
  void whatGrpcCannotCarryFailsNamingTheSettingOrVariable() {
    assertEquals(
        "compression must be NONE, GZIP or ZSTD for OTLP/gRPC, was LZ4: lz4 is not a gRPC message"
            + " encoding (the OpenTelemetry Collector's gRPC receiver answers UNIMPLEMENTED); use"
            + " OtlpHttpExporter for lz4",
        assertThrows(
                IllegalArgumentException.class, () -> builder().setCompression(Compression.LZ4))
            .getMessage());
    assertTrue(
        assertThrows(
                IllegalArgumentException.class,
                () -> builder("OTEL_EXPORTER_OTLP_LOGS_COMPRESSION", "lz4"))
            .getMessage()
            .startsWith("OTEL_EXPORTER_OTLP_COMPRESSION: compression must be NONE, GZIP or ZSTD"));
    // The code chose gRPC: a protocol variable naming HTTP is ignored, with a WARN at build.
    assertEquals(
        "OTEL_EXPORTER_OTLP_LOGS_PROTOCOL is http/protobuf, but this is the OTLP/gRPC exporter,"
            + " chosen by the code: the variable is ignored (OtlpExporters.fromEnvironment() picks"
            + " the exporter the variable names)",
        builder(
                "OTEL_EXPORTER_OTLP_PROTOCOL", "grpc",
                "OTEL_EXPORTER_OTLP_LOGS_PROTOCOL", "http/protobuf")
            .settings()
            .protocolMismatch());
    assertNull(builder("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc").settings().protocolMismatch());
    for (String reserved : new String[] {"te", "grpc-timeout", "Grpc-Encoding", "user-agent"}) {
      assertEquals(
          "header " + reserved + " is set by the exporter and cannot be added",
          assertThrows(IllegalArgumentException.class, () -> builder().addHeader(reserved, "x"))
              .getMessage());
    }
    assertEquals(
        "maxRequestSizeInBytes must be in [1024, 268435456], was 1023",
        assertThrows(IllegalArgumentException.class, () -> builder().setMaxRequestSizeInBytes(1023))
            .getMessage());
    assertEquals(
        "timeoutMillis must be in [1, 3600000], was 0",
        assertThrows(IllegalArgumentException.class, () -> builder().setTimeoutMillis(0))
            .getMessage());
  }

  @Test
  void theFactoryPicksTheExporterTheProtocolNames() {
    try (Exporter e = OtlpExporters.fromEnvironment(env())) {
      assertInstanceOf(OtlpHttpExporter.class, e, "default http/protobuf");
      assertEquals("http://localhost:4318/v1/logs", e.describe());
    }
    try (Exporter e =
        OtlpExporters.fromEnvironment(
            env(
                "OTEL_EXPORTER_OTLP_PROTOCOL", "grpc",
                "OTEL_EXPORTER_OTLP_ENDPOINT", "http://c:4317"))) {
      assertInstanceOf(OtlpGrpcExporter.class, e);
      assertEquals("http://c:4317", e.describe());
    }
    try (Exporter e =
        OtlpExporters.fromEnvironment(
            env(
                "OTEL_EXPORTER_OTLP_PROTOCOL", "grpc",
                "OTEL_EXPORTER_OTLP_LOGS_PROTOCOL", "http/json"))) {
      assertInstanceOf(OtlpHttpExporter.class, e);
      assertEquals(OtlpEncoding.JSON, ((OtlpHttpExporter) e).encoding());
    }
    assertEquals(
        "OTEL_EXPORTER_OTLP_PROTOCOL must be grpc, http/protobuf or http/json, was 'thrift'",
        assertThrows(
                IllegalArgumentException.class,
                () -> OtlpExporters.fromEnvironment(env("OTEL_EXPORTER_OTLP_PROTOCOL", "thrift")))
            .getMessage());
  }
}
