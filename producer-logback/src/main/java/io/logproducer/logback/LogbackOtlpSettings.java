package io.logproducer.logback;

import io.logproducer.appender.OtlpSettings;

/**
 * What {@code <otlp>} in logback's XML creates: {@link OtlpSettings} whose {@code endpoint}, {@code
 * header} and {@code headers} setters do not throw. logback's configurator quotes the value of a
 * setter that throws ({@code Failed to set property [headers] to value "…"}), which would print a
 * token or the password of an endpoint's user-info; the error, without the secret, is reported by
 * the appender's start instead. Every other setting fails at once, as in {@link OtlpSettings}.
 */
public final class LogbackOtlpSettings extends OtlpSettings {

  /** Creates settings from the environment ({@code OTEL_EXPORTER_OTLP_*}). */
  public LogbackOtlpSettings() {
    super(true);
  }
}
