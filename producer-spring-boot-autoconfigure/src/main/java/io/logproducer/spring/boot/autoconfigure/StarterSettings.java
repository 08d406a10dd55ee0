package io.logproducer.spring.boot.autoconfigure;

import io.logproducer.Producer;
import io.logproducer.appender.AppenderSpoolSettings;
import io.logproducer.appender.GseSettings;
import io.logproducer.appender.KafkaSettings;
import io.logproducer.appender.MappingSettings;
import io.logproducer.appender.ProducerSettings;
import io.logproducer.appender.SettingsProducer;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import org.springframework.util.unit.DataSize;

/**
 * The {@code logproducer.*} properties turned into the settings objects the appenders use, each
 * value checked where it is applied so that an error names the property. Package-private: the
 * starter's own.
 */
final class StarterSettings {

  /** The appender's name in the logging system, and the default client id's base. */
  static final String APPENDER_NAME = "LOGPRODUCER";

  /** {@code logproducer.shutdown-timeout}'s default when the phase timeout is not set either. */
  static final Duration DEFAULT_SHUTDOWN_TIMEOUT = Duration.ofSeconds(30);

  private final LogproducerProperties properties;
  private final String applicationName;
  private final Duration phaseTimeout;

  // Filled by validate(): what the producer and the appender are built from.
  private boolean validated;
  private ProducerSettings producerSettings;
  private StarterOtlp otlp;
  private GseSettings gse;
  private KafkaSettings kafka;
  private MappingSettings mapping;
  private long shutdownTimeoutMillis;

  /**
   * @param properties the bound properties
   * @param applicationName {@code spring.application.name}, or null
   */
  StarterSettings(LogproducerProperties properties, String applicationName) {
    this(properties, applicationName, null);
  }

  /**
   * @param properties the bound properties
   * @param applicationName {@code spring.application.name}, or null
   * @param phaseTimeout {@code spring.lifecycle.timeout-per-shutdown-phase}, or null
   */
  StarterSettings(LogproducerProperties properties, String applicationName, Duration phaseTimeout) {
    this.properties = properties;
    this.applicationName = applicationName;
    this.phaseTimeout = phaseTimeout;
  }

  /** {@return the bound properties} */
  LogproducerProperties properties() {
    return properties;
  }

  /**
   * Checks every {@code logproducer.*} property at once, before anything starts: the producer's,
   * the chosen exporter's (whose module must be on the class path), the spool's, the appender's,
   * the shutdown timeout and the health rule's. Idempotent.
   *
   * @throws InvalidPropertyException naming the first invalid property (for a missing exporter
   *     module: {@code logproducer.exporter}, with the module to add)
   */
  void validate() {
    if (validated) {
      return;
    }
    Duration timeout = properties.getShutdownTimeout();
    if (timeout == null) {
      timeout = phaseTimeout != null ? phaseTimeout : DEFAULT_SHUTDOWN_TIMEOUT;
    }
    if (timeout.isNegative()) {
      throw new InvalidPropertyException(
          properties.getShutdownTimeout() != null
              ? "logproducer.shutdown-timeout"
              : "spring.lifecycle.timeout-per-shutdown-phase",
          timeout,
          "must not be negative");
    }
    HealthProperties health = properties.getHealth();
    // The rule ProducerHealth applies, checked here so that it fails before the producer starts.
    if (health.getStallTimeout() == null || health.getStallTimeout().toMillis() < 1) {
      throw new InvalidPropertyException(
          "logproducer.health.stall-timeout", health.getStallTimeout(), "must be at least 1ms");
    }
    if (health.getFailedBatches() < 1) {
      throw new InvalidPropertyException(
          "logproducer.health.failed-batches", health.getFailedBatches(), "must be at least 1");
    }
    ProducerSettings settings = producerSettings();
    ExporterKind kind = properties.getExporter();
    try {
      // The settings classes link to the exporter's module (producer-otlp, -gse, -kafka).
      otlp = kind == ExporterKind.OTLP ? otlpSettings() : null;
      gse = kind == ExporterKind.GSE ? gseSettings() : null;
      kafka = kind == ExporterKind.KAFKA ? kafkaSettings() : null;
    } catch (LinkageError e) {
      throw new InvalidPropertyException(
          "logproducer.exporter", kind.name().toLowerCase(Locale.ROOT), linkageReason(kind, e), e);
    }
    mapping = mapping();
    producerSettings = settings;
    shutdownTimeoutMillis = timeout.toMillis();
    validated = true;
  }

