package io.logproducer.otlp.internal;

import io.logproducer.Compression;
import io.logproducer.otlp.internal.tls.PemSource;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.InvalidPathException;
import java.nio.file.Paths;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Reads the OpenTelemetry exporter environment variables ({@code opentelemetry-specification},
 * {@code specification/protocol/exporter.md} and {@code
 * specification/configuration/sdk-environment-variables.md}) that apply to a logs exporter. Each
 * getter returns null (or an empty map) when its variable is unset or empty; a {@code _LOGS_}
 * variable wins over the generic one as a whole. Lists ({@code k=v,k2=v2}) are split on commas,
 * trimmed, and percent-decoded as UTF-8 ({@code '+'} stays a plus). Immutable, thread-safe.
 */
public final class OtlpEnvironment {

  public static final String ENDPOINT = "OTEL_EXPORTER_OTLP_ENDPOINT";
  public static final String LOGS_ENDPOINT = "OTEL_EXPORTER_OTLP_LOGS_ENDPOINT";
  public static final String HEADERS = "OTEL_EXPORTER_OTLP_HEADERS";
  public static final String LOGS_HEADERS = "OTEL_EXPORTER_OTLP_LOGS_HEADERS";
  public static final String COMPRESSION = "OTEL_EXPORTER_OTLP_COMPRESSION";
  public static final String LOGS_COMPRESSION = "OTEL_EXPORTER_OTLP_LOGS_COMPRESSION";
  public static final String TIMEOUT = "OTEL_EXPORTER_OTLP_TIMEOUT";
  public static final String LOGS_TIMEOUT = "OTEL_EXPORTER_OTLP_LOGS_TIMEOUT";
  public static final String PROTOCOL = "OTEL_EXPORTER_OTLP_PROTOCOL";
  public static final String LOGS_PROTOCOL = "OTEL_EXPORTER_OTLP_LOGS_PROTOCOL";
  public static final String CERTIFICATE = "OTEL_EXPORTER_OTLP_CERTIFICATE";
  public static final String LOGS_CERTIFICATE = "OTEL_EXPORTER_OTLP_LOGS_CERTIFICATE";
  public static final String CLIENT_KEY = "OTEL_EXPORTER_OTLP_CLIENT_KEY";
  public static final String LOGS_CLIENT_KEY = "OTEL_EXPORTER_OTLP_LOGS_CLIENT_KEY";
  public static final String CLIENT_CERTIFICATE = "OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE";
  public static final String LOGS_CLIENT_CERTIFICATE = "OTEL_EXPORTER_OTLP_LOGS_CLIENT_CERTIFICATE";
  public static final String SERVICE_NAME = "OTEL_SERVICE_NAME";
  public static final String RESOURCE_ATTRIBUTES = "OTEL_RESOURCE_ATTRIBUTES";

  private final Map<String, String> env;

  /**
   * @param env the variables, e.g. {@link System#getenv()}
   */
  public OtlpEnvironment(Map<String, String> env) {
    this.env = env;
  }

  /**
   * The logs URL: {@value #LOGS_ENDPOINT} as given, else {@value #ENDPOINT} with {@code /v1/logs}
   * appended.
   *
   * @throws IllegalArgumentException if the variable is not an http(s) URL
   */
  public String endpoint() {
    String logs = get(LOGS_ENDPOINT);
    if (logs != null) {
      return Endpoints.forSignalEndpoint(LOGS_ENDPOINT, logs);
    }
    String base = get(ENDPOINT);
    return base == null ? null : Endpoints.forBaseEndpoint(ENDPOINT, base);
  }

  /** {@return the endpoint variable's value as given (it may hold user-info), or null} */
  public String rawEndpoint() {
    String logs = get(LOGS_ENDPOINT);
    return logs != null ? logs : get(ENDPOINT);
  }

  /** Request headers. @throws IllegalArgumentException if an entry is not {@code key=value} */
  public Map<String, String> headers() {
    String name = get(LOGS_HEADERS) != null ? LOGS_HEADERS : HEADERS;
    String value = get(name);
    return value == null
        ? Collections.<String, String>emptyMap()
        : parseKeyValues(name, value, false);
  }

