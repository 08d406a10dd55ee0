package io.logproducer.benchmark.harness;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import io.logproducer.testing.otlp.OtlpReceiver;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.logging.log4j.ThreadContext;

/**
 * The time of one logging call whose MDC (logback) or ThreadContext (log4j2) holds many entries,
 * through our appender to a counting OTLP receiver on 127.0.0.1 (issue 19, defect 2).
 *
 * <p>{@code java -cp … io.logproducer.benchmark.harness.ContextSizeProbe logback|log4j2 ENTRIES
 * REPEATS TIMEOUT_S}: fills the context with {@code ENTRIES} entries ({@code k<i>} → {@code v<i>}),
 * logs once to warm up with an empty context, then times {@code REPEATS} calls on the main thread
 * and prints each time and the median in ms. A call that takes longer than {@code TIMEOUT_S}
 * seconds is reported as such and the JVM exits (status 2) without waiting for it.
 */
public final class ContextSizeProbe {

  private ContextSizeProbe() {}

  /** Fills the context (not timed), logs one event and returns the logging call's time in ns. */
  interface Call {
    long log(int i);
  }

  public static void main(String[] args) throws Exception {
    String framework = args[0];
    int entries = Integer.parseInt(args[1]);
    int repeats = Integer.parseInt(args[2]);
    long timeoutSeconds = Long.parseLong(args[3]);
    Map<String, String> context = new HashMap<>();
    for (int i = 0; i < entries; i++) {
      context.put("k" + i, "v" + i);
    }
    OtlpReceiver receiver = OtlpReceiver.builder().counting().start();
    Call call =
        framework.equals("logback")
            ? logback(receiver.endpoint(), context)
            : log4j2(receiver.endpoint(), context);
    double[] millis = new double[repeats];
    for (int r = 0; r < repeats; r++) {
      millis[r] = timed(call, r, timeoutSeconds);
      System.out.printf("%s entries=%d call %d: %.1f ms%n", framework, entries, r + 1, millis[r]);
    }
    Arrays.sort(millis);
    System.out.printf(
        "RESULT %s entries=%d median=%.1f ms (n=%d)%n",
        framework, entries, millis[repeats / 2], repeats);
    System.out.flush();
    Runtime.getRuntime().halt(0);
  }

  /** The call's time in ms; it runs on a thread of its own so that a hung call can be abandoned. */
  private static double timed(Call call, int i, long timeoutSeconds) throws InterruptedException {
    long[] took = {-1};
    Thread t =
        new Thread(
            () -> {
              took[0] = call.log(i);
            },
            "probe-" + i);
    t.setDaemon(true);
    t.start();
    t.join(TimeUnit.SECONDS.toMillis(timeoutSeconds));
    if (t.isAlive()) {
      System.out.printf("RESULT call %d did not finish within %d s%n", i + 1, timeoutSeconds);
      System.out.flush();
      Runtime.getRuntime().halt(2); // not exit: log4j2's shutdown hook would wait for the call
    }
    return took[0] / 1e6;
  }

  private static Call logback(String endpoint, Map<String, String> context) throws Exception {
    LoggerContext ctx = new LoggerContext();
    LogbackMDCAdapter mdc = new LogbackMDCAdapter();
    ctx.setMDCAdapter(mdc);
    JoranConfigurator joran = new JoranConfigurator();
    joran.setContext(ctx);
    String xml =
        """
        <configuration>
          <appender name="LP" class="io.logproducer.logback.LogproducerAppender">
            <otlp><endpoint>%s</endpoint><serviceName>probe</serviceName></otlp>
            <producer><jmxEnabled>false</jmxEnabled><shutdownHookEnabled>false</shutdownHookEnabled></producer>
          </appender>
          <root level="INFO"><appender-ref ref="LP"/></root>
        </configuration>
        """
            .formatted(endpoint);
    joran.doConfigure(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
    ch.qos.logback.classic.Logger logger = ctx.getLogger("com.example.Probe");
    logger.info("warm-up");
    // The MDC is per thread: each timed call's thread fills it (not timed), then logs (timed).
    return i -> {
      mdc.setContextMap(context);
      long start = System.nanoTime();
      logger.info("probe {}", i);
      long took = System.nanoTime() - start;
      mdc.clear();
      return took;
    };
  }

  private static Call log4j2(String endpoint, Map<String, String> context) throws Exception {
    Path file = Files.createTempFile("context-size-probe", ".xml");
    Files.writeString(
        file,
        """
        <Configuration status="WARN">
          <Appenders>
            <Logproducer name="LP">
              <Otlp endpoint="%s" serviceName="probe"/>
              <ProducerSettings jmxEnabled="false" shutdownHookEnabled="false"/>
            </Logproducer>
          </Appenders>
          <Loggers><Root level="INFO"><AppenderRef ref="LP"/></Root></Loggers>
        </Configuration>
        """
            .formatted(endpoint));
    org.apache.logging.log4j.core.LoggerContext ctx =
        new org.apache.logging.log4j.core.LoggerContext("probe", null, file.toUri());
    ctx.start();
    org.apache.logging.log4j.Logger logger = ctx.getLogger("com.example.Probe");
    logger.info("warm-up");
    return i -> {
      ThreadContext.putAll(context);
      long start = System.nanoTime();
      logger.info("probe {}", i);
      long took = System.nanoTime() - start;
      ThreadContext.clearMap();
      return took;
    };
  }
}
