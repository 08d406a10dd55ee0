package io.logproducer.otlp.internal;

import io.logproducer.AnyValue;
import io.logproducer.Compression;
import io.logproducer.otlp.OtlpEncoding;
import io.logproducer.otlp.encoding.internal.resource.ResourceDetector;
import io.logproducer.otlp.internal.tls.ClientTls;
import io.logproducer.otlp.internal.tls.Pem;
import io.logproducer.otlp.internal.tls.PemSource;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import javax.net.ssl.SSLContext;

/**
 * The settings both public OTLP builders ({@code OtlpHttpExporterBuilder}, {@code
 * OtlpGrpcExporterBuilder}) hold and validate: one copy of the state, of the environment variables'
 * reading and of every bound, with the protocol's differences (endpoint path rules, reserved
 * headers, encodings, compressions, default request size) decided by {@link Protocol}. The public
 * builders are thin: each setter delegates here and carries its Javadoc. OpenTelemetry Java is
 * built the same way (its internal {@code HttpExporterBuilder} and {@code GrpcExporterBuilder}
 * behind the public OTLP builders). Not thread-safe, as builders are.
 */
public final class ExporterSettings {

  /** Which OTLP transport the settings are for. */
  public enum Protocol {
    /** OTLP/HTTP: {@code POST …/v1/logs}. */
    HTTP,
    /** OTLP/gRPC: {@code LogsService/Export} over HTTP/2. */
    GRPC
  }

  /** Smallest {@code timeoutMillis}: {@value} ms. */
  public static final long MIN_TIMEOUT_MILLIS = 1;

  /** Largest {@code timeoutMillis}: {@value} ms (an hour). */
  public static final long MAX_TIMEOUT_MILLIS = 3_600_000;

  /** Smallest {@code maxRequestSizeInBytes}: {@value} bytes. */
  public static final int MIN_MAX_REQUEST_SIZE_IN_BYTES = 1024;

  /** Largest {@code maxRequestSizeInBytes}: {@value} bytes (256 MiB). */
  public static final int MAX_MAX_REQUEST_SIZE_IN_BYTES = 256 * 1024 * 1024;

  /** Smallest {@code stripes}: {@value}. */
  public static final int MIN_STRIPES = 1;

  /** Largest {@code stripes}: {@value}. */
  public static final int MAX_STRIPES = 1024;

  /** The resource attribute key of the service name. */
  public static final String SERVICE_NAME_KEY = "service.name";

  private final Protocol protocol;
  private String endpoint;
  private OtlpEncoding encoding = OtlpEncoding.PROTOBUF;
  private Compression compression = Compression.NONE;
  private final Map<String, String> headers = new LinkedHashMap<>();
  private long timeoutMillis;
  private final Map<String, AnyValue> resourceAttributes = new LinkedHashMap<>();
  private boolean resourceDetection = true;
  private String protocolMismatch; // see checkProtocol
  private String scopeName;
  private String scopeVersion;
  private boolean instrumentationScopeFromRecords;
  private int maxRequestSizeInBytes;
  private int stripes;
  private String userInfoAuthorization; // from the endpoint's user-info; never printed
  private PemSource trustedCertificates;
  private PemSource clientKey;
  private PemSource clientCertificate;
  private boolean tlsFromEnvironment; // the three above came from OTEL_EXPORTER_OTLP_*
  private SSLContext sslContext;

