package io.logproducer.logback;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.testing.ChildJvm;
import io.logproducer.testing.otlp.OtlpReceiver;
import io.logproducer.testing.otlp.ReceivedLogRecord;
import java.io.File;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Without the OpenTelemetry API on the class path (a child JVM whose class path has no {@code
 * io.opentelemetry} API, context or SDK jar, started with {@code -verbose:class}): the appender
 * starts and logs, the MDC trace ids still become the record's trace context, and no {@code
 * io.opentelemetry} class, nor the appender's {@code OtelSpans} that names them, is loaded. Runs on
 * logback 1.2, 1.3 and 1.5.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class TraceContextAbsentTest {

  static final String MDC_TRACE_ID = "0af7651916cd43dd8448eb211c80319c";
  static final String MDC_SPAN_ID = "b7ad6b7169203331";

  /** The jars of the group {@code io.opentelemetry} (api, context, sdk...), not the proto jar. */
  private static boolean isOpenTelemetryJar(String entry) {
    return entry.replace('\\', '/').contains("/io/opentelemetry/opentelemetry-");
  }

  @Test
  void withoutTheApiNoOpenTelemetryClassIsLoadedAndTheMdcIdsAreUsed() throws Exception {
    List<String> all =
        Arrays.asList(System.getProperty("java.class.path").split(File.pathSeparator));
    assertTrue(
        all.stream().anyMatch(e -> e.replace('\\', '/').contains("/opentelemetry-api-")),
        "the test JVM has the API: " + all);
    String classPath =
        all.stream()
            .filter(e -> !isOpenTelemetryJar(e))
            .collect(Collectors.joining(File.pathSeparator));
    try (OtlpReceiver server = OtlpReceiver.start()) {
      ChildJvm.Result r =
          ChildJvm.builder(TraceContextAbsentMain.class)
              .classPath(classPath)
              .jvmOptions("-verbose:class")
              .args(server.endpoint())
              .run(90);
      String out = r.output();
      assertEquals(0, r.exitCode(), out);
      assertTrue(out.contains("API ABSENT\n"), out);
      assertTrue(out.contains("DONE\n"), out);
      // the check ran (CurrentSpan is loaded), and found the API absent: nothing of it was loaded
      assertTrue(out.contains(" io.logproducer.appender.CurrentSpan "), "CurrentSpan loaded");
      assertTrue(
          !out.contains("io.logproducer.appender.OtelSpans"), "OtelSpans must not be loaded");
      Matcher otel =
          Pattern.compile("\\[class,load] io\\.opentelemetry\\.(?!proto\\.)\\S+").matcher(out);
      assertTrue(!otel.find(), () -> "an OpenTelemetry class was loaded: " + otel.group());
      assertTrue(server.awaitAcceptedRecords(2, 30_000), "2 records");
      List<ReceivedLogRecord> records = server.deliveredRecords();
      assertEquals(2, records.size());
      assertEquals("with mdc ids", records.get(0).bodyString());
      assertEquals(MDC_TRACE_ID, records.get(0).traceId());
      assertEquals(MDC_SPAN_ID, records.get(0).spanId());
      assertEquals(1, records.get(0).flags());
      assertEquals("without ids", records.get(1).bodyString());
      assertTrue(records.get(1).traceId().isEmpty(), records.get(1).traceId());
    }
  }
}
