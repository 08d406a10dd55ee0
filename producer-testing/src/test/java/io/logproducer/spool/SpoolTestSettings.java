package io.logproducer.spool;

import io.logproducer.Compression;
import io.logproducer.LogRecord;
import io.logproducer.ProducerConfig;
import io.logproducer.SpoolConfig;
import io.logproducer.SpoolDurability;
import java.nio.file.Path;

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

  /**
   * {@return a spool config builder on {@code dir}: 64 KiB segments, 8 MiB, group commit every 20
   * ms}
   */
  static SpoolConfig.Builder spool(Path dir) {
    return SpoolConfig.builder(dir)
        .setSegmentBytes(64 * 1024)
        .setMaxBytes(8L << 20)
        .setDurability(SpoolDurability.GROUP_COMMIT)
        .setGroupCommitMillis(20);
  }

  /** {@return record {@code i}: body {@code r-<i>}, destination {@code shard-<i % shards>}} */
  static LogRecord record(int i, int shards) {
    return LogRecord.builder().setBody("r-" + i).setDestination("shard-" + (i % shards)).build();
  }
}