  /**
   * {@return how long the context's close lets buffered records ship: {@code
   * logproducer.shutdown-timeout}, else the phase timeout, else 30 s}
   *
   * @throws InvalidPropertyException if a property is invalid ({@link #validate()})
   */
  long shutdownTimeoutMillis() {
    validate();
    return shutdownTimeoutMillis;
  }

  /**
   * {@return the appender's mapping, validated}
   *
   * @throws InvalidPropertyException if a property is invalid ({@link #validate()})
   */
  MappingSettings validatedMapping() {
    validate();
    return mapping;
  }

  /**
   * Builds and starts the producer, after {@link #validate()}.
   *
   * @return the running producer
   * @throws InvalidPropertyException if a property is invalid (it is named)
   */
  Producer buildProducer() {
    validate();
    ExporterKind kind = properties.getExporter();
    try {
      if (otlp != null) { // the properties mapped onto OtlpSettings, errors naming them
        return new Producer(
            producerSettings.toConfig(APPENDER_NAME),
            otlp.build(
                "io.logproducer.spring",
                properties.getAppender().isScopeFromLogger(),
                describeReceiver()));
      }
      return SettingsProducer.build(
          APPENDER_NAME,
          producerSettings,
          null,
          gse,
          kafka,
          "io.logproducer.spring",
          properties.getAppender().isScopeFromLogger());
    } catch (LinkageError e) {
      throw new InvalidPropertyException(
          "logproducer.exporter", kind.name().toLowerCase(Locale.ROOT), linkageReason(kind, e), e);
    } catch (InvalidPropertyException e) {
      throw e;
    } catch (IllegalArgumentException | IllegalStateException e) {
      String message = String.valueOf(e.getMessage());
      if (message.contains("deliveryTimeout")) { // the exporter's deadline against the producer's
        throw new InvalidPropertyException(
            "logproducer.producer.delivery-timeout",
            properties.getProducer().getDeliveryTimeout(),
            message,
            e);
      }
      throw new InvalidPropertyException(
          "logproducer." + kind.name().toLowerCase(Locale.ROOT), describeReceiver(), message, e);
    }
  }

  /**
   * Why the exporter's classes do not link: an httpclient5 older than the OTLP exporter needs (what
   * Spring Boot 2.7's dependency management gives), or the exporter's module missing.
   */
  static String linkageReason(ExporterKind kind, LinkageError e) {
    String missing = String.valueOf(e.getMessage());
    if (missing.contains("org/apache/hc/") || missing.contains("org.apache.hc.")) {
      return "the OTLP exporter needs httpclient5 5.4 or newer with its httpcore5 (5.3+), and this"
          + " class path has an older one (Spring Boot 2.7 manages 5.1: set the properties"
          + " httpclient5.version=5.5.1 and httpcore5.version=5.3.6): "
          + e;
    }
    String module = "producer-" + kind.name().toLowerCase(Locale.ROOT);
    return "its module is not on the class path (add io.logproducer:" + module + "): " + e;
  }

  /**
   * {@return the context waiting for {@code logproducer.otlp.ssl.bundle}, or null}
   *
   * @throws InvalidPropertyException if a property is invalid ({@link #validate()})
   */
  BundleSslContext bundleSslContext() {
    validate();
    return otlp != null ? otlp.bundleContext() : null;
  }