  /**
   * Defaults overridden by {@code env}.
   *
   * @param protocol the transport
   * @param env the environment variables
   * @param defaults endpoint, service name, scope name (in this order)
   * @param timeoutMillis default deadline of a request, ms
   * @param maxRequestSizeInBytes default bound on a request, bytes
   * @param stripes default stripe count
   * @throws IllegalArgumentException naming the variable if one is malformed
   */
  public ExporterSettings(
      Protocol protocol,
      Map<String, String> env,
      String[] defaults,
      long timeoutMillis,
      int maxRequestSizeInBytes,
      int stripes) {
    this.protocol = protocol;
    this.endpoint = defaults[0];
    this.scopeName = defaults[2];
    this.timeoutMillis = timeoutMillis;
    this.maxRequestSizeInBytes = maxRequestSizeInBytes;
    this.stripes = stripes;
    resourceAttributes.put(SERVICE_NAME_KEY, AnyValue.of(defaults[1]));
    OtlpEnvironment e = new OtlpEnvironment(env);
    checkProtocol(e);
    String url = protocol == Protocol.GRPC ? e.grpcEndpoint() : e.endpoint();
    if (url != null) {
      endpoint = url;
      userInfoAuthorization =
          Endpoints.basicAuthorization(
              e.rawEndpoint() == null ? url : e.rawEndpoint()); // URL user-info → Basic auth
    }
    trustedCertificates = e.certificate();
    clientKey = e.clientKey();
    clientCertificate = e.clientCertificate();
    tlsFromEnvironment = true;
    for (Map.Entry<String, String> h : e.headers().entrySet()) {
      try {
        addHeader(h.getKey(), h.getValue());
      } catch (IllegalArgumentException ex) {
        throw new IllegalArgumentException(OtlpEnvironment.HEADERS + ": " + ex.getMessage(), ex);
      }
    }
    Compression c = e.compression();
    if (c != null) {
      try {
        setCompression(c);
      } catch (IllegalArgumentException ex) {
        throw new IllegalArgumentException(
            OtlpEnvironment.COMPRESSION + ": " + ex.getMessage(), ex);
      }
    }
    Long timeout = e.timeoutMillis();
    if (timeout != null) {
      try {
        setTimeoutMillis(timeout);
      } catch (IllegalArgumentException ex) {
        throw new IllegalArgumentException(OtlpEnvironment.TIMEOUT + ": " + ex.getMessage(), ex);
      }
    }
    if (protocol == Protocol.HTTP && !"grpc".equals(e.protocol())) {
      Boolean json = e.json();
      if (json != null) {
        encoding = json ? OtlpEncoding.JSON : OtlpEncoding.PROTOBUF;
      }
    }
    for (Map.Entry<String, String> a : e.resourceAttributes().entrySet()) {
      resourceAttributes.put(a.getKey(), AnyValue.of(a.getValue()));
    }
    String serviceName = e.serviceName();
    if (serviceName != null) {
      setServiceName(serviceName.trim());
    }
  }

  /**
   * Validates the protocol variable and notes a value naming the other transport. That is not an
   * error: the variable chooses the exporter where the code leaves the choice to the environment
   * ({@code OtlpExporters.fromEnvironment()}, the appenders, the Spring Boot starter); a builder
   * the code picked explicitly speaks its own protocol, as OpenTelemetry Java's builders do, and
   * its exporter says so once, with a WARN at build ({@link #protocolMismatch()}).
   */
  private void checkProtocol(OtlpEnvironment e) {
    String p = e.protocol(); // throws for a value that is none of grpc, http/protobuf, http/json
    if (p != null && (p.equals("grpc") != (protocol == Protocol.GRPC))) {
      protocolMismatch =
          e.protocolVariable()
              + " is "
              + p
              + ", but this is the "
              + (protocol == Protocol.GRPC ? "OTLP/gRPC" : "OTLP/HTTP")
              + " exporter, chosen by the code: the variable is ignored (OtlpExporters"
              + ".fromEnvironment() picks the exporter the variable names)";
    }
  }

  /** {@return a WARN line when the protocol variable names the other transport, else null} */
  public String protocolMismatch() {
    return protocolMismatch;
  }

  /**
   * Sets the endpoint: for HTTP, {@code /v1/logs} is appended to an empty or "/" path; for gRPC it
   * is used as given. A user-info becomes {@code Authorization: Basic …}.
   *
   * @throws IllegalArgumentException if not an absolute http(s) URL with a host, or with a fragment
   */
  public void setEndpoint(String url) {
    this.endpoint =
        protocol == Protocol.GRPC
            ? Endpoints.forSignalEndpoint("endpoint", url)
            : Endpoints.forEndpoint("endpoint", url);
    this.userInfoAuthorization = Endpoints.basicAuthorization(url);
  }

