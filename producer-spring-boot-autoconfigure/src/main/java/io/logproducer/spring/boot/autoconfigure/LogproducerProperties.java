package io.logproducer.spring.boot.autoconfigure;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;

/**
 * The {@code logproducer.*} properties of the Spring Boot starter: which exporter, where, the
 * producer's batching and memory settings, the appender's mapping, the disk spool and the health
 * rule. Every property has a default; an application that sets {@code logproducer.otlp.endpoint}
 * (or the GSE / Kafka equivalents with {@code logproducer.exporter}) ships its logs. Invalid values
 * stop the application at start with a message that names the property.
 *
 * <p>Not thread-safe: bound once, at start-up, before any use.
 */
@ConfigurationProperties(prefix = "logproducer")
public class LogproducerProperties {

  /**
   * Whether the starter creates the producer and installs its appender; false turns the starter
   * off.
   */
  private boolean enabled = true;

  /**
   * Where records go: otlp (OTLP/HTTP: an OpenTelemetry Collector, bk-collector), gse (a BlueKing
   * GSE agent's local socket) or kafka.
   */
  private ExporterKind exporter = ExporterKind.OTLP;

  /**
   * The producer's client id: prefix of its thread names, its JMX name, the client.id tag of its
   * metrics. Default: "logproducer-" followed by spring.application.name, else "logproducer".
   */
  private String clientId;

  /**
   * The service.name Resource attribute (otlp, kafka). Default: spring.application.name unless
   * blank, else the exporter's.
   */
  private String serviceName;

  /** More Resource attributes (otlp, kafka), e.g. deployment.environment.name=prod. */
  private Map<String, String> resourceAttributes = new LinkedHashMap<>();

  /**
   * How long closing the application context may take to ship what is buffered. Default:
   * spring.lifecycle.timeout-per-shutdown-phase (30s).
   */
  private Duration shutdownTimeout;

  /** The OTLP/HTTP exporter (logproducer.exporter=otlp). */
  @NestedConfigurationProperty private final OtlpProperties otlp = new OtlpProperties();

  /** The BlueKing GSE exporter (logproducer.exporter=gse). */
  @NestedConfigurationProperty private final GseProperties gse = new GseProperties();

  /** The Kafka exporter (logproducer.exporter=kafka; needs producer-kafka on the class path). */
  @NestedConfigurationProperty private final KafkaProperties kafka = new KafkaProperties();

  /** The producer: memory budget, batching, retries, compression. */
  @NestedConfigurationProperty private final BatchingProperties producer = new BatchingProperties();

  /** How log events become records, and the appender's own queue. */
  @NestedConfigurationProperty private final AppenderProperties appender = new AppenderProperties();

  /**
   * The disk spool: where records wait out outages and restarts (off unless a directory is set).
   */
  @NestedConfigurationProperty private final SpoolProperties spool = new SpoolProperties();

  /** The actuator health indicator's rule. */
  @NestedConfigurationProperty private final HealthProperties health = new HealthProperties();

  /** Creates the defaults. */
  public LogproducerProperties() {}

  /** {@return {@code logproducer.enabled}} */
  public boolean isEnabled() {
    return enabled;
  }

  /**
   * Sets {@code logproducer.enabled}.
   *
   * @param enabled whether the starter creates the producer and installs its appender; false turns
   *     the starter off.
   */
  public void setEnabled(boolean enabled) {
    this.enabled = enabled;
  }

  /** {@return {@code logproducer.exporter}} */
  public ExporterKind getExporter() {
    return exporter;
  }

  /**
   * Sets {@code logproducer.exporter}.
   *
   * @param exporter where records go: otlp (OTLP/HTTP: an OpenTelemetry Collector, bk-collector),
   *     gse (a BlueKing GSE agent's local socket) or kafka.
   */
  public void setExporter(ExporterKind exporter) {
    this.exporter = exporter;
  }

  /** {@return {@code logproducer.client-id}} */
  public String getClientId() {
    return clientId;
  }

  /**
   * Sets {@code logproducer.client-id}.
   *
   * @param clientId the producer's client id: prefix of its thread names, its JMX name, the
   *     client.id tag of its metrics. Default: "logproducer-" followed by spring.application.name,
   *     else "logproducer".
   */
  public void setClientId(String clientId) {
    this.clientId = clientId;
  }

  /** {@return {@code logproducer.service-name}} */
  public String getServiceName() {
    return serviceName;
  }

  /**
   * Sets {@code logproducer.service-name}.
   *
   * @param serviceName the service.name Resource attribute (otlp, kafka). Default:
   *     spring.application.name unless blank, else the exporter's.
   */
  public void setServiceName(String serviceName) {
    this.serviceName = serviceName;
  }

  /** {@return {@code logproducer.resource-attributes}} */
  public Map<String, String> getResourceAttributes() {
    return resourceAttributes;
  }

  /**
   * Sets {@code logproducer.resource-attributes}.
   *
   * @param resourceAttributes more Resource attributes (otlp, kafka), e.g.
   *     deployment.environment.name=prod.
   */
  public void setResourceAttributes(Map<String, String> resourceAttributes) {
    this.resourceAttributes = resourceAttributes;
  }

  /** {@return {@code logproducer.shutdown-timeout}} */
  public Duration getShutdownTimeout() {
    return shutdownTimeout;
  }

  /**
   * Sets {@code logproducer.shutdown-timeout}.
   *
   * @param shutdownTimeout how long closing the application context may take to ship what is
   *     buffered. Default: spring.lifecycle.timeout-per-shutdown-phase (30s).
   */
  public void setShutdownTimeout(Duration shutdownTimeout) {
    this.shutdownTimeout = shutdownTimeout;
  }

  /** {@return {@code logproducer.otlp}} */
  public OtlpProperties getOtlp() {
    return otlp;
  }

  /** {@return {@code logproducer.gse}} */
  public GseProperties getGse() {
    return gse;
  }

  /** {@return {@code logproducer.kafka}} */
  public KafkaProperties getKafka() {
    return kafka;
  }

  /** {@return {@code logproducer.producer}} */
  public BatchingProperties getProducer() {
    return producer;
  }

  /** {@return {@code logproducer.appender}} */
  public AppenderProperties getAppender() {
    return appender;
  }

  /** {@return {@code logproducer.spool}} */
  public SpoolProperties getSpool() {
    return spool;
  }

  /** {@return {@code logproducer.health}} */
  public HealthProperties getHealth() {
    return health;
  }
}
