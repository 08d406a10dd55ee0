package io.logproducer.log4j2;

import io.logproducer.appender.ProducerSettings;
import org.apache.logging.log4j.core.config.Node;
import org.apache.logging.log4j.core.config.plugins.Plugin;
import org.apache.logging.log4j.core.config.plugins.PluginAttribute;
import org.apache.logging.log4j.core.config.plugins.PluginFactory;

/**
 * The {@code <ProducerSettings>} element of a {@code <Logproducer>} appender: one attribute per producer setting,
 * the same names as {@code ProducerConfig.Builder}. Unset attributes keep the producer's defaults, except
 * {@code bufferFullPolicy}, which is {@code DROP} for an appender (the logging thread never waits), and
 * {@code clientId}, which is {@code logproducer-<appender name>}.
 */
@Plugin(name = "ProducerSettings", category = Node.CATEGORY, printObject = true)
public final class ProducerSettingsElement {

  private final ProducerSettings settings;
  private final boolean valid;

  private ProducerSettingsElement(ProducerSettings settings, boolean valid) {
    this.settings = settings;
    this.valid = valid;
  }

  /**
   * Creates the element from its XML attributes; an invalid value is reported on log4j2's status channel (naming
   * it) and keeps the appender from being created.
   *
   * @param totalSizeInBytes the bound on buffered bytes
   * @param bufferFullPolicy {@code DROP} (appender default) or {@code BLOCK}
   * @param maxBlockMillis how long a logging call may wait for buffer space under {@code BLOCK}
   * @param batchSizeInBytes the size at which a batch is sealed
   * @param batchCountThreshold the record count at which a batch is sealed
   * @param lingerMillis how long a batch may wait for more records
   * @param sendThreads the number of send threads
   * @param retries re-sends after retryable failures
   * @param initialRetryBackoffMillis the first retry backoff
   * @param maxRetryBackoffMillis the retry backoff cap
   * @param deliveryTimeoutMillis the bound on a batch's delivery, retries included
   * @param compression {@code none}, {@code gzip}, {@code lz4} or {@code zstd}
   * @param compressionLevel 0 for the codec's default, gzip 1–9, zstd 1–22
   * @param clientId names the producer's threads and its JMX bean
   * @param jmxEnabled whether to register the metrics MBean
   * @param shutdownHookEnabled whether the producer registers its own JVM shutdown hook
   * @param shutdownHookTimeoutMillis that hook's grace period
   * @return the element
   */
  @PluginFactory
  public static ProducerSettingsElement createProducerSettings(
      @PluginAttribute("totalSizeInBytes") String totalSizeInBytes,
      @PluginAttribute("bufferFullPolicy") String bufferFullPolicy,
      @PluginAttribute("maxBlockMillis") String maxBlockMillis,
      @PluginAttribute("batchSizeInBytes") String batchSizeInBytes,
      @PluginAttribute("batchCountThreshold") String batchCountThreshold,
      @PluginAttribute("lingerMillis") String lingerMillis,
      @PluginAttribute("sendThreads") String sendThreads,
      @PluginAttribute("retries") String retries,
      @PluginAttribute("initialRetryBackoffMillis") String initialRetryBackoffMillis,
      @PluginAttribute("maxRetryBackoffMillis") String maxRetryBackoffMillis,
      @PluginAttribute("deliveryTimeoutMillis") String deliveryTimeoutMillis,
      @PluginAttribute("compression") String compression,
      @PluginAttribute("compressionLevel") String compressionLevel,
      @PluginAttribute("clientId") String clientId,
      @PluginAttribute("jmxEnabled") String jmxEnabled,
      @PluginAttribute("shutdownHookEnabled") String shutdownHookEnabled,
      @PluginAttribute("shutdownHookTimeoutMillis") String shutdownHookTimeoutMillis) {
    final ProducerSettings s = new ProducerSettings();
    Settings a = new Settings("ProducerSettings")
        .apply("totalSizeInBytes", totalSizeInBytes,
            v -> s.setTotalSizeInBytes(Settings.parseLong("totalSizeInBytes", v)))
        .apply("bufferFullPolicy", bufferFullPolicy, s::setBufferFullPolicy)
        .apply("maxBlockMillis", maxBlockMillis, v -> s.setMaxBlockMillis(Settings.parseLong("maxBlockMillis", v)))
        .apply("batchSizeInBytes", batchSizeInBytes,
            v -> s.setBatchSizeInBytes(Settings.parseInt("batchSizeInBytes", v)))
        .apply("batchCountThreshold", batchCountThreshold,
            v -> s.setBatchCountThreshold(Settings.parseInt("batchCountThreshold", v)))
        .apply("lingerMillis", lingerMillis, v -> s.setLingerMillis(Settings.parseLong("lingerMillis", v)))
        .apply("sendThreads", sendThreads, v -> s.setSendThreads(Settings.parseInt("sendThreads", v)))
        .apply("retries", retries, v -> s.setRetries(Settings.parseInt("retries", v)))
        .apply("initialRetryBackoffMillis", initialRetryBackoffMillis,
            v -> s.setInitialRetryBackoffMillis(Settings.parseLong("initialRetryBackoffMillis", v)))
        .apply("maxRetryBackoffMillis", maxRetryBackoffMillis,
            v -> s.setMaxRetryBackoffMillis(Settings.parseLong("maxRetryBackoffMillis", v)))
        .apply("deliveryTimeoutMillis", deliveryTimeoutMillis,
            v -> s.setDeliveryTimeoutMillis(Settings.parseLong("deliveryTimeoutMillis", v)))
        .apply("compression", compression, s::setCompression)
        .apply("compressionLevel", compressionLevel,
            v -> s.setCompressionLevel(Settings.parseInt("compressionLevel", v)))
        .apply("clientId", clientId, s::setClientId)
        .apply("jmxEnabled", jmxEnabled, v -> s.setJmxEnabled(Settings.parseBoolean("jmxEnabled", v)))
        .apply("shutdownHookEnabled", shutdownHookEnabled,
            v -> s.setShutdownHookEnabled(Settings.parseBoolean("shutdownHookEnabled", v)))
        .apply("shutdownHookTimeoutMillis", shutdownHookTimeoutMillis,
            v -> s.setShutdownHookTimeoutMillis(Settings.parseLong("shutdownHookTimeoutMillis", v)));
    return new ProducerSettingsElement(s, a.valid());
  }

  ProducerSettings settings() {
    return settings;
  }

  boolean valid() {
    return valid;
  }

  @Override
  public String toString() {
    return "ProducerSettings";
  }
}
