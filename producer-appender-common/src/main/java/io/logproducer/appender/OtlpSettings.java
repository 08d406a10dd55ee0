package io.logproducer.appender;

import io.logproducer.Compression;
import io.logproducer.otlp.OtlpEncoding;
import io.logproducer.otlp.OtlpExporterBuilder;
import io.logproducer.otlp.OtlpExporters;
import io.logproducer.otlp.OtlpGrpcExporter;
import io.logproducer.otlp.OtlpGrpcExporterBuilder;
import io.logproducer.otlp.OtlpHttpExporter;
import io.logproducer.otlp.OtlpHttpExporterBuilder;
import io.logproducer.spi.Exporter;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import javax.net.ssl.SSLContext;

/**
 * The OTLP exporter's settings as a logging framework's XML (or the Spring Boot starter) sets them:
 * OTLP/HTTP ({@link OtlpHttpExporter}) or OTLP/gRPC ({@link OtlpGrpcExporter}), as {@link
 * #setProtocol(String)} or else {@code OTEL_EXPORTER_OTLP_[LOGS_]PROTOCOL} says. Starts from the
 * standard OpenTelemetry environment variables ({@code OTEL_EXPORTER_OTLP_*}, {@code
 * OTEL_SERVICE_NAME}, {@code OTEL_RESOURCE_ATTRIBUTES}, read by the exporter's {@code builder()});
 * what is set here wins. Each setter validates at once and throws {@link IllegalArgumentException}
 * naming the setting; what depends on the protocol (gRPC takes protobuf only, and no lz4) fails
 * {@link #build(String, boolean)}. Not thread-safe: filled once, before the appender starts.
 *
 * <p>TLS: an {@code https://} endpoint is verified against the JDK's trust store, or against the CA
 * certificates of {@link #setTrustedCertificates(String)}; {@link #setClientKey(String)} and {@link
 * #setClientCertificate(String)} together present a client certificate (mutual TLS). All three are
 * PEM files, read by {@link #build(String, boolean)} and read again when they change.
 *
 * <p>Secrets: request header values and the password of an endpoint's user-info ({@code
 * https://user:password@host}, sent as {@code Authorization: Basic}) are never part of an exception
 * message of these settings; header names and the endpoint without its password are. Settings made
 * by {@link #OtlpSettings(boolean) OtlpSettings(true)} go further: their {@link #setEndpoint},
 * {@link #setHeaders} and {@link #addHeader} do not throw at all (a framework that quotes the value
 * of a setter that throws, as logback's configurator does, would print the secret); the error is
 * thrown by {@link #check()} and {@link #build(String, boolean)} instead.
 */
public class OtlpSettings {

  /** Validates each value as it is set; the exporter is built from the values by build. */
  private final OtlpHttpExporterBuilder probe = OtlpHttpExporter.builder();

  private final boolean deferSecretErrors;
  private IllegalArgumentException secretError; // the first, when deferSecretErrors
  private String protocol; // grpc, http/protobuf or http/json; null: the environment's
  private String endpoint;
  private final Map<String, String> headers = new LinkedHashMap<>();
  private OtlpEncoding encoding;
  private Compression compression;
  private Long timeoutMillis;
  private String serviceName;
  private final Map<String, String> resourceAttributes = new LinkedHashMap<>();
  private Integer maxRequestSizeInBytes;
  private Path trustedCertificates;
  private Path clientKey;
  private Path clientCertificate;
  private SSLContext sslContext;
  private Boolean resourceDetection;

  /** Creates settings from the environment. */
  public OtlpSettings() {
    this(false);
  }

  /**
   * Creates settings from the environment.
   *
   * @param deferSecretErrors whether an invalid {@code endpoint}, {@code header} or {@code headers}
   *     is thrown by {@link #check()} and {@link #build(String, boolean)} rather than by its setter
   */
  protected OtlpSettings(boolean deferSecretErrors) {
    this.deferSecretErrors = deferSecretErrors;
  }

  /**
   * See {@link OtlpHttpExporterBuilder#setEndpoint(String)}: a URL without a path gets {@code
   * /v1/logs}; a user-info ({@code https://user:password@host}) is sent as {@code Authorization:
   * Basic …} and never printed.
   *
   * @param url e.g. {@code http://127.0.0.1:4318} or {@code https://collector.example:4318}
   * @throws IllegalArgumentException if not an absolute http or https URL with a host (the message
   *     shows it without its password); deferred, see the class comment
   */
  public void setEndpoint(String url) {
    try {
      probe.setEndpoint(url);
      endpoint = url;
    } catch (IllegalArgumentException e) {
      secretError(e);
    }
  }

