package io.logproducer.spring.boot.autoconfigure;

import io.logproducer.appender.OtlpSettings;
import io.logproducer.spi.Exporter;
import java.util.Locale;
import java.util.Map;
import org.springframework.util.ClassUtils;

/**
 * The appenders' {@link OtlpSettings} filled from {@code logproducer.otlp.*} and {@code
 * logproducer.service-name} / {@code resource-attributes}, each value checked where it is applied
 * so that an error names the property (and never shows a header's value or the endpoint's
 * user-info); the one place that turns OTLP settings into an OTLP/HTTP or OTLP/gRPC exporter is
 * {@link OtlpSettings#build}. Starts from the {@code OTEL_EXPORTER_OTLP_*} environment variables,
 * as the appenders do. A class of its own: it links to producer-otlp, which may be missing (the
 * caller turns the {@link LinkageError} into a message).
 *
 * <p>Not thread-safe: filled once, before the producer starts.
 */
final class StarterOtlp {

  /** Spring Boot 3.1+'s SSL bundles. */
  static final String SSL_BUNDLES_CLASS = "org.springframework.boot.ssl.SslBundles";

  private final OtlpSettings settings = new OtlpSettings();
  private String tlsProperty; // the TLS property an exporter error is about, or null
  private Object tlsValue;
  private BundleSslContext bundleContext; // null without logproducer.otlp.ssl.bundle

  /**
   * @param p {@code logproducer.otlp.*}
   * @param serviceName the service name, or null
   * @param resourceAttributes {@code logproducer.resource-attributes}
   * @throws InvalidPropertyException naming the first invalid property
   */
  StarterOtlp(OtlpProperties p, String serviceName, Map<String, String> resourceAttributes) {
    String prefix = "logproducer.otlp.";
    String protocol = p.getProtocol();
    if (protocol != null) {
      set(prefix + "protocol", protocol, () -> settings.setProtocol(protocol));
    }
    String endpoint = p.getEndpoint();
    if (endpoint != null) {
      set(prefix + "endpoint", Secrets.redactUrl(endpoint), () -> settings.setEndpoint(endpoint));
    }
    for (Map.Entry<String, String> h : p.getHeaders().entrySet()) {
      // The value is not shown: headers carry credentials (Authorization).
      set(
          prefix + "headers." + h.getKey(),
          Secrets.MASK,
          () -> settings.putHeader(h.getKey(), h.getValue()));
    }
    String encoding = p.getEncoding();
    if (encoding != null) {
      set(prefix + "encoding", encoding, () -> settings.setEncoding(encoding));
    }
    String compression = p.getCompression();
    if (compression != null) {
      set(prefix + "compression", compression, () -> settings.setCompression(compression));
    }
    if (p.getTimeout() != null) {
      long millis = p.getTimeout().toMillis();
      set(prefix + "timeout", millis + "ms", () -> settings.setTimeoutMillis(millis));
    }
    if (p.getMaxRequestSize() != null) {
      long bytes = p.getMaxRequestSize().toBytes();
      set(
          prefix + "max-request-size",
          bytes + "B",
          () -> {
            if (bytes > Integer.MAX_VALUE) {
              throw new IllegalArgumentException("must be less than 2GB");
            }
            settings.setMaxRequestSizeInBytes((int) bytes);
          });
    }
    Boolean detection = p.getResourceDetection();
    if (detection != null) {
      settings.setResourceDetection(detection);
    }
    if (serviceName != null) {
      set("logproducer.service-name", serviceName, () -> settings.setServiceName(serviceName));
    }
    for (Map.Entry<String, String> a : resourceAttributes.entrySet()) {
      set(
          "logproducer.resource-attributes." + a.getKey(),
          a.getValue(),
          () -> settings.putResourceAttribute(a.getKey(), a.getValue()));
    }
    tls(p);
  }

