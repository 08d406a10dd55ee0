package io.logproducer.benchmark.jmh;

import ch.qos.logback.classic.AsyncAppender;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.joran.spi.JoranException;
import ch.qos.logback.core.status.Status;
import io.logproducer.logback.LogproducerAppender;
import io.logproducer.testing.otlp.OtlpReceiver;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.exporter.otlp.http.logs.OtlpHttpLogRecordExporter;
import io.opentelemetry.instrumentation.logback.appender.v1_0.OpenTelemetryAppender;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.logs.SdkLoggerProvider;
import io.opentelemetry.sdk.logs.data.LogRecordData;
import io.opentelemetry.sdk.logs.export.BatchLogRecordProcessor;
import io.opentelemetry.sdk.logs.export.LogRecordExporter;
import io.opentelemetry.sdk.resources.Resource;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.Locale;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.IterationParams;
import org.slf4j.Logger;

/**
 * The logback appender path on the logging thread: one op is one {@code logger.info("Order {} paid
 * by {} ...", id, user)} with two MDC entries on the thread, through a logback {@link
 * LoggerContext} of the benchmark's own (configured by Joran from an XML string; the JVM's SLF4J
 * provider stays slf4j-simple), into one of these appenders:
 *
 * <ul>
 *   <li>{@code logproducer}: our {@link LogproducerAppender}, OTLP/HTTP protobuf to the receiver,
 *       {@code bufferFullPolicy=DROP}, every other setting the appender's default (100 MiB buffer,
 *       1 MiB batches, linger 1 s, no compression); mapping: every MDC entry, thread name and id,
 *       no caller data.
 *   <li>{@code otel}: OpenTelemetry's logback appender ({@code opentelemetry-logback-appender-1.0})
 *       on an {@link OpenTelemetrySdk} whose logger provider has a {@link BatchLogRecordProcessor}
 *       (queue {@link #otelMaxQueueSize}, default 2048; batch 512, delay 1 s: the SDK defaults) and
 *       the {@link OtlpHttpLogRecordExporter} (protobuf, JDK HttpClient sender, no compression);
 *       mapping: every MDC entry ({@code captureMdcAttributes=*}), thread name ({@code
 *       captureExperimentalAttributes}), no code attributes.
 *   <li>{@code logproducer-queue}: the same with {@code queueSize=2048}: its own hand-off queue and
 *       worker thread (mapping and encoding off the logging thread; a full queue is a counted
 *       drop).
 *   <li>{@code logproducer-async}: the same inside logback's {@code AsyncAppender} (queue 2048 like
 *       the SDK's default, {@code neverBlock}, no early discarding): mapping and encoding move to
 *       the AsyncAppender's worker, as OpenTelemetry moves encoding to its exporter thread; a full
 *       queue drops, as the SDK's does.
 *   <li>{@code noop}: {@link NoopAppender}, logback's own cost, for reference.
 * </ul>
 *
 * <p>Both real appenders export to the same counting {@link OtlpReceiver} (the test kit's) on
 * 127.0.0.1 in this JVM. Both drop when their buffer is full (a tight logging loop can outrun any
 * exporter), so the trial's tear-down prints, per variant, the events logged (warm-up included),
 * the records the receiver counted, the drops, and {@code loggingThreadCpuNsPerOp}: the benchmark
 * threads' own CPU time per call in the measurement iterations. The score (wall time per call) also
 * holds the time a logging thread waits for a core while the export threads and the receiver run,
 * which on a small machine depends on how much each variant ships. Run with {@code -t 1} and {@code
 * -t 4} and {@code -prof gc} ({@code gc.alloc.rate.norm} = bytes allocated per logging call,
 * background threads and the in-JVM receiver included); {@code run-appender-bench.sh} runs both:
 *
 * <pre>java -jar target/benchmarks.jar AppenderBenchmark -t 1 -prof gc</pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class AppenderBenchmark extends BenchmarkDefaults {

  /**
   * An application's logger: our appender ignores the {@code io.logproducer.*} loggers (its
   * recursion guard).
   */
  static final String LOGGER_NAME = "com.example.shop.PaymentService";

  static final String APPENDER_NAME = "BENCH";

  /**
   * {@code logproducer}, {@code logproducer-queue} (with its own hand-off queue), {@code
   * logproducer-async} (inside logback's AsyncAppender), {@code otel} or {@code noop}.
   */
  @Param({"logproducer", "logproducer-queue", "logproducer-async", "otel", "noop"})
  public String appender;

  /**
   * The {@code otel} variant's {@code BatchLogRecordProcessor} queue: 2048 is the SDK default; a
   * tuned setup runs with {@code -p otelMaxQueueSize=65536}.
   */
  @Param({"2048"})
  public int otelMaxQueueSize;

  private OtlpReceiver receiver;
  private LoggerContext context;
  private LogbackMDCAdapter mdc;
  private Logger logger;
  private OpenTelemetrySdk openTelemetry;
  private CountingExporter otelExporter;
  private Appender<?> installed;
  private final Queue<ThreadState> threads = new ConcurrentLinkedQueue<>();

  @Setup(Level.Trial)
  public void start() throws IOException, JoranException {
    receiver = OtlpReceiver.builder().counting().start();
    context = new LoggerContext();
    context.setName("appender-benchmark");
    // A LoggerContext made outside logback's SLF4J provider has no MDC adapter; LoggingEvent reads
    // the MDC from it.
    mdc = new LogbackMDCAdapter();
    context.setMDCAdapter(mdc);
    JoranConfigurator joran = new JoranConfigurator();
    joran.setContext(context);
    joran.doConfigure(new ByteArrayInputStream(xml().getBytes(StandardCharsets.UTF_8)));
    for (Status s : context.getStatusManager().getCopyOfStatusList()) {
      if (s.getLevel() >= Status.WARN) {
        throw new IllegalStateException("logback configuration: " + s);
      }
    }
    installed = context.getLogger(Logger.ROOT_LOGGER_NAME).getAppender(APPENDER_NAME);
    if (installed == null || !installed.isStarted()) {
      throw new IllegalStateException(
          "appender "
              + appender
              + " did not start: "
              + context.getStatusManager().getCopyOfStatusList());
    }
    if (installed instanceof OpenTelemetryAppender otel) {
      otelExporter =
          new CountingExporter(
              OtlpHttpLogRecordExporter.builder()
                  .setEndpoint(receiver.endpoint() + "/v1/logs")
                  .build());
      SdkLoggerProvider provider =
          SdkLoggerProvider.builder()
              .setResource(
                  Resource.getDefault()
                      .merge(
                          Resource.create(
                              Attributes.of(
                                  AttributeKey.stringKey("service.name"), "appender-benchmark"))))
              .addLogRecordProcessor(
                  BatchLogRecordProcessor.builder(otelExporter)
                      .setMaxQueueSize(otelMaxQueueSize)
                      .build())
              .build();
      openTelemetry = OpenTelemetrySdk.builder().setLoggerProvider(provider).build();
      // What OpenTelemetryAppender.install(openTelemetry) does for each appender of the SLF4J-bound
      // LoggerContext;
      // this context is not SLF4J's, so the appender is given the SDK directly.
      otel.setOpenTelemetry(openTelemetry);
    }
    logger = context.getLogger(LOGGER_NAME);
  }

  private String xml() {
    String appenderXml =
        switch (appender) {
          case "logproducer" -> ourAppenderXml("BENCH", 0);
          case "logproducer-queue" -> ourAppenderXml("BENCH", 2048);
          case "logproducer-async" ->
              ourAppenderXml("LP", 0)
                  + """
          <appender name="BENCH" class="ch.qos.logback.classic.AsyncAppender">
            <queueSize>2048</queueSize>
            <discardingThreshold>0</discardingThreshold>
            <neverBlock>true</neverBlock>
            <appender-ref ref="LP"/>
          </appender>
          """;
          case "otel" ->
              """
          <appender name="BENCH" class="%s">
            <captureMdcAttributes>*</captureMdcAttributes>
            <captureExperimentalAttributes>true</captureExperimentalAttributes>
            <captureCodeAttributes>false</captureCodeAttributes>
            <captureKeyValuePairAttributes>true</captureKeyValuePairAttributes>
            <captureMarkerAttribute>true</captureMarkerAttribute>
          </appender>
          """
                  .formatted(OpenTelemetryAppender.class.getName());
          case "noop" ->
              """
          <appender name="BENCH" class="%s"/>
          """
                  .formatted(NoopAppender.class.getName());
          default ->
              throw new IllegalArgumentException(
                  "appender: logproducer, logproducer-queue, logproducer-async, otel or noop, not "
                      + appender);
        };
    return "<configuration>\n"
        + appenderXml
        + "<root level=\"INFO\"><appender-ref ref=\"BENCH\"/></root>\n</configuration>\n";
  }

  /**
   * Our appender named {@code name}: OTLP to the receiver, DROP, every MDC entry and the thread, no
   * caller data.
   */
  private String ourAppenderXml(String name, int queueSize) {
    return """
        <appender name="%s" class="%s">
          <queueSize>%d</queueSize>
          <otlp>
            <endpoint>%s</endpoint>
            <serviceName>appender-benchmark</serviceName>
          </otlp>
          <producer>
            <bufferFullPolicy>DROP</bufferFullPolicy>
            <jmxEnabled>false</jmxEnabled>
            <shutdownHookEnabled>false</shutdownHookEnabled>
          </producer>
          <mapping>
            <mdcInclude>*</mdcInclude>
            <captureThread>true</captureThread>
            <captureCode>false</captureCode>
          </mapping>
        </appender>
        """
        .formatted(name, LogproducerAppender.class.getName(), queueSize, receiver.endpoint());
  }

  @TearDown(Level.Trial)
  public void stop() {
    if (openTelemetry != null) {
      // Exports what is still queued (up to the processor's export timeout per batch), then stops.
      openTelemetry.getSdkLoggerProvider().shutdown().join(60, TimeUnit.SECONDS);
    }
    if (installed instanceof AsyncAppender async) {
      async.stop(); // hands what is queued to the inner appender first
    }
    Object inner = installed instanceof AsyncAppender async ? async.getAppender("LP") : installed;
    String drops = "";
    if (inner instanceof LogproducerAppender ours) {
      ours.stop(); // ships what is buffered, bounded by the appender's stop timeout
      drops =
          " droppedCount()=%d failedCount()=%d".formatted(ours.droppedCount(), ours.failedCount());
    }
    context.stop();
    // The receiver counts a request before it answers, so every request an exporter saw answered is
    // counted.
    long received = receiver.acceptedRecords();
    long logged = LoggingThread.logged(threads);
    StringBuilder report =
        new StringBuilder(
            "%n[AppenderBenchmark] appender=%s %s"
                .formatted(appender, LoggingThread.summary(threads)));
    if (!"noop".equals(appender)) {
      report.append(
          String.format(
              Locale.ROOT,
              " receiverRecords=%d notReceived=%d (%.1f%%) receiverRequests=%d bytesPerRecord=%d",
              received,
              logged - received,
              logged == 0 ? 0.0 : 100.0 * (logged - received) / logged,
              receiver.acceptedRequests(),
              received == 0 ? 0 : receiver.acceptedBodyBytes() / received));
    }
    report.append(drops);
    receiver.close();
    if (otelExporter != null) {
      long exported = otelExporter.exported.sum();
      long failed = otelExporter.failed.sum();
      report.append(
          " otelQueue=%d otelExported=%d otelFailed=%d otelDropped(logged-exported-failed)=%d"
              .formatted(otelMaxQueueSize, exported, failed, logged - exported - failed));
      LogRecordData sample = otelExporter.sample;
      if (sample != null) {
        report.append(
            "%n[AppenderBenchmark] otel record: scope=%s body=%s attributes=%s"
                .formatted(
                    sample.getInstrumentationScopeInfo().getName(),
                    sample.getBodyValue(),
                    sample.getAttributes()));
      }
    }
    System.out.println(report);
  }

  /** Each benchmark thread: its MDC (a request's context), its ids and users, its calls. */
  @State(Scope.Thread)
  public static class ThreadState extends LoggingThread {
    private static final AtomicInteger THREADS = new AtomicInteger();

    @Setup(Level.Trial)
    public void prepare(AppenderBenchmark bench) {
      fill(THREADS.incrementAndGet());
      bench.threads.add(this);
    }

    /**
     * JMH runs a thread-scoped state's set-up on that benchmark thread: the MDC is the thread's.
     */
    @Setup(Level.Iteration)
    public void mdc(AppenderBenchmark bench, IterationParams iteration) {
      bench.mdc.put("requestId", "req-" + Long.toHexString(ThreadLocalRandom.current().nextLong()));
      bench.mdc.put("tenant", "acme-eu-west-1");
      iterationStarts(iteration);
    }

    @TearDown(Level.Iteration)
    public void cpu() {
      iterationEnds();
    }
  }

  @Benchmark
  public void log(ThreadState s) {
    int i = s.nextCall();
    logger.info("Order {} paid by {}: payment captured, receipt sent", s.orderIds[i], s.users[i]);
  }

  /**
   * Counts what the OTLP exporter was handed and how it ended; the logging thread never gets here.
   */
  static final class CountingExporter implements LogRecordExporter {
    final LogRecordExporter delegate;
    final LongAdder exported = new LongAdder();
    final LongAdder failed = new LongAdder();
    volatile LogRecordData sample;

    CountingExporter(LogRecordExporter delegate) {
      this.delegate = delegate;
    }

    @Override
    public CompletableResultCode export(Collection<LogRecordData> logs) {
      int n = logs.size();
      if (sample == null && n > 0) {
        sample = logs.iterator().next();
      }
      CompletableResultCode result = delegate.export(logs);
      result.whenComplete(() -> (result.isSuccess() ? exported : failed).add(n));
      return result;
    }

    @Override
    public CompletableResultCode flush() {
      return delegate.flush();
    }

    @Override
    public CompletableResultCode shutdown() {
      return delegate.shutdown();
    }
  }
}