  /**
   * One request header.
   *
   * @param header {@code name=value}, e.g. {@code X-BK-TOKEN=abc}
   * @throws IllegalArgumentException if not {@code name=value} with an HTTP token as name (the
   *     message does not show the value); deferred, see the class comment
   */
  public void addHeader(String header) {
    addHeaders("header", header);
  }

  /**
   * Several request headers.
   *
   * @param headers {@code name=value} items separated by commas, as {@code
   *     OTEL_EXPORTER_OTLP_HEADERS}
   * @throws IllegalArgumentException if an item is not {@code name=value} with an HTTP token as
   *     name (the message gives the item's position, never its text); deferred, see the class
   *     comment
   */
  public void setHeaders(String headers) {
    addHeaders("headers", headers);
  }

  private void addHeaders(String setting, String list) {
    try {
      for (Map.Entry<String, String> e : Text.keyValues(setting, list, true).entrySet()) {
        if (!Text.isToken(e.getKey())) {
          throw new IllegalArgumentException(
              setting
                  + ": a header name is not an HTTP token (letters, digits and"
                  + " !#$%&'*+-.^_`|~ only; the item is not shown: it may hold a secret)");
        }
        try {
          probe.addHeader(e.getKey(), e.getValue()); // its messages name the header only
        } catch (IllegalArgumentException ex) {
          throw new IllegalArgumentException(setting + ": " + ex.getMessage());
        }
        headers.put(e.getKey(), e.getValue());
      }
    } catch (IllegalArgumentException e) {
      secretError(e);
    }
  }

  /**
   * One request header by name and value (for code, such as the Spring Boot starter's map of
   * headers: the value is taken as is, commas included).
   *
   * @param name an HTTP token
   * @param value the value
   * @throws IllegalArgumentException if the name is not an HTTP token or the value holds CR, LF or
   *     NUL (the message names the header, never its value)
   */
  public void putHeader(String name, String value) {
    probe.addHeader(name, value);
    headers.put(name, value);
  }

  private void secretError(IllegalArgumentException e) {
    if (!deferSecretErrors) {
      throw e;
    }
    if (secretError == null) {
      secretError = e;
    }
  }

  /**
   * The CA certificates that verify an {@code https://} receiver, and only they (a private CA);
   * replaces {@code OTEL_EXPORTER_OTLP_CERTIFICATE}. Default: the JDK's trust store. Read by {@link
   * #build(String, boolean)}, and again when the file changes (for new connections).
   *
   * @param pemFile the path of a PEM file of one or more {@code CERTIFICATE} blocks, e.g. {@code
   *     /etc/otel/ca.pem}
   * @throws IllegalArgumentException if empty or not a path (a missing or invalid file fails {@link
   *     #build(String, boolean)}, naming it)
   */
  public void setTrustedCertificates(String pemFile) {
    this.trustedCertificates = path("trustedCertificates", pemFile);
  }

  /**
   * The private key of the client certificate presented to the receiver (mutual TLS); needs {@link
   * #setClientCertificate(String)} too. Replaces {@code OTEL_EXPORTER_OTLP_CLIENT_KEY}. Read by
   * {@link #build(String, boolean)}, and again when the file changes.
   *
   * @param pemFile the path of an unencrypted PEM key: PKCS#8 {@code PRIVATE KEY} (RSA or EC;
   *     PKCS#1 and SEC1 are accepted too)
   * @throws IllegalArgumentException if empty or not a path (a missing, invalid or mismatched file
   *     fails {@link #build(String, boolean)}, naming it but never showing the key)
   */
  public void setClientKey(String pemFile) {
    this.clientKey = path("clientKey", pemFile);
  }

  /**
   * The client certificate presented to the receiver (mutual TLS); needs {@link
   * #setClientKey(String)} too. Replaces {@code OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE}. Read by
   * {@link #build(String, boolean)}, and again when the file changes.
   *
   * @param pemFile the path of a PEM file of the certificate chain, the client's certificate first
   * @throws IllegalArgumentException if empty or not a path (a missing, invalid or mismatched file
   *     fails {@link #build(String, boolean)}, naming it)
   */
  public void setClientCertificate(String pemFile) {
    this.clientCertificate = path("clientCertificate", pemFile);
  }

  private static Path path(String setting, String value) {
    if (value == null || value.trim().isEmpty()) {
      throw new IllegalArgumentException(setting + " must be the path of a PEM file, was empty");
    }
    try {
      return Paths.get(value.trim());
    } catch (InvalidPathException e) {
      throw new IllegalArgumentException(
          setting + " must be the path of a PEM file, was '" + value + "': " + e.getReason(), e);
    }
  }

