package io.logproducer.spring.boot.autoconfigure;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.util.unit.DataSize;

/**
 * The OTLP exporter's properties ({@code logproducer.otlp.*}): OTLP/HTTP or OTLP/gRPC.
 *
 * <p>Not thread-safe: bound once, at start-up, before any use.
 */
public class OtlpProperties {

  /**
   * grpc (OTLP/gRPC, port 4317), http/protobuf or http/json (OTLP/HTTP, port 4318). Default:
   * OTEL_EXPORTER_OTLP_(LOGS_)PROTOCOL, else http/protobuf.
   */
  private String protocol;

  /**
   * The receiver's URL. OTLP/HTTP: a base URL (/v1/logs is appended) or full logs URL; OTLP/gRPC:
   * used as given. Default: OTEL_EXPORTER_OTLP_(LOGS_)ENDPOINT, else http://localhost:4318
   * (http://localhost:4317 for grpc).
   */
  private String endpoint;

  /** Request headers, e.g. Authorization. */
  private Map<String, String> headers = new LinkedHashMap<>();

  /** protobuf (the default) or json. */
  private String encoding;

  /**
   * Request body compression: none, gzip, lz4 or zstd. Default: OTEL_EXPORTER_OTLP_COMPRESSION,
   * else none.
   */
  private String compression;

  /** The deadline of one whole request. Default: 10s. */
  private Duration timeout;

  /** The largest request body; bigger batches are split. Default: the exporter's. */
  private DataSize maxRequestSize;

  /**
   * Whether host, OS, process, container and Kubernetes resource attributes are detected and sent
   * under the configured ones. Default: true.
   */
  private Boolean resourceDetection;

  /** TLS from PEM files: trusted CA certificates and a client certificate (mutual TLS). */
  private final Tls tls = new Tls();

  /** TLS from a Spring Boot SSL bundle (Spring Boot 3.1+). */
  private final Ssl ssl = new Ssl();

  /** Creates the defaults. */
  public OtlpProperties() {}

  /** {@return {@code logproducer.otlp.tls}} */
  public Tls getTls() {
    return tls;
  }

  /** {@return {@code logproducer.otlp.ssl}} */
  public Ssl getSsl() {
    return ssl;
  }

  /** {@return {@code logproducer.otlp.resource-detection}} */
  public Boolean getResourceDetection() {
    return resourceDetection;
  }

  /**
   * Sets {@code logproducer.otlp.resource-detection}.
   *
   * @param resourceDetection whether host, OS, process, container and Kubernetes resource
   *     attributes are detected and sent under the configured ones. Default: true.
   */
  public void setResourceDetection(Boolean resourceDetection) {
    this.resourceDetection = resourceDetection;
  }

  /** {@return {@code logproducer.otlp.protocol}} */
  public String getProtocol() {
    return protocol;
  }

  /**
   * Sets {@code logproducer.otlp.protocol}.
   *
   * @param protocol grpc (OTLP/gRPC, port 4317), http/protobuf or http/json (OTLP/HTTP, port 4318).
   *     Default: OTEL_EXPORTER_OTLP_(LOGS_)PROTOCOL, else http/protobuf.
   */
  public void setProtocol(String protocol) {
    this.protocol = protocol;
  }

  /** {@return {@code logproducer.otlp.endpoint}} */
  public String getEndpoint() {
    return endpoint;
  }

  /**
   * Sets {@code logproducer.otlp.endpoint}.
   *
   * @param endpoint the receiver's URL. OTLP/HTTP: a base URL (/v1/logs is appended) or full logs
   *     URL; OTLP/gRPC: used as given. Default: OTEL_EXPORTER_OTLP_(LOGS_)ENDPOINT, else
   *     http://localhost:4318 (http://localhost:4317 for grpc).
   */
  public void setEndpoint(String endpoint) {
    this.endpoint = endpoint;
  }

  /** {@return {@code logproducer.otlp.headers}} */
  public Map<String, String> getHeaders() {
    return headers;
  }

  /**
   * Sets {@code logproducer.otlp.headers}.
   *
   * @param headers request headers, e.g. Authorization.
   */
  public void setHeaders(Map<String, String> headers) {
    this.headers = headers;
  }

  /** {@return {@code logproducer.otlp.encoding}} */
  public String getEncoding() {
    return encoding;
  }

