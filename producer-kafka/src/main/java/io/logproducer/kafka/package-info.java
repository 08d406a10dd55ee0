/**
 * Ships the producer's batches to Apache Kafka: {@link io.logproducer.kafka.KafkaExporter}, built
 * with {@link io.logproducer.kafka.KafkaExporterBuilder}, in the OpenTelemetry Collector's Kafka
 * encodings ({@link io.logproducer.kafka.KafkaEncoding}).
 */
package io.logproducer.kafka;
