package io.logproducer.spool;

import io.logproducer.Compression;
import io.logproducer.ProducerConfig;

/** The producer settings the spool tests (and their child JVMs) share. */
final class SpoolTestSettings {

  private SpoolTestSettings() {}

  /**
   * {@return a producer config builder: one send thread, batches of 10 records (linger 5 ms),
   * retries every 10 to 50 ms, deliveryTimeoutMillis {@code deliveryMillis}, no compression, no
   * JMX, no shutdown hook; the caller sets the spool}
   */
  static ProducerConfig.Builder producer(String clientId, long deliveryMillis) {
    return ProducerConfig.builder()
        .setClientId(clientId)
        .setLingerMillis(5)
        .setBatchCountThreshold(10)
        .setDeliveryTimeoutMillis(deliveryMillis)
        .setInitialRetryBackoffMillis(10)
        .setMaxRetryBackoffMillis(50)
        .setSendThreads(1)
        .setCompression(Compression.NONE)
        .setJmxEnabled(false)
        .setShutdownHookEnabled(false);
  }
}