  /**
   * Sets {@code logproducer.otlp.encoding}.
   *
   * @param encoding protobuf (the default) or json.
   */
  public void setEncoding(String encoding) {
    this.encoding = encoding;
  }

  /** {@return {@code logproducer.otlp.compression}} */
  public String getCompression() {
    return compression;
  }

  /**
   * Sets {@code logproducer.otlp.compression}.
   *
   * @param compression request body compression: none, gzip, lz4 or zstd. Default:
   *     OTEL_EXPORTER_OTLP_COMPRESSION, else none.
   */
  public void setCompression(String compression) {
    this.compression = compression;
  }

  /** {@return {@code logproducer.otlp.timeout}} */
  public Duration getTimeout() {
    return timeout;
  }

  /**
   * Sets {@code logproducer.otlp.timeout}.
   *
   * @param timeout the deadline of one whole request. Default: 10s.
   */
  public void setTimeout(Duration timeout) {
    this.timeout = timeout;
  }

  /** {@return {@code logproducer.otlp.max-request-size}} */
  public DataSize getMaxRequestSize() {
    return maxRequestSize;
  }

  /**
   * Sets {@code logproducer.otlp.max-request-size}.
   *
   * @param maxRequestSize the largest request body; bigger batches are split. Default: the
   *     exporter's.
   */
  public void setMaxRequestSize(DataSize maxRequestSize) {
    this.maxRequestSize = maxRequestSize;
  }

  /**
   * {@code logproducer.otlp.tls.*}: PEM files, read when the producer starts and read again when
   * they change (new connections use the new certificates). Paths are not secrets and are shown as
   * they are; the key file's content is never read into a property.
   */
  public static class Tls {

    /**
     * PEM file of the CA certificates that verify the receiver's certificate (a private CA).
     * Default: OTEL_EXPORTER_OTLP_CERTIFICATE, else the JDK's trust store.
     */
    private String trustedCertificates;

    /**
     * PEM file of the client's private key (PKCS#8, PKCS#1 or SEC1, unencrypted), for mutual TLS;
     * set with client-certificate.
     */
    private String clientKey;

    /** PEM file of the client's certificate chain, for mutual TLS; set with client-key. */
    private String clientCertificate;

    /** Creates the defaults. */
    public Tls() {}

    /** {@return {@code logproducer.otlp.tls.trusted-certificates}} */
    public String getTrustedCertificates() {
      return trustedCertificates;
    }

    /**
     * Sets {@code logproducer.otlp.tls.trusted-certificates}.
     *
     * @param trustedCertificates PEM file of the CA certificates that verify the receiver's
     *     certificate.
     */
    public void setTrustedCertificates(String trustedCertificates) {
      this.trustedCertificates = trustedCertificates;
    }

    /** {@return {@code logproducer.otlp.tls.client-key}} */
    public String getClientKey() {
      return clientKey;
    }

    /**
     * Sets {@code logproducer.otlp.tls.client-key}.
     *
     * @param clientKey PEM file of the client's private key, for mutual TLS.
     */
    public void setClientKey(String clientKey) {
      this.clientKey = clientKey;
    }

    /** {@return {@code logproducer.otlp.tls.client-certificate}} */
    public String getClientCertificate() {
      return clientCertificate;
    }

    /**
     * Sets {@code logproducer.otlp.tls.client-certificate}.
     *
     * @param clientCertificate PEM file of the client's certificate chain, for mutual TLS.
     */
    public void setClientCertificate(String clientCertificate) {
      this.clientCertificate = clientCertificate;
    }

    boolean isSet() {
      return trustedCertificates != null || clientKey != null || clientCertificate != null;
    }
  }

  /** {@code logproducer.otlp.ssl.*}: TLS from a Spring Boot SSL bundle (Spring Boot 3.1+). */
  public static class Ssl {

    /**
     * The name of a Spring Boot SSL bundle (spring.ssl.bundle.pem.NAME or .jks.NAME) whose
     * SSLContext the exporter uses; Spring Boot 3.1+. Not with logproducer.otlp.tls.*.
     */
    private String bundle;

    /** Creates the defaults. */
    public Ssl() {}

    /** {@return {@code logproducer.otlp.ssl.bundle}} */
    public String getBundle() {
      return bundle;
    }

    /**
     * Sets {@code logproducer.otlp.ssl.bundle}.
     *
     * @param bundle the name of a Spring Boot SSL bundle.
     */
    public void setBundle(String bundle) {
      this.bundle = bundle;
    }
  }
}
