/** Ships the producer's batches to Apache Kafka. */
package io.logproducer.kafka;