  /**
   * {@return where records go, for the health details and messages: the endpoint's user-info is
   * masked}
   */
  String describeReceiver() {
    switch (properties.getExporter()) {
      case GSE:
        GseProperties g = properties.getGse();
        return "gse " + (g.getSocketPath() != null ? g.getSocketPath() : g.getTcpEndpoint());
      case KAFKA:
        KafkaProperties k = properties.getKafka();
        return "kafka " + k.getBootstrapServers() + " topic " + k.getTopic();
      default:
        String endpoint = properties.getOtlp().getEndpoint();
        return "otlp "
            + (endpoint != null
                ? Secrets.redactUrl(endpoint)
                : "(OTEL_EXPORTER_OTLP_ENDPOINT or default)");
    }
  }

  /** {@return the client id: {@code logproducer.client-id}, else the application's name} */
  String clientId() {
    if (properties.getClientId() != null) {
      return properties.getClientId();
    }
    return applicationName != null && !applicationName.trim().isEmpty()
        ? "logproducer-" + applicationName.trim()
        : "logproducer";
  }

  /**
   * {@return {@code logproducer.service-name}, else {@code spring.application.name} unless blank
   * (as {@code SPRING_APPLICATION_NAME=} gives it: unset, as for the client id), else null (the
   * exporter's default)}
   */
  String serviceName() {
    if (properties.getServiceName() != null) {
      return properties.getServiceName();
    }
    return applicationName != null && !applicationName.trim().isEmpty() ? applicationName : null;
  }

  ProducerSettings producerSettings() {
    BatchingProperties p = properties.getProducer();
    String prefix = "logproducer.producer.";
    ProducerSettings s = new ProducerSettings();
    apply("logproducer.client-id", clientId(), s::setClientId);
    applyBytes(prefix + "total-size", p.getTotalSize(), s::setTotalSizeInBytes);
    applyBytes(prefix + "batch-size", p.getBatchSize(), v -> s.setBatchSizeInBytes(toInt(v)));
    apply(prefix + "batch-count", p.getBatchCount(), s::setBatchCountThreshold);
    applyMillis(prefix + "linger", p.getLinger(), s::setLingerMillis);
    apply(prefix + "send-threads", p.getSendThreads(), s::setSendThreads);
    apply(prefix + "retries", p.getRetries(), s::setRetries);
    applyMillis(
        prefix + "initial-retry-backoff",
        p.getInitialRetryBackoff(),
        s::setInitialRetryBackoffMillis);
    applyMillis(prefix + "max-retry-backoff", p.getMaxRetryBackoff(), s::setMaxRetryBackoffMillis);
    applyMillis(prefix + "delivery-timeout", p.getDeliveryTimeout(), s::setDeliveryTimeoutMillis);
    apply(prefix + "buffer-full-policy", p.getBufferFullPolicy(), s::setBufferFullPolicy);
    applyMillis(prefix + "max-block", p.getMaxBlock(), s::setMaxBlockMillis);
    apply(prefix + "compression", p.getCompression(), s::setCompression);
    apply(prefix + "compression-level", p.getCompressionLevel(), s::setCompressionLevel);
    apply(
        prefix + "max-attributes-per-record",
        p.getMaxAttributesPerRecord(),
        s::setMaxAttributesPerRecord);
    apply(
        prefix + "max-attribute-value-length",
        p.getMaxAttributeValueLength(),
        s::setMaxAttributeValueLength);
    s.setJmxEnabled(p.isJmxEnabled());
    // The application context's close ships what is buffered (LogproducerRuntime): no JVM hook.
    s.setShutdownHookEnabled(false);
    AppenderSpoolSettings spool = spoolSettings();
    if (spool != null) {
      s.useSpool(spool);
    }
    try {
      s.toConfig(APPENDER_NAME);
    } catch (IllegalArgumentException e) {
      throw new InvalidPropertyException("logproducer.producer", "(combination)", e.getMessage());
    }
    return s;
  }

