package io.logproducer.log4j2;

import io.logproducer.appender.MappingSettings;
import org.apache.logging.log4j.core.config.Node;
import org.apache.logging.log4j.core.config.plugins.Plugin;
import org.apache.logging.log4j.core.config.plugins.PluginAttribute;
import org.apache.logging.log4j.core.config.plugins.PluginFactory;

/**
 * The {@code <Mapping>} element of a {@code <Logproducer>} appender: how a log event becomes a log
 * record. Unset attributes keep the defaults of OpenTelemetry's log4j appender (see {@code
 * MappingSettings}).
 */
@Plugin(name = "Mapping", category = Node.CATEGORY, printObject = true)
public final class MappingElement {

  private final MappingSettings settings;
  private final boolean valid;

  private MappingElement(MappingSettings settings, boolean valid) {
    this.settings = settings;
    this.valid = valid;
  }

  /**
   * Creates the element from its XML attributes; an invalid value is reported on log4j2's status
   * channel (naming it) and keeps the appender from being created.
   *
   * @param mdcInclude ThreadContext keys copied as attributes, comma-separated; {@code *} (default)
   *     for all, empty for none
   * @param mdcExclude ThreadContext keys never copied, comma-separated
   * @param captureKeyValues whether {@code MapMessage} entries become attributes (default true)
   * @param captureMarkers whether the marker becomes {@code log4j.marker} (default true)
   * @param captureThread whether {@code thread.name} and {@code thread.id} are set (default true)
   * @param captureCode whether caller data becomes {@code code.*} (default false: log4j2 then walks
   *     the stack)
   * @param useLayout whether the body is the appender's layout output (default false: the formatted
   *     message)
   * @param scopeFromLogger whether the logger name becomes the instrumentation scope name (default
   *     true)
   * @param exceptionMaxFrames most frames in {@code exception.stacktrace} (default 200; 0 none,
   *     negative no limit)
   * @param traceContext where the trace context comes from: {@code otel-then-mdc} (default: the
   *     OpenTelemetry API's current span at the logging call, else the ThreadContext's {@code
   *     trace_id} / {@code span_id} / {@code trace_flags}), {@code mdc-then-otel}, {@code otel},
   *     {@code mdc} or {@code none}
   * @return the element
   */
  @PluginFactory
  public static MappingElement createMapping(
      @PluginAttribute("mdcInclude") String mdcInclude,
      @PluginAttribute("mdcExclude") String mdcExclude,
      @PluginAttribute("captureKeyValues") String captureKeyValues,
      @PluginAttribute("captureMarkers") String captureMarkers,
      @PluginAttribute("captureThread") String captureThread,
      @PluginAttribute("captureCode") String captureCode,
      @PluginAttribute("useLayout") String useLayout,
      @PluginAttribute("scopeFromLogger") String scopeFromLogger,
      @PluginAttribute("exceptionMaxFrames") String exceptionMaxFrames,
      @PluginAttribute("traceContext") String traceContext) {
    final MappingSettings s = new MappingSettings();
    Settings a =
        new Settings("Mapping")
            .apply("mdcInclude", mdcInclude, s::setMdcInclude)
            .apply("mdcExclude", mdcExclude, s::setMdcExclude)
            .apply(
                "captureKeyValues",
                captureKeyValues,
                v -> s.setCaptureKeyValues(Settings.parseBoolean("captureKeyValues", v)))
            .apply(
                "captureMarkers",
                captureMarkers,
                v -> s.setCaptureMarkers(Settings.parseBoolean("captureMarkers", v)))
            .apply(
                "captureThread",
                captureThread,
                v -> s.setCaptureThread(Settings.parseBoolean("captureThread", v)))
            .apply(
                "captureCode",
                captureCode,
                v -> s.setCaptureCode(Settings.parseBoolean("captureCode", v)))
            .apply(
                "useLayout", useLayout, v -> s.setUseLayout(Settings.parseBoolean("useLayout", v)))
            .apply(
                "scopeFromLogger",
                scopeFromLogger,
                v -> s.setScopeFromLogger(Settings.parseBoolean("scopeFromLogger", v)))
            .apply(
                "exceptionMaxFrames",
                exceptionMaxFrames,
                v -> s.setExceptionMaxFrames(Settings.parseInt("exceptionMaxFrames", v)))
            .apply("traceContext", traceContext, s::setTraceContext);
    return new MappingElement(s, a.valid());
  }

  MappingSettings settings() {
    return settings;
  }

  boolean valid() {
    return valid;
  }

  @Override
  public String toString() {
    return "Mapping";
  }
}
