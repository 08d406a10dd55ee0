/**
 * Kafka in the test kit: {@link io.logproducer.testing.kafka.TopicReader} reads a topic back with a
 * real consumer and decodes what the Kafka exporter writes. Needs kafka-clients (3.x or 4.x) on the
 * class path, which the kit declares optional.
 */
package io.logproducer.testing.kafka;
