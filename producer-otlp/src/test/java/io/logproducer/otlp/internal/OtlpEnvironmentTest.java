package io.logproducer.otlp.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.logproducer.Compression;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OtlpEnvironmentTest {

  private static OtlpEnvironment env(String... kv) {
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put(kv[i], kv[i + 1]);
    }
    return new OtlpEnvironment(m);
  }

  @Test
  void unsetAndEmptyVariablesAreAbsent() {
    OtlpEnvironment e = env(OtlpEnvironment.ENDPOINT, "", OtlpEnvironment.COMPRESSION, "  ");
    assertNull(e.endpoint());
    assertNull(e.compression());
    assertNull(e.timeoutMillis());
    assertNull(e.json());
    assertNull(e.serviceName());
    assertEquals(Map.of(), e.headers());
    assertEquals(Map.of(), e.resourceAttributes());
  }

  @Test
  void endpoints() {
    assertEquals(
        "http://collector:4318/v1/logs",
        env(OtlpEnvironment.ENDPOINT, "http://collector:4318").endpoint());
    assertEquals(
        "http://collector:4318/v1/logs",
        env(OtlpEnvironment.ENDPOINT, "http://collector:4318/").endpoint());
    assertEquals(
        "https://gw.example.com/otlp/v1/logs",
        env(OtlpEnvironment.ENDPOINT, "https://gw.example.com/otlp/").endpoint());
    assertEquals(
        "http://h:1/custom/path",
        env(OtlpEnvironment.LOGS_ENDPOINT, "http://h:1/custom/path").endpoint());
    assertEquals(
        "http://h:1", env(OtlpEnvironment.LOGS_ENDPOINT, "http://h:1").endpoint(), "used as given");
    assertEquals(
        "http://logs:2/x",
        env(
                OtlpEnvironment.ENDPOINT,
                "http://base:1",
                OtlpEnvironment.LOGS_ENDPOINT,
                "http://logs:2/x")
            .endpoint());
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> env(OtlpEnvironment.ENDPOINT, "collector:4318").endpoint());
    assertEquals(
        "OTEL_EXPORTER_OTLP_ENDPOINT must be an http or https URL with a host, was 'collector:4318'",
        e.getMessage());
  }

  @Test
  void headersArePercentDecodedAndLogsVariantWins() {
    OtlpEnvironment e =
        env(
            OtlpEnvironment.HEADERS,
            " X-BK-TOKEN = abc%3D%3D , Authorization=Basic%20dXNlcjpw+ZA==,,x-name=%E4%B8%AD%zz%");
    Map<String, String> h = e.headers();
    assertEquals(3, h.size());
    assertEquals("abc==", h.get("X-BK-TOKEN"));
    assertEquals("Basic dXNlcjpw+ZA==", h.get("Authorization"), "'+' is not a space");
    assertEquals("中%zz%", h.get("x-name"));
    OtlpEnvironment both =
        env(OtlpEnvironment.HEADERS, "a=1,b=2", OtlpEnvironment.LOGS_HEADERS, "c=3");
    assertEquals(Map.of("c", "3"), both.headers());
    IllegalArgumentException bad =
        assertThrows(
            IllegalArgumentException.class,
            () -> env(OtlpEnvironment.LOGS_HEADERS, "a=1,novalue").headers());
    assertEquals(
        "OTEL_EXPORTER_OTLP_LOGS_HEADERS: entry #2 (not shown: it may hold a secret) is not key=value",
        bad.getMessage());
    assertThrows(
        IllegalArgumentException.class, () -> env(OtlpEnvironment.HEADERS, "=v").headers());
  }

  @Test
  void compressionTimeoutProtocol() {
    assertEquals(Compression.GZIP, env(OtlpEnvironment.COMPRESSION, "gzip").compression());
    assertEquals(Compression.NONE, env(OtlpEnvironment.COMPRESSION, "none").compression());
    assertEquals(Compression.ZSTD, env(OtlpEnvironment.COMPRESSION, "ZSTD").compression());
    assertEquals(
        Compression.LZ4,
        env(OtlpEnvironment.COMPRESSION, "gzip", OtlpEnvironment.LOGS_COMPRESSION, "lz4")
            .compression());
    IllegalArgumentException c =
        assertThrows(
            IllegalArgumentException.class,
            () -> env(OtlpEnvironment.COMPRESSION, "brotli").compression());
    assertEquals(
        "OTEL_EXPORTER_OTLP_COMPRESSION must be one of none, gzip, lz4, zstd, was 'brotli'",
        c.getMessage());

    assertEquals(2500L, env(OtlpEnvironment.TIMEOUT, "2500").timeoutMillis());
    assertEquals(
        700L,
        env(OtlpEnvironment.TIMEOUT, "2500", OtlpEnvironment.LOGS_TIMEOUT, " 700 ")
            .timeoutMillis());
    IllegalArgumentException t =
        assertThrows(
            IllegalArgumentException.class,
            () -> env(OtlpEnvironment.LOGS_TIMEOUT, "10s").timeoutMillis());
    assertEquals(
        "OTEL_EXPORTER_OTLP_LOGS_TIMEOUT must be a timeout in milliseconds, was '10s'",
        t.getMessage());

    assertEquals(Boolean.TRUE, env(OtlpEnvironment.PROTOCOL, "http/json").json());
    assertEquals(
        Boolean.FALSE,
        env(OtlpEnvironment.PROTOCOL, "http/json", OtlpEnvironment.LOGS_PROTOCOL, "http/protobuf")
            .json());
    IllegalArgumentException p =
        assertThrows(
            IllegalArgumentException.class, () -> env(OtlpEnvironment.PROTOCOL, "grpc").json());
    assertEquals(
        "OTEL_EXPORTER_OTLP_PROTOCOL must be http/protobuf or http/json, was 'grpc'",
        p.getMessage());
  }

  @Test
  void resourceAttributes() {
    OtlpEnvironment e =
        env(
            OtlpEnvironment.RESOURCE_ATTRIBUTES,
            "service.name=from-attrs,deployment.environment=prod%20eu,k%3Dx=v%2Cw",
            OtlpEnvironment.SERVICE_NAME,
            "svc");
    Map<String, String> a = e.resourceAttributes();
    assertEquals(3, a.size());
    assertEquals("from-attrs", a.get("service.name"));
    assertEquals("prod eu", a.get("deployment.environment"));
    assertEquals("v,w", a.get("k=x"));
    assertEquals("svc", e.serviceName());
  }

  @Test
  void percentDecoding() {
    assertEquals("a b", OtlpEnvironment.percentDecode("a%20b"));
    assertEquals("a+b", OtlpEnvironment.percentDecode("a+b"));
    assertEquals("日本😀", OtlpEnvironment.percentDecode("%E6%97%A5本😀"));
    assertEquals("100%", OtlpEnvironment.percentDecode("100%"));
    assertEquals("%4", OtlpEnvironment.percentDecode("%4"));
    assertEquals("%G1", OtlpEnvironment.percentDecode("%G1"));
  }
}