  /**
   * Checks what the setters could not check alone: the deferred error of an {@code endpoint} or
   * header (see the class comment), and that {@code clientKey} and {@code clientCertificate} are
   * set together. The files are not read here.
   *
   * @throws IllegalArgumentException naming the setting
   */
  public void check() {
    if (secretError != null) {
      throw secretError;
    }
    if ((clientKey == null) != (clientCertificate == null)) {
      throw new IllegalArgumentException(
          (clientKey == null
                  ? "clientCertificate is set without clientKey"
                  : "clientKey is set without clientCertificate")
              + ": mutual TLS needs both, the client's private key and its certificate chain"
              + " (PEM files)");
    }
  }

  /**
   * {@code protobuf} (the default) or {@code json}.
   *
   * @param encoding the name, any case ({@code proto} also means protobuf)
   * @throws IllegalArgumentException if unknown
   */
  public void setEncoding(String encoding) {
    this.encoding =
        "proto".equalsIgnoreCase(encoding == null ? null : encoding.trim())
            ? OtlpEncoding.PROTOBUF
            : Text.enumValue(OtlpEncoding.class, "encoding", encoding);
  }

  /**
   * The OTLP transport: {@code grpc} (OTLP/gRPC, {@link OtlpGrpcExporter}, default port 4317),
   * {@code http/protobuf} or {@code http/json} (OTLP/HTTP, {@link OtlpHttpExporter}, port 4318;
   * {@code http} means {@code http/protobuf}) — the values of {@code OTEL_EXPORTER_OTLP_PROTOCOL}.
   * Default: that variable ({@code OTEL_EXPORTER_OTLP_LOGS_PROTOCOL} first), else {@code
   * http/protobuf}. The endpoint is the protocol's: gRPC uses it as given, HTTP appends {@code
   * /v1/logs} to an empty path.
   *
   * @param protocol the protocol, any case
   * @throws IllegalArgumentException if not one of these
   */
  public void setProtocol(String protocol) {
    String p = protocol == null ? "" : protocol.trim().toLowerCase(Locale.ROOT);
    switch (p) {
      case "grpc":
      case "http/protobuf":
      case "http/json":
        this.protocol = p;
        break;
      case "http":
        this.protocol = "http/protobuf";
        break;
      default:
        throw new IllegalArgumentException(
            "protocol must be grpc, http/protobuf or http/json, was '" + protocol + "'");
    }
  }

  /**
   * Uses the application's own TLS context (not settable from XML; the Spring Boot starter's SSL
   * bundles); replaces the PEM settings of the environment, and fails {@link #build(String,
   * boolean)} together with {@link #setTrustedCertificates} or the client certificate settings.
   *
   * @param context an initialised context
   * @throws IllegalArgumentException if null
   */
  public void setSslContext(SSLContext context) {
    probe.setSslContext(context);
    this.sslContext = context;
  }

  /**
   * The exporter's default compression, used when the producer settings leave it unset.
   *
   * @param compression {@code none}, {@code gzip}, {@code lz4} or {@code zstd}
   * @throws IllegalArgumentException if unknown
   */
  public void setCompression(String compression) {
    this.compression = Compression.fromName(compression);
  }

  /**
   * See {@link OtlpHttpExporterBuilder#setTimeoutMillis(long)}: the deadline of one whole request.
   *
   * @param millis the request timeout
   */
  public void setTimeoutMillis(long millis) {
    probe.setTimeoutMillis(millis);
    this.timeoutMillis = millis;
  }

  /**
   * The resource attribute {@code service.name}.
   *
   * @param name the service's name
   */
  public void setServiceName(String name) {
    probe.setServiceName(name);
    this.serviceName = name;
  }

  /**
   * One string resource attribute.
   *
   * @param attribute {@code key=value}
   * @throws IllegalArgumentException if not {@code key=value}
   */
  public void addResourceAttribute(String attribute) {
    for (Map.Entry<String, String> e : Text.keyValues("resourceAttribute", attribute).entrySet()) {
      probe.setResourceAttribute(e.getKey(), e.getValue());
      resourceAttributes.put(e.getKey(), e.getValue());
    }
  }

  /**
   * One string resource attribute by key and value (for code: the value is taken as is).
   *
   * @param key the key, non-empty
   * @param value the value
   * @throws IllegalArgumentException if the key is empty or the value null
   */
  public void putResourceAttribute(String key, String value) {
    probe.setResourceAttribute(key, value);
    resourceAttributes.put(key, value);
  }

