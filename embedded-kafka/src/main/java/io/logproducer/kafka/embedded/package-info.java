/**
 * A single-node KRaft Apache Kafka broker in a child JVM on 127.0.0.1, for tests and demos: {@link
 * io.logproducer.kafka.embedded.EmbeddedKafkaBroker}. Not a published library.
 */
package io.logproducer.kafka.embedded;
