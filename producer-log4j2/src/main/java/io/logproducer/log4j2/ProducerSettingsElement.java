package io.logproducer.log4j2;

import io.logproducer.appender.ProducerSettings;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.logging.log4j.core.config.Node;
import org.apache.logging.log4j.core.config.plugins.Plugin;
import org.apache.logging.log4j.core.config.plugins.PluginAttribute;
import org.apache.logging.log4j.core.config.plugins.PluginFactory;

/**
 * The {@code <ProducerSettings>} element of a {@code <Logproducer>} appender: one attribute per
 * producer setting, the same names as {@code ProducerConfig.Builder}. Unset attributes keep the
 * producer's defaults, except {@code bufferFullPolicy}, which is {@code DROP} for an appender (the
 * logging thread never waits), and {@code clientId}, which is {@code logproducer-<appender name>}.
 */
@Plugin(name = "ProducerSettings", category = Node.CATEGORY, printObject = true)
public final class ProducerSettingsElement {

  /** The factory's attribute names, in the order of its parameters. */
  static final List<String> ATTRIBUTES = attributes();

  private final ProducerSettings settings;
  private final boolean valid;

  private ProducerSettingsElement(ProducerSettings settings, boolean valid) {
    this.settings = settings;
    this.valid = valid;
  }

  /**
   * Creates the element from its XML attributes; an invalid value is reported on log4j2's status
   * channel (naming it) and keeps the appender from being created.
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
   * @param maxAttributesPerRecord how many attributes a record keeps (the rest are counted as
   *     dropped); the appender stops copying the ThreadContext there
   * @param maxAttributeValueLength the longest attribute value kept, in chars
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
      @PluginAttribute("maxAttributesPerRecord") String maxAttributesPerRecord,
      @PluginAttribute("maxAttributeValueLength") String maxAttributeValueLength,
      @PluginAttribute("compression") String compression,
      @PluginAttribute("compressionLevel") String compressionLevel,
      @PluginAttribute("clientId") String clientId,
      @PluginAttribute("jmxEnabled") String jmxEnabled,
      @PluginAttribute("shutdownHookEnabled") String shutdownHookEnabled,
      @PluginAttribute("shutdownHookTimeoutMillis") String shutdownHookTimeoutMillis) {
    // The values in the order of the parameters; each goes to the ProducerConfigDef setting its
    // @PluginAttribute
    // names (ProducerSettingsElementTest: the attributes are exactly the declared settings).
    String[] values = {
      totalSizeInBytes,
      bufferFullPolicy,
      maxBlockMillis,
      batchSizeInBytes,
      batchCountThreshold,
      lingerMillis,
      sendThreads,
      retries,
      initialRetryBackoffMillis,
      maxRetryBackoffMillis,
      deliveryTimeoutMillis,
      maxAttributesPerRecord,
      maxAttributeValueLength,
      compression,
      compressionLevel,
      clientId,
      jmxEnabled,
      shutdownHookEnabled,
      shutdownHookTimeoutMillis
    };
    final ProducerSettings s = new ProducerSettings();
    Settings a = new Settings("ProducerSettings");
    for (int i = 0; i < values.length; i++) {
      final String name = ATTRIBUTES.get(i);
      a.apply(name, values[i], v -> s.set(name, v));
    }
    return new ProducerSettingsElement(s, a.valid());
  }

  private static List<String> attributes() {
    for (Method m : ProducerSettingsElement.class.getDeclaredMethods()) {
      if (m.isAnnotationPresent(PluginFactory.class)) {
        List<String> names = new ArrayList<String>();
        for (Annotation[] annotations : m.getParameterAnnotations()) {
          for (Annotation an : annotations) {
            if (an instanceof PluginAttribute) {
              names.add(((PluginAttribute) an).value());
            }
          }
        }
        return Collections.unmodifiableList(names);
      }
    }
    throw new IllegalStateException("no @PluginFactory method");
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