  /** See {@code setTrustedCertificates(byte[])}. @throws IllegalArgumentException if not PEM */
  public void setTrustedCertificates(byte[] pem) {
    PemSource source = PemSource.ofBytes("trustedCertificates", pem);
    Pem.certificates(pem, source.toString()); // fails now, not at build
    tlsFromEnvironment = false; // what is set from here on is the user's
    this.trustedCertificates = source;
  }

  /** See {@code setTrustedCertificatesPath}. @throws IllegalArgumentException if null */
  public void setTrustedCertificatesPath(Path pemFile) {
    PemSource source = PemSource.ofFile("trustedCertificates", pemFile);
    tlsFromEnvironment = false;
    this.trustedCertificates = source;
  }

  /** See {@code setClientTls}. @throws IllegalArgumentException if either does not parse */
  public void setClientTls(byte[] privateKeyPem, byte[] certificatePem) {
    PemSource key = PemSource.ofBytes("clientKey", privateKeyPem);
    PemSource cert = PemSource.ofBytes("clientCertificate", certificatePem);
    ClientTls.create(null, key, cert, null); // checks now, not at build
    tlsFromEnvironment = false;
    this.clientKey = key;
    this.clientCertificate = cert;
  }

  /** See {@code setClientTlsPaths}. @throws IllegalArgumentException if either is null */
  public void setClientTlsPaths(Path privateKeyPemFile, Path certificatePemFile) {
    PemSource key = PemSource.ofFile("clientKey", privateKeyPemFile);
    PemSource cert = PemSource.ofFile("clientCertificate", certificatePemFile);
    tlsFromEnvironment = false;
    this.clientKey = key;
    this.clientCertificate = cert;
  }

  /** See {@code setSslContext}. @throws IllegalArgumentException if null */
  public void setSslContext(SSLContext context) {
    if (context == null) {
      throw new IllegalArgumentException("sslContext must not be null");
    }
    if (tlsFromEnvironment) {
      trustedCertificates = null;
      clientKey = null;
      clientCertificate = null;
      tlsFromEnvironment = false;
    }
    this.sslContext = context;
  }

  /**
   * Sets the encoding. @throws IllegalArgumentException if null, or JSON for gRPC (gRPC carries
   * protobuf only)
   */
  public void setEncoding(OtlpEncoding encoding) {
    if (encoding == null) {
      throw new IllegalArgumentException("encoding must not be null");
    }
    if (protocol == Protocol.GRPC && encoding != OtlpEncoding.PROTOBUF) {
      throw new IllegalArgumentException(
          "encoding must be PROTOBUF for OTLP/gRPC, was "
              + encoding
              + " (OTLP/JSON exists over HTTP only: use OtlpHttpExporter)");
    }
    this.encoding = encoding;
  }

  /**
   * Sets the default compression.
   *
   * @throws IllegalArgumentException if null, or LZ4 for gRPC (no gRPC encoding: the Collector's
   *     gRPC receiver answers UNIMPLEMENTED)
   */
  public void setCompression(Compression compression) {
    if (compression == null) {
      throw new IllegalArgumentException("compression must not be null");
    }
    if (protocol == Protocol.GRPC && compression == Compression.LZ4) {
      throw new IllegalArgumentException(
          "compression must be NONE, GZIP or ZSTD for OTLP/gRPC, was LZ4: lz4 is not a gRPC"
              + " message encoding (the OpenTelemetry Collector's gRPC receiver answers"
              + " UNIMPLEMENTED); use OtlpHttpExporter for lz4");
    }
    this.compression = compression;
  }

