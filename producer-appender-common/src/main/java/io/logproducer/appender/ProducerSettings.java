package io.logproducer.appender;

import io.logproducer.BufferFullPolicy;
import io.logproducer.Compression;
import io.logproducer.ProducerConfig;
import io.logproducer.ProducerConfigDef;

/**
 * The producer's settings as a logging framework's XML sets them (one setter per setting declared
 * in {@link ProducerConfigDef}, the same names, checked by a test; or {@link #set(String, String)}
 * by name), with the appender defaults: {@link BufferFullPolicy#DROP} (the logging thread never
 * waits) and a client id derived from the appender's name. Every other default is the producer's.
 * Each setter validates at once and throws {@link IllegalArgumentException} naming the setting, as
 * {@link ProducerConfig.Builder} does. Not thread-safe: filled once, before the appender starts.
 */
public final class ProducerSettings {

  private final ProducerConfig.Builder builder =
      ProducerConfig.builder().setBufferFullPolicy(BufferFullPolicy.DROP);
  private boolean clientIdSet;
  private int maxAttributesPerRecord = ProducerConfig.DEFAULT_MAX_ATTRIBUTES_PER_RECORD;
  private AppenderSpoolSettings spool;

  /** Creates settings with the appender defaults. */
  public ProducerSettings() {}

  /**
   * See {@link ProducerConfig.Builder#setTotalSizeInBytes(long)}.
   *
   * @param bytes the bound on buffered bytes
   */
  public void setTotalSizeInBytes(long bytes) {
    builder.setTotalSizeInBytes(bytes);
  }

  /**
   * See {@link ProducerConfig.Builder#setMaxBlockMillis(long)}; used only with {@code
   * bufferFullPolicy=BLOCK}.
   *
   * @param millis how long a logging call may wait for buffer space
   */
  public void setMaxBlockMillis(long millis) {
    builder.setMaxBlockMillis(millis);
  }

  /**
   * {@code DROP} (the appender default: a full buffer drops the event, counts and reports it) or
   * {@code BLOCK} (the logging call waits up to {@code maxBlockMillis}).
   *
   * @param policy {@code DROP} or {@code BLOCK}, any case
   * @throws IllegalArgumentException if neither
   */
  public void setBufferFullPolicy(String policy) {
    ProducerConfigDef.BUFFER_FULL_POLICY.apply(builder, policy);
  }

  /**
   * See {@link ProducerConfig.Builder#setBatchSizeInBytes(int)}.
   *
   * @param bytes the size at which a batch is sealed
   */
  public void setBatchSizeInBytes(int bytes) {
    builder.setBatchSizeInBytes(bytes);
  }

  /**
   * See {@link ProducerConfig.Builder#setBatchCountThreshold(int)}.
   *
   * @param records the record count at which a batch is sealed
   */
  public void setBatchCountThreshold(int records) {
    builder.setBatchCountThreshold(records);
  }

  /**
   * See {@link ProducerConfig.Builder#setLingerMillis(long)}.
   *
   * @param millis how long a batch may wait for more records
   */
  public void setLingerMillis(long millis) {
    builder.setLingerMillis(millis);
  }

  /**
   * See {@link ProducerConfig.Builder#setSendThreads(int)}.
   *
   * @param threads the number of send threads
   */
  public void setSendThreads(int threads) {
    builder.setSendThreads(threads);
  }

  /**
   * See {@link ProducerConfig.Builder#setRetries(int)}.
   *
   * @param retries re-sends after retryable failures
   */
  public void setRetries(int retries) {
    builder.setRetries(retries);
  }

  /**
   * See {@link ProducerConfig.Builder#setInitialRetryBackoffMillis(long)}.
   *
   * @param millis the first backoff
   */
  public void setInitialRetryBackoffMillis(long millis) {
    builder.setInitialRetryBackoffMillis(millis);
  }

  /**
   * See {@link ProducerConfig.Builder#setMaxRetryBackoffMillis(long)}.
   *
   * @param millis the backoff cap
   */
  public void setMaxRetryBackoffMillis(long millis) {
    builder.setMaxRetryBackoffMillis(millis);
  }

  /**
   * See {@link ProducerConfig.Builder#setDeliveryTimeoutMillis(long)}.
   *
   * @param millis the bound on a batch's delivery, retries included
   */
  public void setDeliveryTimeoutMillis(long millis) {
    builder.setDeliveryTimeoutMillis(millis);
  }