  private AppenderSpoolSettings spoolSettings() {
    SpoolProperties p = properties.getSpool();
    if (p.getDirectory() == null || p.getDirectory().trim().isEmpty()) {
      return null;
    }
    String prefix = "logproducer.spool.";
    AppenderSpoolSettings s = new AppenderSpoolSettings();
    apply(prefix + "directory", p.getDirectory(), s::setDirectory);
    applyBytes(prefix + "max-size", p.getMaxSize(), s::setMaxBytes);
    applyBytes(prefix + "segment-size", p.getSegmentSize(), s::setSegmentBytes);
    apply(prefix + "durability", p.getDurability(), s::setDurability);
    applyMillis(prefix + "group-commit", p.getGroupCommit(), s::setGroupCommitMillis);
    apply(prefix + "full-policy", p.getFullPolicy(), s::setFullPolicy);
    applyMillis(prefix + "max-block", p.getMaxBlock(), s::setMaxBlockMillis);
    applyMillis(prefix + "max-age", p.getMaxAge(), s::setMaxAgeMillis);
    apply(prefix + "min-free-disk-share", p.getMinFreeDiskShare(), s::setMinFreeDiskShare);
    apply(prefix + "replay-share", p.getReplayShare(), s::setReplayShare);
    try {
      s.toSpoolConfig();
    } catch (IllegalArgumentException e) {
      throw new InvalidPropertyException("logproducer.spool", p.getDirectory(), e.getMessage());
    }
    return s;
  }

  private StarterOtlp otlpSettings() {
    return new StarterOtlp(properties.getOtlp(), serviceName(), properties.getResourceAttributes());
  }

  private GseSettings gseSettings() {
    GseProperties p = properties.getGse();
    String prefix = "logproducer.gse.";
    if (p.getDataId() == null) {
      throw new InvalidPropertyException(
          prefix + "data-id", null, "required with logproducer.exporter=gse");
    }
    if (p.getSocketPath() == null && p.getTcpEndpoint() == null) {
      throw new InvalidPropertyException(
          prefix + "socket-path", null, "set it (or logproducer.gse.tcp-endpoint) for gse");
    }
    GseSettings s = new GseSettings();
    apply(prefix + "socket-path", p.getSocketPath(), s::setUnixSocketPath);
    apply(prefix + "tcp-endpoint", p.getTcpEndpoint(), s::setTcpEndpoint);
    apply(prefix + "data-id", p.getDataId(), s::setDataId);
    apply(prefix + "frame-type", p.getFrameType(), s::setFrameType);
    apply(prefix + "item-format", p.getItemFormat(), s::setItemFormat);
    applyMillis(prefix + "write-timeout", p.getWriteTimeout(), s::setWriteTimeoutMillis);
    return s;
  }

  private KafkaSettings kafkaSettings() {
    KafkaProperties p = properties.getKafka();
    String prefix = "logproducer.kafka.";
    if (p.getBootstrapServers() == null || p.getBootstrapServers().trim().isEmpty()) {
      throw new InvalidPropertyException(
          prefix + "bootstrap-servers", null, "required with logproducer.exporter=kafka");
    }
    if (p.getTopic() == null || p.getTopic().trim().isEmpty()) {
      throw new InvalidPropertyException(
          prefix + "topic", null, "required with logproducer.exporter=kafka");
    }
    KafkaSettings s = new KafkaSettings();
    apply(prefix + "bootstrap-servers", p.getBootstrapServers(), s::setBootstrapServers);
    apply(prefix + "topic", p.getTopic(), s::setTopic);
    apply(prefix + "encoding", p.getEncoding(), s::setEncoding);
    apply(prefix + "key-attribute", p.getKeyAttribute(), s::setKeyAttribute);
    // One property at a time (a value may hold commas: sasl.jaas.config); an error shows the
    // name, and a secret-looking property's value masked, also in the exporter's reason.
    for (Map.Entry<String, String> e : p.getProperties().entrySet()) {
      String item = e.getKey() + "=" + e.getValue();
      boolean secret = Secrets.isSecretKafkaProperty(e.getKey());
      try {
        s.addProperty(item);
      } catch (IllegalArgumentException x) {
        String reason = String.valueOf(x.getMessage());
        if (secret && e.getValue() != null && !e.getValue().trim().isEmpty()) {
          reason = reason.replace(e.getValue().trim(), Secrets.MASK);
        }
        throw new InvalidPropertyException(
            prefix + "properties." + e.getKey(),
            secret ? Secrets.MASK : e.getValue(),
            reason,
            secret ? null : x);
      }
    }
    apply("logproducer.service-name", serviceName(), s::setServiceName);
    StringBuilder resource = new StringBuilder();
    for (Map.Entry<String, String> a : properties.getResourceAttributes().entrySet()) {
      resource.append(resource.length() == 0 ? "" : ",").append(a.getKey()).append('=');
      resource.append(a.getValue());
    }
    apply(
        "logproducer.resource-attributes",
        resource.length() == 0 ? null : resource.toString(),
        s::setResourceAttributes);
    return s;
  }