  /**
   * Adds a header (gRPC: a metadata entry); the same name (case-insensitive) replaces the value.
   *
   * @throws IllegalArgumentException if the name is not an HTTP token, the value holds CR, LF or
   *     NUL, or the exporter sets that header itself
   */
  public void addHeader(String name, String value) {
    if (name == null || name.isEmpty() || !isToken(name)) {
      throw new IllegalArgumentException("header name must be an HTTP token, was '" + name + "'");
    }
    String lower = name.toLowerCase(Locale.ROOT);
    boolean reserved;
    switch (lower) {
      case "content-type":
      case "content-encoding":
      case "content-length":
      case "transfer-encoding":
      case "host":
      case "connection":
        reserved = true;
        break;
      case "te":
      case "user-agent":
        reserved = protocol == Protocol.GRPC;
        break;
      default:
        reserved = protocol == Protocol.GRPC && lower.startsWith("grpc-");
    }
    if (reserved) {
      throw new IllegalArgumentException(
          "header " + name + " is set by the exporter and cannot be added");
    }
    if (value == null
        || value.indexOf('\r') >= 0
        || value.indexOf('\n') >= 0
        || value.indexOf('\0') >= 0) {
      throw new IllegalArgumentException(
          "header " + name + " value must not be null or hold CR, LF or NUL");
    }
    for (String existing : headers.keySet()) {
      if (existing.equalsIgnoreCase(name)) {
        headers.remove(existing);
        break;
      }
    }
    headers.put(name, value);
  }

  /** Sets the request deadline. @throws IllegalArgumentException if out of range */
  public void setTimeoutMillis(long millis) {
    if (millis < MIN_TIMEOUT_MILLIS || millis > MAX_TIMEOUT_MILLIS) {
      throw new IllegalArgumentException(
          "timeoutMillis must be in ["
              + MIN_TIMEOUT_MILLIS
              + ", "
              + MAX_TIMEOUT_MILLIS
              + "], was "
              + millis);
    }
    this.timeoutMillis = millis;
  }

  /** Sets service.name. @throws IllegalArgumentException if null or empty */
  public void setServiceName(String name) {
    if (name == null || name.isEmpty()) {
      throw new IllegalArgumentException("serviceName must not be empty");
    }
    setResourceAttribute(SERVICE_NAME_KEY, AnyValue.of(name));
  }

  /** Sets a resource attribute. @throws IllegalArgumentException if the key is empty or null */
  public void setResourceAttribute(String key, AnyValue value) {
    if (key == null || key.isEmpty()) {
      throw new IllegalArgumentException("resource attribute key must not be empty");
    }
    if (value == null) {
      throw new IllegalArgumentException("resource attribute '" + key + "' value must not be null");
    }
    resourceAttributes.put(key, value);
  }

  /** Sets the scope. @throws IllegalArgumentException if the name is null or empty */
  public void setScope(String name, String version) {
    if (name == null || name.isEmpty()) {
      throw new IllegalArgumentException("scope name must not be empty");
    }
    this.scopeName = name;
    this.scopeVersion = version;
  }

  /** Sets whether records' scope names become their scopes. */
  public void setInstrumentationScopeFromRecords(boolean fromRecords) {
    this.instrumentationScopeFromRecords = fromRecords;
  }

  /** Sets the request bound. @throws IllegalArgumentException if out of range */
  public void setMaxRequestSizeInBytes(int bytes) {
    if (bytes < MIN_MAX_REQUEST_SIZE_IN_BYTES || bytes > MAX_MAX_REQUEST_SIZE_IN_BYTES) {
      throw new IllegalArgumentException(
          "maxRequestSizeInBytes must be in ["
              + MIN_MAX_REQUEST_SIZE_IN_BYTES
              + ", "
              + MAX_MAX_REQUEST_SIZE_IN_BYTES
              + "], was "
              + bytes);
    }
    this.maxRequestSizeInBytes = bytes;
  }

  /** Sets the stripe count. @throws IllegalArgumentException if out of range */
  public void setStripes(int stripes) {
    if (stripes < MIN_STRIPES || stripes > MAX_STRIPES) {
      throw new IllegalArgumentException(
          "stripes must be in [" + MIN_STRIPES + ", " + MAX_STRIPES + "], was " + stripes);
    }
    this.stripes = stripes;
  }