  /**
   * See {@link ProducerConfig.Builder#setMaxAttributesPerRecord(int)}: the appender also stops
   * copying an event's MDC / ThreadContext at this limit.
   *
   * @param attributes how many attributes a record keeps; default {@value
   *     ProducerConfig#DEFAULT_MAX_ATTRIBUTES_PER_RECORD}
   */
  public void setMaxAttributesPerRecord(int attributes) {
    builder.setMaxAttributesPerRecord(attributes);
    maxAttributesPerRecord = attributes;
  }

  /**
   * See {@link ProducerConfig.Builder#setMaxAttributeValueLength(int)}.
   *
   * @param chars the longest attribute value kept, in chars (bytes for byte arrays); default
   *     unlimited
   */
  public void setMaxAttributeValueLength(int chars) {
    builder.setMaxAttributeValueLength(chars);
  }

  /**
   * {@return the {@code maxAttributesPerRecord} set so far (by setter or by name), or its default}
   * The appender's event mapping takes it, to stop copying the context at the limit.
   */
  public int maxAttributesPerRecord() {
    return maxAttributesPerRecord;
  }

  /**
   * {@code none}, {@code gzip}, {@code lz4} or {@code zstd}; unset leaves it to the exporter.
   *
   * @param compression the name, any case
   * @throws IllegalArgumentException if unknown
   */
  public void setCompression(String compression) {
    builder.setCompression(Compression.fromName(compression));
  }

  /**
   * See {@link ProducerConfig.Builder#setCompressionLevel(int)}.
   *
   * @param level 0 for the codec's default, gzip 1–9, zstd 1–22
   */
  public void setCompressionLevel(int level) {
    builder.setCompressionLevel(level);
  }

  /**
   * See {@link ProducerConfig.Builder#setClientId(String)}; default {@code logproducer-<appender
   * name>}.
   *
   * @param clientId names the producer's threads and its JMX bean
   */
  public void setClientId(String clientId) {
    builder.setClientId(clientId);
    clientIdSet = true;
  }

  /**
   * See {@link ProducerConfig.Builder#setJmxEnabled(boolean)}.
   *
   * @param enabled whether to register the metrics MBean
   */
  public void setJmxEnabled(boolean enabled) {
    builder.setJmxEnabled(enabled);
  }

  /**
   * See {@link ProducerConfig.Builder#setShutdownHookEnabled(boolean)}: the producer's own hook, a
   * safety net when the logging framework is not stopped at exit.
   *
   * @param enabled whether to register the producer's JVM shutdown hook
   */
  public void setShutdownHookEnabled(boolean enabled) {
    builder.setShutdownHookEnabled(enabled);
  }

  /**
   * See {@link ProducerConfig.Builder#setShutdownHookTimeoutMillis(long)}.
   *
   * @param millis the hook's grace period
   */
  public void setShutdownHookTimeoutMillis(long millis) {
    builder.setShutdownHookTimeoutMillis(millis);
  }

  /**
   * Sets the setting named {@code name} from its text, as {@link ProducerConfigDef.Setting#apply}
   * parses it (for frameworks whose XML gives every value as text, e.g. log4j2's attributes).
   *
   * @param name a setting's name, as declared in {@link ProducerConfigDef}
   * @param value its value as text
   * @throws IllegalArgumentException naming the setting, if there is no such setting, the text does
   *     not parse or the value is out of bounds
   */
  public void set(String name, String value) {
    ProducerConfigDef.setting(name).apply(builder, value);
    if (name.equals(ProducerConfigDef.CLIENT_ID.name())) {
      clientIdSet = true;
    } else if (name.equals(ProducerConfigDef.MAX_ATTRIBUTES_PER_RECORD.name())) {
      maxAttributesPerRecord = Integer.parseInt(value.trim()); // valid: apply took it
    }
  }

  /**
   * Gives the producer a disk spool (the appender's {@code <spool>} element), or none; applied by
   * {@link #toConfig(String)}. Not a {@code set…} method: the spool is an element of the appender,
   * not of {@code <producer>}.
   *
   * @param spool the spool's settings, or null for none (the default)
   */
  public void useSpool(AppenderSpoolSettings spool) {
    this.spool = spool;
  }

  /**
   * Builds the configuration.
   *
   * @param appenderName the appender's name, for the default client id
   * @return the producer configuration
   * @throws IllegalArgumentException if the settings contradict each other, or the spool's are
   *     incomplete (the message names them)
   */
  public ProducerConfig toConfig(String appenderName) {
    if (!clientIdSet) {
      builder.setClientId("logproducer-" + Text.clientIdPart(appenderName));
    }
    builder.setSpool(spool == null ? null : spool.toSpoolConfig());
    return builder.build();
  }
}
