package io.logproducer.log4j2;

import io.logproducer.appender.OtlpSettings;
import org.apache.logging.log4j.core.config.Node;
import org.apache.logging.log4j.core.config.Property;
import org.apache.logging.log4j.core.config.plugins.Plugin;
import org.apache.logging.log4j.core.config.plugins.PluginAttribute;
import org.apache.logging.log4j.core.config.plugins.PluginElement;
import org.apache.logging.log4j.core.config.plugins.PluginFactory;

/**
 * The {@code <Otlp>} element of a {@code <Logproducer>} appender: the OTLP/HTTP exporter. Starts
 * from the standard OpenTelemetry environment variables ({@code OTEL_EXPORTER_OTLP_*}, {@code
 * OTEL_SERVICE_NAME}, {@code OTEL_RESOURCE_ATTRIBUTES}); what the element sets wins. Request
 * headers come from the {@code headers} attribute ({@code name=value,…}) and from {@code <Property
 * name="…" value="…"/>} children. TLS: {@code trustedCertificates} (the CA certificates of a
 * private CA), {@code clientKey} and {@code clientCertificate} (mutual TLS, both or neither), PEM
 * file paths.
 *
 * <p>Header values and the password of an endpoint's user-info are never printed: {@code endpoint}
 * and {@code headers} are sensitive attributes (not shown by log4j2's debug output), and an error
 * in them names the attribute, not the value.
 */
@Plugin(name = "Otlp", category = Node.CATEGORY, printObject = true)
public final class OtlpElement {

  private final OtlpSettings settings;
  private final boolean valid;

  private OtlpElement(OtlpSettings settings, boolean valid) {
    this.settings = settings;
    this.valid = valid;
  }

  /**
   * Creates the element from its XML attributes; an invalid value is reported on log4j2's status
   * channel (naming it) and keeps the appender from being created.
   *
   * @param protocol {@code grpc}, {@code http/protobuf} or {@code http/json} (default: {@code
   *     OTEL_EXPORTER_OTLP_PROTOCOL}, else {@code http/protobuf})
   * @param endpoint the receiver's URL; over HTTP, without a path {@code /v1/logs} is appended
   * @param headers request headers, {@code name=value} items separated by commas
   * @param encoding {@code protobuf} (default) or {@code json}
   * @param compression {@code none}, {@code gzip}, {@code lz4} or {@code zstd}
   * @param timeoutMillis the deadline of one request
   * @param serviceName the resource attribute {@code service.name}
   * @param resourceAttributes string resource attributes, {@code key=value} items separated by
   *     commas
   * @param maxRequestSizeInBytes the uncompressed request bound
   * @param resourceDetection {@code false} to send only the configured resource attributes (default
   *     {@code true}: host, OS, process, container and Kubernetes attributes are detected)
   * @param trustedCertificates the path of a PEM file of the CA certificates that verify an {@code
   *     https://} receiver (default: the JDK's trust store)
   * @param clientKey the path of the client's PEM private key (PKCS#8, unencrypted), for mutual TLS
   * @param clientCertificate the path of the client's PEM certificate chain, for mutual TLS
   * @param properties {@code <Property>} children: one request header each
   * @return the element
   */
  @PluginFactory
  public static OtlpElement createOtlp(
      @PluginAttribute("protocol") String protocol,
      @PluginAttribute(value = "endpoint", sensitive = true) String endpoint,
      @PluginAttribute(value = "headers", sensitive = true) String headers,
      @PluginAttribute("encoding") String encoding,
      @PluginAttribute("compression") String compression,
      @PluginAttribute("timeoutMillis") String timeoutMillis,
      @PluginAttribute("serviceName") String serviceName,
      @PluginAttribute("resourceAttributes") String resourceAttributes,
      @PluginAttribute("maxRequestSizeInBytes") String maxRequestSizeInBytes,
      @PluginAttribute("resourceDetection") String resourceDetection,
      @PluginAttribute("trustedCertificates") String trustedCertificates,
      @PluginAttribute("clientKey") String clientKey,
      @PluginAttribute("clientCertificate") String clientCertificate,
      @PluginElement("Properties") Property[] properties) {
    final OtlpSettings s = new OtlpSettings();
    Settings a =
        new Settings("Otlp")
            .apply("protocol", protocol, s::setProtocol)
            .applySecret("endpoint", endpoint, s::setEndpoint)
            .applySecret("headers", headers, s::setHeaders)
            .apply("encoding", encoding, s::setEncoding)
            .apply("compression", compression, s::setCompression)
            .apply(
                "timeoutMillis",
                timeoutMillis,
                v -> s.setTimeoutMillis(Settings.parseLong("timeoutMillis", v)))
            .apply("serviceName", serviceName, s::setServiceName)
            .apply("resourceAttributes", resourceAttributes, s::setResourceAttributes)
            .apply(
                "maxRequestSizeInBytes",
                maxRequestSizeInBytes,
                v -> s.setMaxRequestSizeInBytes(Settings.parseInt("maxRequestSizeInBytes", v)))
            .apply(
                "resourceDetection",
                resourceDetection,
                v -> s.setResourceDetection(Settings.parseBoolean("resourceDetection", v)))
            .apply("trustedCertificates", trustedCertificates, s::setTrustedCertificates)
            .apply("clientKey", clientKey, s::setClientKey)
            .apply("clientCertificate", clientCertificate, s::setClientCertificate);
    if (properties != null) {
      for (Property p : properties) {
        a.applySecret(
            "Property " + p.getName(), p.getValue(), v -> s.addHeader(p.getName() + "=" + v));
      }
    }
    return new OtlpElement(s, a.valid());
  }

  OtlpSettings settings() {
    return settings;
  }

  boolean valid() {
    return valid;
  }

  @Override
  public String toString() {
    return "Otlp";
  }
}
