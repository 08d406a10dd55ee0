package io.logproducer.spring.boot.autoconfigure;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The Kafka exporter's properties ({@code logproducer.kafka.*}); needs {@code producer-kafka}.
 *
 * <p>Not thread-safe: bound once, at start-up, before any use.
 */
public class KafkaProperties {

  /** host:port pairs of the Kafka brokers, comma-separated (required for kafka). */
  private String bootstrapServers;

  /** The topic of every record (required for kafka). */
  private String topic;

  /** otlp_proto (the default), otlp_json or raw. */
  private String encoding;

  /** The record attribute whose value keys the Kafka messages. Default: none (round-robin). */
  private String keyAttribute;

  /** More Kafka client properties, e.g. security.protocol. */
  private Map<String, String> properties = new LinkedHashMap<>();

  /** Creates the defaults. */
  public KafkaProperties() {}

  /** {@return {@code logproducer.kafka.bootstrap-servers}} */
  public String getBootstrapServers() {
    return bootstrapServers;
  }

  /**
   * Sets {@code logproducer.kafka.bootstrap-servers}.
   *
   * @param bootstrapServers host:port pairs of the Kafka brokers, comma-separated (required for
   *     kafka).
   */
  public void setBootstrapServers(String bootstrapServers) {
    this.bootstrapServers = bootstrapServers;
  }

  /** {@return {@code logproducer.kafka.topic}} */
  public String getTopic() {
    return topic;
  }

  /**
   * Sets {@code logproducer.kafka.topic}.
   *
   * @param topic the topic of every record (required for kafka).
   */
  public void setTopic(String topic) {
    this.topic = topic;
  }

  /** {@return {@code logproducer.kafka.encoding}} */
  public String getEncoding() {
    return encoding;
  }

  /**
   * Sets {@code logproducer.kafka.encoding}.
   *
   * @param encoding otlp_proto (the default), otlp_json or raw.
   */
  public void setEncoding(String encoding) {
    this.encoding = encoding;
  }

  /** {@return {@code logproducer.kafka.key-attribute}} */
  public String getKeyAttribute() {
    return keyAttribute;
  }

  /**
   * Sets {@code logproducer.kafka.key-attribute}.
   *
   * @param keyAttribute the record attribute whose value keys the Kafka messages. Default: none
   *     (round-robin).
   */
  public void setKeyAttribute(String keyAttribute) {
    this.keyAttribute = keyAttribute;
  }

  /** {@return {@code logproducer.kafka.properties}} */
  public Map<String, String> getProperties() {
    return properties;
  }

  /**
   * Sets {@code logproducer.kafka.properties}.
   *
   * @param properties more Kafka client properties, e.g. security.protocol.
   */
  public void setProperties(Map<String, String> properties) {
    this.properties = properties;
  }
}
