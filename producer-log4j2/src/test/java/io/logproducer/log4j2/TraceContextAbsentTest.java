package io.logproducer.log4j2;

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
 * io.opentelemetry} API, context or SDK jar, started with {@code -verbose:class}): the appenders
 * start and log, the ThreadContext trace ids still become the record's trace context (inline and
 * queued), and no {@code io.opentelemetry} class, nor the appender's {@code OtelSpans} that names
 * them, is loaded.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class TraceContextAbsentTest {

  static final String MDC_TRACE_ID = "0af7651916cd43dd8448eb211c80319c";
  static final String MDC_SPAN_ID = "b7ad6b7169203331";
  static final List<String> SERVICES =
      List.of("otel-then-mdc", "inline", "mdc-then-otel", "otel", "mdc", "none");

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
              .jvmOptions("-verbose:class", "-Dlog4j2.disable.jmx=true")
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
      assertTrue(server.awaitAcceptedRecords(2L * SERVICES.size(), 30_000), "2 records each");
      List<Support.Received> all2 = Support.delivered(server);
      assertEquals(2 * SERVICES.size(), all2.size());
      for (String s : SERVICES) {
        List<ReceivedLogRecord> records =
            Support.inLoggedOrder(
                    all2.stream().filter(x -> s.equals(x.service())).collect(Collectors.toList()))
                .stream()
                .map(Support.Received::record)
                .collect(Collectors.toList());
        assertEquals(2, records.size(), s);
        assertEquals("with mdc ids", records.get(0).bodyString(), s);
        boolean readsMdc = !s.equals("otel") && !s.equals("none");
        assertEquals(readsMdc ? MDC_TRACE_ID : "", records.get(0).traceId(), s);
        assertEquals(readsMdc ? MDC_SPAN_ID : "", records.get(0).spanId(), s);
        assertEquals(readsMdc ? 1 : 0, records.get(0).flags(), s);
        assertEquals("without ids", records.get(1).bodyString(), s);
        assertTrue(records.get(1).traceId().isEmpty(), s);
      }
    }
  }
}
