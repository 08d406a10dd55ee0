package io.logproducer.appender;

import io.logproducer.Producer;
import io.logproducer.ProducerConfig;
import io.logproducer.spi.Exporter;

/**
 * Builds a running {@link Producer} from the settings objects the appenders and the Spring Boot
 * starter fill: the one place where "which exporter" is decided for them.
 *
 * <p>Thread-safe (stateless).
 */
public final class SettingsProducer {

  private SettingsProducer() {}

  /**
   * Builds the exporter and starts a producer.
   *
   * @param name the appender's (or starter's) name: in messages, and the default client id
   * @param settings the producer settings (with the spool, if any, already applied)
   * @param otlp the OTLP exporter's settings, or null
   * @param gse the GSE exporter's settings, or null
   * @param kafka the Kafka exporter's settings, or null; when all three are null, OTLP from the
   *     environment ({@code OTEL_EXPORTER_OTLP_*}, default {@code http://localhost:4318})
   * @param scopeName the OTLP {@code InstrumentationScope} name of records without one
   * @param scopeFromRecords whether OTLP writes each record's scope name (the logger name) as its
   *     {@code InstrumentationScope}
   * @return the started producer; the caller closes it
   * @throws IllegalArgumentException if more than one exporter is configured or a setting is
   *     invalid (the message names it)
   * @throws IllegalStateException if the exporter cannot run here (a codec that cannot load, no
   *     Unix sockets)
   */
  public static Producer build(
      String name,
      ProducerSettings settings,
      OtlpSettings otlp,
      GseSettings gse,
      KafkaSettings kafka,
      String scopeName,
      boolean scopeFromRecords) {
    if ((otlp != null ? 1 : 0) + (gse != null ? 1 : 0) + (kafka != null ? 1 : 0) > 1) {
      throw new IllegalArgumentException(
          "appender '"
              + name
              + "' configures more than one exporter (OTLP, GSE, Kafka); choose one");
    }
    ProducerConfig config = settings.toConfig(name);
    Exporter exporter =
        gse != null
            ? gse.build()
            : kafka != null
                ? kafka.build(scopeName, scopeFromRecords)
                : (otlp != null ? otlp : new OtlpSettings()).build(scopeName, scopeFromRecords);
    return new Producer(config, exporter);
  }
}
