package io.logproducer.appender;

import io.logproducer.kafka.KafkaEncoding;
import io.logproducer.kafka.KafkaExporter;
import io.logproducer.kafka.KafkaExporterBuilder;
import java.util.Map;

/**
 * The Apache Kafka exporter's settings as a logging framework's XML sets them ({@code
 * producer-kafka}, which the application adds: this module declares it optional). Each setter
 * validates at once and throws {@link IllegalArgumentException} naming the setting. Not
 * thread-safe: filled once, before the appender starts.
 */
public final class KafkaSettings {

  private final KafkaExporterBuilder builder = KafkaExporter.builder();

  /**
   * Creates settings with the exporter's defaults (bootstrap {@value
   * KafkaExporter#DEFAULT_BOOTSTRAP_SERVERS}, topic {@value KafkaExporter#DEFAULT_TOPIC}, {@code
   * otlp_proto}).
   */
  public KafkaSettings() {}

  /**
   * See {@link KafkaExporterBuilder#setBootstrapServers(String)}.
   *
   * @param servers {@code host:port} pairs separated by commas
   */
  public void setBootstrapServers(String servers) {
    builder.setBootstrapServers(servers);
  }

  /**
   * See {@link KafkaExporterBuilder#setTopic(String)}.
   *
   * @param topic the topic of every event
   */
  public void setTopic(String topic) {
    builder.setTopic(topic);
  }

  /**
   * {@code otlp_proto} (the default), {@code otlp_json} or {@code raw} (the formatted message as
   * the value).
   *
   * @param encoding the name
   * @throws IllegalArgumentException if unknown
   */
  public void setEncoding(String encoding) {
    builder.setEncoding(KafkaEncoding.fromName(encoding));
  }

  /**
   * See {@link KafkaExporterBuilder#setKeyAttribute(String)}: e.g. an MDC key, which the appender
   * maps to an attribute of the same name.
   *
   * @param attributeKey the attribute whose value keys the messages
   */
  public void setKeyAttribute(String attributeKey) {
    builder.setKeyAttribute(attributeKey);
  }

  /**
   * See {@link KafkaExporterBuilder#setServiceName(String)}.
   *
   * @param name the service's name
   */
  public void setServiceName(String name) {
    builder.setServiceName(name);
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
      builder.setResourceAttribute(e.getKey(), e.getValue());
    }
  }

  /**
   * One Kafka producer property (security, SASL, TLS, {@code acks}, …; see {@link
   * KafkaExporterBuilder#setProperty(String, Object)}).
   *
   * @param property {@code name=value}
   * @throws IllegalArgumentException if not {@code name=value} or the exporter refuses it
   */
  public void addProperty(String property) {
    int eq = property == null ? -1 : property.indexOf('=');
    if (eq <= 0) {
      throw new IllegalArgumentException(
          "property must be name=value (the text is not shown: it may hold a password)");
    }
    builder.setProperty(property.substring(0, eq).trim(), property.substring(eq + 1).trim());
  }

  /**
   * Several Kafka producer properties.
   *
   * @param properties {@code name=value} items separated by commas or new lines
   * @throws IllegalArgumentException if an item is not {@code name=value} or the exporter refuses
   *     it
   */
  public void setProperties(String properties) {
    if (properties == null) {
      return;
    }
    for (String item : properties.split("[,\\n]")) {
      if (!item.trim().isEmpty()) {
        addProperty(item.trim());
      }
    }
  }

  /**
   * Builds the exporter.
   *
   * @param scopeName the {@code InstrumentationScope} name of records without a logger name
   * @param scopeFromRecords whether each record's scope name (the logger name) becomes its {@code
   *     InstrumentationScope}
   * @return a new exporter
   * @throws IllegalArgumentException if the settings are invalid
   */
  public KafkaExporter build(String scopeName, boolean scopeFromRecords) {
    return builder
        .setScope(scopeName, null)
        .setInstrumentationScopeFromRecords(scopeFromRecords)
        .build();
  }
}