  /**
   * The TLS of the exporter: loads and checks the PEM sources.
   *
   * @throws IllegalArgumentException naming the setting or variable and the file
   */
  public ClientTls tls() {
    if (sslContext != null
        && !tlsFromEnvironment
        && (trustedCertificates != null || clientKey != null)) {
      throw new IllegalArgumentException(
          "set either sslContext or trustedCertificates/clientTls, not both: the SSLContext"
              + " already decides what to trust and which client certificate to present");
    }
    if ((clientKey == null) != (clientCertificate == null)) {
      throw new IllegalArgumentException(
          (clientKey == null
                  ? "a client certificate (" + clientCertificate + ") is set without its key"
                  : "a client key (" + clientKey + ") is set without its certificate")
              + ": mutual TLS needs both (OTEL_EXPORTER_OTLP_CLIENT_KEY and"
              + " OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE)");
    }
    if (sslContext != null) {
      return ClientTls.create(null, null, null, sslContext);
    }
    return ClientTls.create(trustedCertificates, clientKey, clientCertificate, null);
  }

  /** {@return whether TLS was configured in any way (for the warning on an http:// endpoint)} */
  public boolean tlsConfigured() {
    return sslContext != null || trustedCertificates != null || clientKey != null;
  }

  /** {@return the endpoint URL, without user-info} */
  public String endpoint() {
    return endpoint;
  }

  /** {@return the encoding} */
  public OtlpEncoding encoding() {
    return encoding;
  }

  /** {@return the default compression} */
  public Compression compression() {
    return compression;
  }

  /** {@return the headers, with the endpoint's user-info as Authorization, unmodifiable} */
  public Map<String, String> headers() {
    Map<String, String> h = new LinkedHashMap<>(headers);
    if (userInfoAuthorization != null) {
      boolean explicit = false;
      for (String name : h.keySet()) {
        explicit |= name.equalsIgnoreCase("Authorization");
      }
      if (!explicit) {
        h.put(protocol == Protocol.GRPC ? "authorization" : "Authorization", userInfoAuthorization);
      }
    }
    return Collections.unmodifiableMap(h);
  }

  /** {@return the request deadline, ms} */
  public long timeoutMillis() {
    return timeoutMillis;
  }

  /**
   * Whether the detected resource attributes ({@code ResourceDetector}: host, OS, process,
   * container, Kubernetes, {@code telemetry.sdk.*}) are added under the configured ones.
   *
   * @param detection true (the default) to add them
   */
  public void setResourceDetection(boolean detection) {
    this.resourceDetection = detection;
  }

  /**
   * {@return the resource attributes, a copy, unmodifiable: the configured ones (defaults, {@code
   * OTEL_RESOURCE_ATTRIBUTES}, setters) first and, with detection on, the detected ones under them}
   * The single place the request framing gets its resource from. Detection runs once per JVM.
   */
  public Map<String, AnyValue> resourceAttributes() {
    return Collections.unmodifiableMap(
        ResourceDetector.resource(resourceDetection, resourceAttributes));
  }

  /** {@return the scope name} */
  public String scopeName() {
    return scopeName;
  }

  /** {@return the scope version, or null} */
  public String scopeVersion() {
    return scopeVersion;
  }

  /** {@return whether records' scope names become their scopes} */
  public boolean instrumentationScopeFromRecords() {
    return instrumentationScopeFromRecords;
  }

  /** {@return the request bound, bytes} */
  public int maxRequestSizeInBytes() {
    return maxRequestSizeInBytes;
  }

  /** {@return the stripe count} */
  public int stripes() {
    return stripes;
  }

  private static boolean isToken(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      boolean ok =
          (c >= 'a' && c <= 'z')
              || (c >= 'A' && c <= 'Z')
              || (c >= '0' && c <= '9')
              || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
      if (!ok) {
        return false;
      }
    }
    return true;
  }
}
