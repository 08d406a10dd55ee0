package io.logproducer.log4j2;

import io.logproducer.appender.KafkaSettings;
import org.apache.logging.log4j.core.config.Node;
import org.apache.logging.log4j.core.config.plugins.Plugin;
import org.apache.logging.log4j.core.config.plugins.PluginAttribute;
import org.apache.logging.log4j.core.config.plugins.PluginFactory;

/**
 * The {@code <Kafka>} element of a {@code <Logproducer>} appender: the Apache Kafka exporter (needs
 * {@code io.logproducer:producer-kafka} on the class path). Attributes as {@link KafkaSettings}.
 */
@Plugin(name = "Kafka", category = Node.CATEGORY, printObject = true)
public final class KafkaElement {

  private final KafkaSettings settings;
  private final boolean valid;

  private KafkaElement(KafkaSettings settings, boolean valid) {
    this.settings = settings;
    this.valid = valid;
  }

  /**
   * Creates the element from its XML attributes; an invalid value is reported on log4j2's status
   * channel (naming it) and keeps the appender from being created.
   *
   * @param bootstrapServers Kafka's {@code bootstrap.servers}
   * @param topic the topic of every event (default {@code otlp_logs})
   * @param encoding {@code otlp_proto} (default), {@code otlp_json} or {@code raw}
   * @param keyAttribute the attribute (e.g. a ThreadContext key) whose value keys the messages
   * @param serviceName the {@code service.name} resource attribute
   * @param resourceAttributes string resource attributes, {@code key=value} items separated by
   *     commas
   * @param properties Kafka producer properties, {@code name=value} items separated by commas
   * @return the element
   */
  @PluginFactory
  public static KafkaElement createKafka(
      @PluginAttribute("bootstrapServers") String bootstrapServers,
      @PluginAttribute("topic") String topic,
      @PluginAttribute("encoding") String encoding,
      @PluginAttribute("keyAttribute") String keyAttribute,
      @PluginAttribute("serviceName") String serviceName,
      @PluginAttribute("resourceAttributes") String resourceAttributes,
      @PluginAttribute(value = "properties", sensitive = true) String properties) {
    final KafkaSettings s = new KafkaSettings();
    Settings a =
        new Settings("Kafka")
            .apply("bootstrapServers", bootstrapServers, s::setBootstrapServers)
            .apply("topic", topic, s::setTopic)
            .apply("encoding", encoding, s::setEncoding)
            .apply("keyAttribute", keyAttribute, s::setKeyAttribute)
            .apply("serviceName", serviceName, s::setServiceName)
            .apply("resourceAttributes", resourceAttributes, s::setResourceAttributes)
            .applySecret("properties", properties, s::setProperties);
    return new KafkaElement(s, a.valid());
  }

  KafkaSettings settings() {
    return settings;
  }

  boolean valid() {
    return valid;
  }

  @Override
  public String toString() {
    return "Kafka";
  }
}
