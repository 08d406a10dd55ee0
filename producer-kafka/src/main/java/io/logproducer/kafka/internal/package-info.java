/**
 * Internals of the Kafka exporter; not API. {@code KafkaTransport} owns the Kafka client and waits
 * for acknowledgements, {@code KafkaErrors} maps Kafka's exceptions to outcomes, {@code Topics}
 * validates topics and picks shards and partitions, {@code RawRecordEncoder} encodes the {@code
 * raw} messages.
 */
package io.logproducer.kafka.internal;
