package io.logproducer.kafka;

import java.util.Locale;

/**
 * What one Kafka message holds, named as the OpenTelemetry Collector's Kafka exporter and receiver
 * name their encodings ({@code opentelemetry-collector-contrib}, {@code receiver/kafkareceiver} and
 * {@code exporter/kafkaexporter}: {@code encoding: otlp_proto | otlp_json | raw}).
 */
public enum KafkaEncoding {
  /**
   * {@code otlp_proto} (the default, the Collector's default): one message per sealed batch, value
   * = one protobuf-serialized {@code ExportLogsServiceRequest} (resource, scope and the batch's
   * records), no framing or prefix. Read by the Collector's Kafka receiver with {@code encoding:
   * otlp_proto}.
   */
  OTLP_PROTO("otlp_proto"),
  /**
   * {@code otlp_json}: as {@link #OTLP_PROTO}, the request in OTLP/JSON (the OTLP/HTTP JSON
   * mapping: hex trace ids, integers as strings where the mapping says so). Read by the Collector
   * with {@code encoding: otlp_json}.
   */
  OTLP_JSON("otlp_json"),
  /**
   * {@code raw}: one message per log record, value = the record's body (a string body as UTF-8, a
   * bytes body as is, a bool/int/double body as its text, an array or key-value list body as plain
   * JSON, no body as an empty value); key = the {@linkplain
   * KafkaExporterBuilder#setKeyAttribute(String) key attribute}'s value as UTF-8, or none. For
   * consumers that want plain lines; attributes, severity and timestamps are not sent.
   */
  RAW("raw");

  private final String configName;

  KafkaEncoding(String configName) {
    this.configName = configName;
  }

  /** {@return the Collector's name for it: {@code otlp_proto}, {@code otlp_json} or {@code raw}} */
  public String configName() {
    return configName;
  }

  /**
   * The encoding named {@code name}: the Collector's names ({@code otlp_proto}, {@code otlp_json},
   * {@code raw}) or the constant names, case-insensitive.
   *
   * @param name the name
   * @return the encoding
   * @throws IllegalArgumentException if {@code name} is null or names none of them
   */
  public static KafkaEncoding fromName(String name) {
    if (name != null) {
      String n = name.trim().toLowerCase(Locale.ROOT);
      for (KafkaEncoding e : values()) {
        if (e.configName.equals(n) || e.name().toLowerCase(Locale.ROOT).equals(n)) {
          return e;
        }
      }
    }
    throw new IllegalArgumentException(
        "Kafka encoding must be otlp_proto, otlp_json or raw, was " + name);
  }
}