  /** {@code logproducer.otlp.tls.*} and {@code logproducer.otlp.ssl.bundle}. */
  private void tls(OtlpProperties p) {
    String prefix = "logproducer.otlp.";
    OtlpProperties.Tls tls = p.getTls();
    String bundle = p.getSsl().getBundle();
    if (bundle != null && bundle.trim().isEmpty()) {
      bundle = null;
    }
    if (bundle != null && tls.isSet()) {
      throw new InvalidPropertyException(
          prefix + "ssl.bundle",
          bundle,
          "set either logproducer.otlp.ssl.bundle or logproducer.otlp.tls.*, not both (the"
              + " bundle's SSLContext has its own trust and key material)");
    }
    if ((tls.getClientKey() == null) != (tls.getClientCertificate() == null)) {
      boolean keyOnly = tls.getClientKey() != null;
      throw new InvalidPropertyException(
          prefix + (keyOnly ? "tls.client-key" : "tls.client-certificate"),
          keyOnly ? tls.getClientKey() : tls.getClientCertificate(),
          "mutual TLS needs both logproducer.otlp.tls.client-key and"
              + " logproducer.otlp.tls.client-certificate; "
              + (keyOnly ? "client-certificate" : "client-key")
              + " is not set");
    }
    if (tls.getTrustedCertificates() != null) {
      String ca = path(prefix + "tls.trusted-certificates", tls.getTrustedCertificates());
      set(
          prefix + "tls.trusted-certificates",
          tls.getTrustedCertificates(),
          () -> settings.setTrustedCertificates(ca));
    }
    if (tls.getClientKey() != null) {
      String key = path(prefix + "tls.client-key", tls.getClientKey());
      String cert = path(prefix + "tls.client-certificate", tls.getClientCertificate());
      set(prefix + "tls.client-key", tls.getClientKey(), () -> settings.setClientKey(key));
      set(
          prefix + "tls.client-certificate",
          tls.getClientCertificate(),
          () -> settings.setClientCertificate(cert));
    }
    if (bundle != null) {
      if (!ClassUtils.isPresent(SSL_BUNDLES_CLASS, StarterOtlp.class.getClassLoader())) {
        throw new InvalidPropertyException(
            prefix + "ssl.bundle",
            bundle,
            "SSL bundles need Spring Boot 3.1 or newer ("
                + SSL_BUNDLES_CLASS
                + " is not on the class path); use logproducer.otlp.tls.trusted-certificates,"
                + " client-key and client-certificate");
      }
      bundleContext = BundleSslContext.waitingFor(bundle.trim());
      settings.setSslContext(bundleContext);
      tlsProperty = prefix + "ssl.bundle";
      tlsValue = bundle;
    } else if (tls.isSet()) {
      tlsProperty = prefix + "tls";
      tlsValue = describe(tls);
    }
  }

  /** {@return the context waiting for {@code logproducer.otlp.ssl.bundle}, or null} */
  BundleSslContext bundleContext() {
    return bundleContext;
  }

  /**
   * Builds the exporter.
   *
   * @param scopeName the scope of records without one
   * @param scopeFromRecords whether the logger name is each record's scope
   * @param receiver where records go (redacted), for messages
   * @return the exporter
   * @throws InvalidPropertyException if the exporter refuses the settings (a TLS file that is
   *     missing or does not parse, a key that does not match its certificate: the property is
   *     named)
   */
  Exporter build(String scopeName, boolean scopeFromRecords, String receiver) {
    try {
      return settings.build(scopeName, scopeFromRecords);
    } catch (IllegalArgumentException | IllegalStateException e) {
      String message = String.valueOf(e.getMessage());
      if (tlsProperty != null && isTlsMessage(message)) {
        throw new InvalidPropertyException(tlsProperty, tlsValue, message, e);
      }
      throw new InvalidPropertyException("logproducer.otlp", receiver, message, e);
    }
  }

  private static boolean isTlsMessage(String message) {
    String m = message.toLowerCase(Locale.ROOT);
    return m.contains("trustedcertificates")
        || m.contains("clientkey")
        || m.contains("clientcertificate")
        || m.contains("sslcontext")
        || m.contains("pem")
        || m.contains("certificate");
  }

  private static String describe(OtlpProperties.Tls tls) {
    StringBuilder b = new StringBuilder();
    if (tls.getTrustedCertificates() != null) {
      b.append("trusted-certificates=").append(tls.getTrustedCertificates());
    }
    if (tls.getClientKey() != null) {
      b.append(b.length() == 0 ? "" : ", ");
      b.append("client-key=").append(tls.getClientKey());
      b.append(", client-certificate=").append(tls.getClientCertificate());
    }
    return b.toString();
  }

  /** A path as written, {@code file:} prefix allowed. */
  private static String path(String property, String value) {
    String v = value.trim();
    if (v.startsWith("file:")) {
      v = v.substring("file:".length());
    }
    if (v.isEmpty()) {
      throw new InvalidPropertyException(property, value, "must be a file's path");
    }
    return v;
  }

  /** Runs {@code setter}, naming {@code property} (shown as {@code shown}) in any error. */
  private static void set(String property, Object shown, Runnable setter) {
    try {
      setter.run();
    } catch (IllegalArgumentException e) {
      throw new InvalidPropertyException(property, shown, e.getMessage(), e);
    }
  }
}