  /**
   * {@return the appender's mapping}
   *
   * @throws InvalidPropertyException if a property is invalid
   */
  MappingSettings mapping() {
    AppenderProperties p = properties.getAppender();
    String prefix = "logproducer.appender.";
    MappingSettings m = new MappingSettings();
    apply(prefix + "mdc-include", join(p.getMdcInclude()), m::setMdcInclude);
    apply(prefix + "mdc-exclude", join(p.getMdcExclude()), m::setMdcExclude);
    m.setCaptureKeyValues(p.isCaptureKeyValues());
    m.setCaptureMarkers(p.isCaptureMarkers());
    m.setCaptureThread(p.isCaptureThread());
    m.setCaptureCode(p.isCaptureCode());
    m.setScopeFromLogger(p.isScopeFromLogger());
    m.setExceptionMaxFrames(p.getExceptionMaxFrames());
    apply(prefix + "trace-context", p.getTraceContext(), m::setTraceContext);
    apply(prefix + "trace-id-key", p.getTraceIdKey(), m::setTraceIdKey);
    apply(prefix + "span-id-key", p.getSpanIdKey(), m::setSpanIdKey);
    apply(prefix + "trace-flags-key", p.getTraceFlagsKey(), m::setTraceFlagsKey);
    if (p.getQueueSize() < 0 || p.getQueueSize() > 1 << 20) {
      throw new InvalidPropertyException(
          prefix + "queue-size", p.getQueueSize(), "must be in [0, 1048576]");
    }
    if (p.getReportInterval() == null || p.getReportInterval().toMillis() < 1) {
      throw new InvalidPropertyException(
          prefix + "report-interval", p.getReportInterval(), "must be at least 1ms");
    }
    return m;
  }

  private static String join(List<String> keys) {
    return keys == null ? null : String.join(",", keys);
  }

  /** Applies a duration in milliseconds; an error shows the value as {@code <millis>ms}. */
  private static void applyMillis(String property, Duration value, Consumer<Long> setter) {
    if (value != null) {
      applyShown(property, value.toMillis(), value.toMillis() + "ms", setter);
    }
  }

  /** Applies a size in bytes; an error shows the value as {@code <bytes>B}. */
  private static void applyBytes(String property, DataSize value, Consumer<Long> setter) {
    if (value != null) {
      applyShown(property, value.toBytes(), value.toBytes() + "B", setter);
    }
  }

  private static int toInt(Long v) {
    if (v > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("must be less than 2GB");
    }
    return (int) (long) v;
  }

  /** Applies {@code value} (when set), naming {@code property} in any error. */
  private static <T> void apply(String property, T value, Consumer<T> setter) {
    if (value != null) {
      applyShown(property, value, value, setter);
    }
  }

  private static <T> void applyShown(String property, T value, Object shown, Consumer<T> setter) {
    try {
      setter.accept(value);
    } catch (IllegalArgumentException e) {
      throw new InvalidPropertyException(property, shown, e.getMessage());
    }
  }
}
