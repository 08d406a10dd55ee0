package io.logproducer.spring.boot.autoconfigure;

/** The exporter {@code logproducer.exporter} selects. */
public enum ExporterKind {
  /** OTLP/HTTP: an OpenTelemetry Collector, BlueKing bk-collector, any OTLP receiver. */
  OTLP,
  /** A BlueKing GSE agent, over its local socket. */
  GSE,
  /** Apache Kafka (needs {@code producer-kafka}). */
  KAFKA
}
