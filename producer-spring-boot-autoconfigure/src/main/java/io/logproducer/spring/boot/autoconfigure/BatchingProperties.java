package io.logproducer.spring.boot.autoconfigure;

import java.time.Duration;
import org.springframework.util.unit.DataSize;

/**
 * The producer's properties ({@code logproducer.producer.*}): its memory budget, batching, retries
 * and compression. Unset values keep the appender defaults documented in docs/usage.md.
 *
 * <p>Not thread-safe: bound once, at start-up, before any use.
 */
public class BatchingProperties {

  /** The bound on memory held by records not yet delivered. Default: 100MB. */
  private DataSize totalSize;

  /** The size at which a batch is sealed. Default: 1MB. */
  private DataSize batchSize;

  /** The record count at which a batch is sealed. Default: 32768. */
  private Integer batchCount;

  /** The longest a record waits for its batch to fill. Default: 1s. */
  private Duration linger;

  /** Threads that compress and export batches. Default: 8. */
  private Integer sendThreads;

  /** Retries of a failed batch. Default: unlimited, within deliveryTimeout. */
  private Integer retries;

  /** The first retry's backoff. Default: 100ms. */
  private Duration initialRetryBackoff;

  /** The longest backoff between retries. Default: 5s. */
  private Duration maxRetryBackoff;

  /** How long a record may take from send to its outcome, retries included. Default: 120s. */
  private Duration deliveryTimeout;

  /**
   * What a logging call does when totalSize is reached: drop (the default: the event is dropped and
   * counted) or block (it waits up to maxBlock).
   */
  private String bufferFullPolicy;

  /** How long a logging call may wait for memory under bufferFullPolicy=block. Default: 60s. */
  private Duration maxBlock;

  /** Batch compression: none, gzip, lz4 or zstd. Default: the exporter's. */
  private String compression;

  /** The codec's level (gzip 1-9, zstd 1-22). Default: the codec's. */
  private Integer compressionLevel;

  /** The most attributes one record keeps. Default: 128. */
  private Integer maxAttributesPerRecord;

  /** The longest attribute value, in chars. Default: unlimited. */
  private Integer maxAttributeValueLength;

  /** Whether the producer's metrics are registered as a JMX MBean. */
  private boolean jmxEnabled = true;

  /** Creates the defaults. */
  public BatchingProperties() {}

  /** {@return {@code logproducer.producer.total-size}} */
  public DataSize getTotalSize() {
    return totalSize;
  }

  /**
   * Sets {@code logproducer.producer.total-size}.
   *
   * @param totalSize the bound on memory held by records not yet delivered. Default: 100MB.
   */
  public void setTotalSize(DataSize totalSize) {
    this.totalSize = totalSize;
  }

  /** {@return {@code logproducer.producer.batch-size}} */
  public DataSize getBatchSize() {
    return batchSize;
  }

  /**
   * Sets {@code logproducer.producer.batch-size}.
   *
   * @param batchSize the size at which a batch is sealed. Default: 1MB.
   */
  public void setBatchSize(DataSize batchSize) {
    this.batchSize = batchSize;
  }

  /** {@return {@code logproducer.producer.batch-count}} */
  public Integer getBatchCount() {
    return batchCount;
  }

  /**
   * Sets {@code logproducer.producer.batch-count}.
   *
   * @param batchCount the record count at which a batch is sealed. Default: 32768.
   */
  public void setBatchCount(Integer batchCount) {
    this.batchCount = batchCount;
  }

  /** {@return {@code logproducer.producer.linger}} */
  public Duration getLinger() {
    return linger;
  }

  /**
   * Sets {@code logproducer.producer.linger}.
   *
   * @param linger the longest a record waits for its batch to fill. Default: 1s.
   */
  public void setLinger(Duration linger) {
    this.linger = linger;
  }

  /** {@return {@code logproducer.producer.send-threads}} */
  public Integer getSendThreads() {
    return sendThreads;
  }

  /**
   * Sets {@code logproducer.producer.send-threads}.
   *
   * @param sendThreads threads that compress and export batches. Default: 8.
   */
  public void setSendThreads(Integer sendThreads) {
    this.sendThreads = sendThreads;
  }

  /** {@return {@code logproducer.producer.retries}} */
  public Integer getRetries() {
    return retries;
  }

  /**
   * Sets {@code logproducer.producer.retries}.
   *
   * @param retries retries of a failed batch. Default: 10.
   */
  public void setRetries(Integer retries) {
    this.retries = retries;
  }