  /** none, gzip, lz4 or zstd. @throws IllegalArgumentException for another value */
  public Compression compression() {
    String name = get(LOGS_COMPRESSION) != null ? LOGS_COMPRESSION : COMPRESSION;
    String value = get(name);
    if (value == null) {
      return null;
    }
    try {
      return Compression.fromName(value);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          name + " must be one of none, gzip, lz4, zstd, was '" + value + "'", e);
    }
  }

  /** The request timeout in ms. @throws IllegalArgumentException if not a non-negative integer */
  public Long timeoutMillis() {
    String name = get(LOGS_TIMEOUT) != null ? LOGS_TIMEOUT : TIMEOUT;
    String value = get(name);
    if (value == null) {
      return null;
    }
    try {
      long ms = Long.parseLong(value.trim());
      if (ms >= 0) {
        return ms;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(
        name + " must be a timeout in milliseconds, was '" + value + "'");
  }

  /**
   * Whether the protocol is {@code http/json} (true) or {@code http/protobuf} (false).
   *
   * @throws IllegalArgumentException for another protocol (e.g. grpc, which this exporter does not
   *     speak)
   */
  public Boolean json() {
    String name = get(LOGS_PROTOCOL) != null ? LOGS_PROTOCOL : PROTOCOL;
    String value = get(name);
    if (value == null) {
      return null;
    }
    switch (value.trim().toLowerCase(Locale.ROOT)) {
      case "http/protobuf":
        return Boolean.FALSE;
      case "http/json":
        return Boolean.TRUE;
      default:
        throw new IllegalArgumentException(
            name + " must be http/protobuf or http/json, was '" + value + "'");
    }
  }

  /**
   * The protocol variable ({@value #LOGS_PROTOCOL}, else {@value #PROTOCOL}), trimmed and in lower
   * case: {@code http/protobuf}, {@code http/json} or {@code grpc}; null when unset.
   *
   * @throws IllegalArgumentException naming the variable for another value
   */
  public String protocol() {
    String name = protocolVariable();
    String value = get(name);
    if (value == null) {
      return null;
    }
    String p = value.trim().toLowerCase(Locale.ROOT);
    switch (p) {
      case "http/protobuf":
      case "http/json":
      case "grpc":
        return p;
      default:
        throw new IllegalArgumentException(
            name + " must be grpc, http/protobuf or http/json, was '" + value + "'");
    }
  }

  /** {@return the name of the protocol variable that applies: the LOGS_ one when it is set} */
  public String protocolVariable() {
    return get(LOGS_PROTOCOL) != null ? LOGS_PROTOCOL : PROTOCOL;
  }

  /**
   * The endpoint for OTLP/gRPC: {@value #LOGS_ENDPOINT}, else {@value #ENDPOINT}, both used as
   * given (gRPC appends no signal path: the service path follows the endpoint's).
   *
   * @throws IllegalArgumentException if the variable is not an http(s) URL
   */
  public String grpcEndpoint() {
    String logs = get(LOGS_ENDPOINT);
    if (logs != null) {
      return Endpoints.forSignalEndpoint(LOGS_ENDPOINT, logs);
    }
    String base = get(ENDPOINT);
    return base == null ? null : Endpoints.forSignalEndpoint(ENDPOINT, base);
  }

  /**
   * The trusted CA certificates' PEM file ({@value #LOGS_CERTIFICATE} or {@value #CERTIFICATE}).
   */
  public PemSource certificate() {
    return file(LOGS_CERTIFICATE, CERTIFICATE);
  }

  /** The client's PKCS#8 private key PEM file, for mutual TLS. */
  public PemSource clientKey() {
    return file(LOGS_CLIENT_KEY, CLIENT_KEY);
  }

  /** The client's certificate chain PEM file, for mutual TLS. */
  public PemSource clientCertificate() {
    return file(LOGS_CLIENT_CERTIFICATE, CLIENT_CERTIFICATE);
  }

  private PemSource file(String logs, String generic) {
    String name = get(logs) != null ? logs : generic;
    String value = get(name);
    if (value == null) {
      return null;
    }
    try {
      return PemSource.ofFile(name, Paths.get(value.trim()));
    } catch (InvalidPathException e) {
      throw new IllegalArgumentException(name + " must be a file path, was '" + value + "'", e);
    }
  }

  /** {@value #SERVICE_NAME}. */
  public String serviceName() {
    return get(SERVICE_NAME);
  }

  /**
   * {@value #RESOURCE_ATTRIBUTES}, in order. @throws IllegalArgumentException if an entry is not
   * key=value
   */
  public Map<String, String> resourceAttributes() {
    String value = get(RESOURCE_ATTRIBUTES);
    return value == null
        ? Collections.<String, String>emptyMap()
        : parseKeyValues(RESOURCE_ATTRIBUTES, value, true);
  }

  private String get(String name) {
    String value = env.get(name);
    return value == null || value.trim().isEmpty() ? null : value;
  }

  /**
   * Parses {@code k=v,k2=v2}: entries split on commas and trimmed (empty entries skipped), split at
   * the first '=', key and value trimmed and percent-decoded.
   *
   * @param show whether a malformed entry may be quoted in the message (not for headers, whose
   *     values are secrets)
   * @throws IllegalArgumentException naming {@code variable} if an entry has no '=' or an empty key
   */
  static Map<String, String> parseKeyValues(String variable, String value, boolean show) {
    Map<String, String> out = new LinkedHashMap<>();
    int n = 0;
    for (String entry : value.split(",")) {
      n++;
      String e = entry.trim();
      if (e.isEmpty()) {
        continue;
      }
      int eq = e.indexOf('=');
      String key = eq < 0 ? "" : percentDecode(e.substring(0, eq).trim());
      if (key.isEmpty()) {
        throw new IllegalArgumentException(
            variable
                + ": entry "
                + (show ? "'" + e + "'" : "#" + n + " (not shown: it may hold a secret)")
                + " is not key=value");
      }
      out.put(key, percentDecode(e.substring(eq + 1).trim()));
    }
    return out;
  }

  /** Decodes {@code %XX} escapes as UTF-8 bytes; a malformed escape is kept as is. */
  public static String percentDecode(String s) {
    if (s.indexOf('%') < 0) {
      return s;
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(s.length());
    int i = 0;
    while (i < s.length()) {
      char c = s.charAt(i);
      if (c == '%'
          && i + 2 < s.length()
          && hex(s.charAt(i + 1)) >= 0
          && hex(s.charAt(i + 2)) >= 0) {
        bytes.write(hex(s.charAt(i + 1)) << 4 | hex(s.charAt(i + 2)));
        i += 3;
      } else {
        byte[] b = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
        if (Character.isHighSurrogate(c) && i + 1 < s.length()) {
          b = s.substring(i, i + 2).getBytes(StandardCharsets.UTF_8);
          i++;
        }
        bytes.write(b, 0, b.length);
        i++;
      }
    }
    return new String(bytes.toByteArray(), StandardCharsets.UTF_8);
  }

  private static int hex(char c) {
    return Character.digit(c, 16);
  }
}