  /**
   * Whether detected resource attributes (host, OS, process, container, Kubernetes; see {@link
   * OtlpHttpExporterBuilder#setResourceDetection(boolean)}) are sent under the configured ones.
   * Default true.
   *
   * @param detection false to send only the configured attributes
   */
  public void setResourceDetection(boolean detection) {
    this.resourceDetection = detection;
  }

  /**
   * Several string resource attributes.
   *
   * @param attributes {@code key=value} items separated by commas, as {@code
   *     OTEL_RESOURCE_ATTRIBUTES}
   * @throws IllegalArgumentException if an item is not {@code key=value}
   */
  public void setResourceAttributes(String attributes) {
    for (Map.Entry<String, String> e :
        Text.keyValues("resourceAttributes", attributes).entrySet()) {
      probe.setResourceAttribute(e.getKey(), e.getValue());
      resourceAttributes.put(e.getKey(), e.getValue());
    }
  }

  /**
   * See {@link OtlpHttpExporterBuilder#setMaxRequestSizeInBytes(int)}.
   *
   * @param bytes the uncompressed request bound
   */
  public void setMaxRequestSizeInBytes(int bytes) {
    probe.setMaxRequestSizeInBytes(bytes);
    this.maxRequestSizeInBytes = bytes;
  }

  /**
   * Builds the exporter of the protocol ({@link #setProtocol(String)}).
   *
   * @param scopeName the {@code InstrumentationScope} name of records without a logger name
   * @param scopeFromRecords whether each record's scope name (the logger name) becomes its {@code
   *     InstrumentationScope} ({@link
   *     OtlpHttpExporterBuilder#setInstrumentationScopeFromRecords(boolean)})
   * @return a new {@link OtlpHttpExporter} or {@link OtlpGrpcExporter}
   * @throws IllegalArgumentException if the settings are invalid ({@link #check()}), do not suit
   *     the protocol (json or lz4 over gRPC), or a TLS file is missing, unreadable, not PEM, or the
   *     client key does not match its certificate (the message names the setting and the file)
   */
  public Exporter build(String scopeName, boolean scopeFromRecords) {
    check();
    String p = protocol != null ? protocol : OtlpExporters.protocolFromEnvironment();
    if ("grpc".equals(p)) {
      if (encoding == OtlpEncoding.JSON) {
        throw new IllegalArgumentException(
            "encoding json is OTLP/HTTP only: OTLP/gRPC carries protobuf (set protocol"
                + " http/json, or leave encoding unset)");
      }
      OtlpGrpcExporterBuilder b = OtlpGrpcExporter.builder();
      if (compression != null) {
        try {
          b.setCompression(compression);
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException("compression: " + e.getMessage(), e);
        }
      }
      return apply(b, scopeName, scopeFromRecords).build();
    }
    OtlpHttpExporterBuilder b = OtlpHttpExporter.builder();
    if ("http/json".equals(protocol)) {
      b.setEncoding(OtlpEncoding.JSON);
    }
    if (encoding != null) {
      b.setEncoding(encoding);
    }
    if (compression != null) {
      b.setCompression(compression);
    }
    return apply(b, scopeName, scopeFromRecords).build();
  }

  /** The settings both protocols share, onto {@code b}. */
  private <B extends OtlpExporterBuilder<B>> B apply(
      B b, String scopeName, boolean scopeFromRecords) {
    if (endpoint != null) {
      b.setEndpoint(endpoint);
    }
    for (Map.Entry<String, String> h : headers.entrySet()) {
      b.addHeader(h.getKey(), h.getValue());
    }
    if (timeoutMillis != null) {
      b.setTimeoutMillis(timeoutMillis);
    }
    if (serviceName != null) {
      b.setServiceName(serviceName);
    }
    for (Map.Entry<String, String> a : resourceAttributes.entrySet()) {
      b.setResourceAttribute(a.getKey(), a.getValue());
    }
    if (maxRequestSizeInBytes != null) {
      b.setMaxRequestSizeInBytes(maxRequestSizeInBytes);
    }
    if (resourceDetection != null) {
      b.setResourceDetection(resourceDetection);
    }
    if (sslContext != null) {
      b.setSslContext(sslContext);
    }
    if (trustedCertificates != null) {
      b.setTrustedCertificatesPath(trustedCertificates);
    }
    if (clientKey != null) {
      b.setClientTlsPaths(clientKey, clientCertificate);
    }
    return b.setScope(scopeName, null).setInstrumentationScopeFromRecords(scopeFromRecords);
  }
}