  /** {@return {@code logproducer.producer.initial-retry-backoff}} */
  public Duration getInitialRetryBackoff() {
    return initialRetryBackoff;
  }

  /**
   * Sets {@code logproducer.producer.initial-retry-backoff}.
   *
   * @param initialRetryBackoff the first retry's backoff. Default: 100ms.
   */
  public void setInitialRetryBackoff(Duration initialRetryBackoff) {
    this.initialRetryBackoff = initialRetryBackoff;
  }

  /** {@return {@code logproducer.producer.max-retry-backoff}} */
  public Duration getMaxRetryBackoff() {
    return maxRetryBackoff;
  }

  /**
   * Sets {@code logproducer.producer.max-retry-backoff}.
   *
   * @param maxRetryBackoff the longest backoff between retries. Default: 5s.
   */
  public void setMaxRetryBackoff(Duration maxRetryBackoff) {
    this.maxRetryBackoff = maxRetryBackoff;
  }

  /** {@return {@code logproducer.producer.delivery-timeout}} */
  public Duration getDeliveryTimeout() {
    return deliveryTimeout;
  }

  /**
   * Sets {@code logproducer.producer.delivery-timeout}.
   *
   * @param deliveryTimeout how long a record may take from send to its outcome, retries included.
   *     Default: 120s.
   */
  public void setDeliveryTimeout(Duration deliveryTimeout) {
    this.deliveryTimeout = deliveryTimeout;
  }

  /** {@return {@code logproducer.producer.buffer-full-policy}} */
  public String getBufferFullPolicy() {
    return bufferFullPolicy;
  }

  /**
   * Sets {@code logproducer.producer.buffer-full-policy}.
   *
   * @param bufferFullPolicy what a logging call does when totalSize is reached: drop (the default:
   *     the event is dropped and counted) or block (it waits up to maxBlock).
   */
  public void setBufferFullPolicy(String bufferFullPolicy) {
    this.bufferFullPolicy = bufferFullPolicy;
  }

  /** {@return {@code logproducer.producer.max-block}} */
  public Duration getMaxBlock() {
    return maxBlock;
  }

  /**
   * Sets {@code logproducer.producer.max-block}.
   *
   * @param maxBlock how long a logging call may wait for memory under bufferFullPolicy=block.
   *     Default: 60s.
   */
  public void setMaxBlock(Duration maxBlock) {
    this.maxBlock = maxBlock;
  }

  /** {@return {@code logproducer.producer.compression}} */
  public String getCompression() {
    return compression;
  }

  /**
   * Sets {@code logproducer.producer.compression}.
   *
   * @param compression batch compression: none, gzip, lz4 or zstd. Default: the exporter's.
   */
  public void setCompression(String compression) {
    this.compression = compression;
  }

  /** {@return {@code logproducer.producer.compression-level}} */
  public Integer getCompressionLevel() {
    return compressionLevel;
  }

  /**
   * Sets {@code logproducer.producer.compression-level}.
   *
   * @param compressionLevel the codec's level (gzip 1-9, zstd 1-22). Default: the codec's.
   */
  public void setCompressionLevel(Integer compressionLevel) {
    this.compressionLevel = compressionLevel;
  }

  /** {@return {@code logproducer.producer.max-attributes-per-record}} */
  public Integer getMaxAttributesPerRecord() {
    return maxAttributesPerRecord;
  }

  /**
   * Sets {@code logproducer.producer.max-attributes-per-record}.
   *
   * @param maxAttributesPerRecord the most attributes one record keeps. Default: 128.
   */
  public void setMaxAttributesPerRecord(Integer maxAttributesPerRecord) {
    this.maxAttributesPerRecord = maxAttributesPerRecord;
  }

  /** {@return {@code logproducer.producer.max-attribute-value-length}} */
  public Integer getMaxAttributeValueLength() {
    return maxAttributeValueLength;
  }

  /**
   * Sets {@code logproducer.producer.max-attribute-value-length}.
   *
   * @param maxAttributeValueLength the longest attribute value, in chars. Default: unlimited.
   */
  public void setMaxAttributeValueLength(Integer maxAttributeValueLength) {
    this.maxAttributeValueLength = maxAttributeValueLength;
  }

  /** {@return {@code logproducer.producer.jmx-enabled}} */
  public boolean isJmxEnabled() {
    return jmxEnabled;
  }

  /**
   * Sets {@code logproducer.producer.jmx-enabled}.
   *
   * @param jmxEnabled whether the producer's metrics are registered as a JMX MBean.
   */
  public void setJmxEnabled(boolean jmxEnabled) {
    this.jmxEnabled = jmxEnabled;
  }
}
