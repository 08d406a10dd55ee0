package io.logproducer.benchmark.jmh;

import io.logproducer.log4j2.LogproducerAppender;
import io.logproducer.testing.otlp.OtlpReceiver;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.apache.logging.log4j.Logger;
import org.apache.logging.log4j.ThreadContext;
import org.apache.logging.log4j.core.Appender;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.config.ConfigurationSource;
import org.apache.logging.log4j.core.config.xml.XmlConfiguration;
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

/**
 * The log4j2 appender path on the logging thread: one op is one {@code logger.info("Order {} paid
 * by {} ...", id, user)} with two ThreadContext entries on the thread, through a log4j2 {@link
 * LoggerContext} of the benchmark's own (an XML configuration from a string), into one of these
 * appenders:
 *
 * <ul>
 *   <li>{@code logproducer}: our {@link LogproducerAppender} as the README configures it (every
 *       setting its default, the hand-off included), OTLP/HTTP protobuf to the receiver, {@code
 *       bufferFullPolicy=DROP}; mapping: every ThreadContext entry, thread name and id.
 *   <li>{@code logproducer-inline}: the same with {@code queueSize="0"}: mapped and sent on the
 *       logging thread.
 *   <li>{@code raf}: log4j2's own {@code RandomAccessFileAppender} (PatternLayout with the thread
 *       and the context, {@code immediateFlush=false}) to a file in the temporary directory.
 *   <li>{@code noop}: log4j2's {@code NullAppender}, log4j2's own cost, for reference.
 * </ul>
 *
 * <p>The trial's tear-down prints {@code loggingThreadCpuNsPerOp} (the benchmark threads' own CPU
 * time per call in the measurement iterations), the events logged, the records the receiver counted
 * and the appender's drops. Run with {@code -t 1} and {@code -t 4}:
 *
 * <p>The shaded jar holds one {@code Log4j2Plugins.dat}, the appender's (it overwrote
 * log4j-core's), so log4j-core's jar goes first on the class path:
 *
 * <pre>
 * java -cp ~/.m2/repository/org/apache/logging/log4j/log4j-core/2.25.5/log4j-core-2.25.5.jar:target/benchmarks.jar \
 *   org.openjdk.jmh.Main Log4j2AppenderBenchmark -t 1
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class Log4j2AppenderBenchmark extends BenchmarkDefaults {

  static final String LOGGER_NAME = "com.example.shop.PaymentService";

  /**
   * {@code logproducer} (the defaults), {@code logproducer-inline}, {@code raf} or {@code noop}
   * (log4j2's {@code NullAppender}: what log4j2 itself costs, to subtract).
   */
  @Param({"logproducer", "logproducer-inline", "raf", "noop"})
  public String appender;

  /**
   * 0: saturate (log as fast as possible); N: the logging thread parks about N µs after each call
   * (a paced service; the park's own CPU is in every variant, so subtract {@code noop}'s).
   */
  @Param({"0"})
  public long pauseMicros;

  private OtlpReceiver receiver;
  private LoggerContext context;
  private Logger logger;
  private Path file;
  private final Queue<ThreadState> threads = new ConcurrentLinkedQueue<>();

  @Setup(Level.Trial)
  public void start() throws IOException {
    receiver = OtlpReceiver.builder().counting().start();
    file = Files.createTempFile("log4j2-appender-benchmark", ".log");
    context = new LoggerContext("log4j2-appender-benchmark");
    ConfigurationSource source =
        new ConfigurationSource(new ByteArrayInputStream(xml().getBytes(StandardCharsets.UTF_8)));
    context.start(new XmlConfiguration(context, source));
    Appender installed = context.getConfiguration().getAppender("BENCH");
    if (installed == null || !installed.isStarted()) {
      throw new IllegalStateException("appender " + appender + " did not start");
    }
    logger = context.getLogger(LOGGER_NAME);
  }

  private String xml() {
    String appenderXml =
        switch (appender) {
          case "logproducer" -> ourAppenderXml("");
          case "logproducer-inline" -> ourAppenderXml(" queueSize=\"0\"");
          case "noop" -> "<Null name=\"BENCH\"/>\n";
          case "raf" ->
              """
              <RandomAccessFile name="BENCH" fileName="%s" immediateFlush="false" append="false">
                <PatternLayout pattern="%%d %%p [%%t] %%c %%X - %%m%%n"/>
              </RandomAccessFile>
              """
                  .formatted(file);
          default ->
              throw new IllegalArgumentException(
                  "appender: logproducer, logproducer-inline, raf or noop, not " + appender);
        };
    return "<Configuration status=\"WARN\"><Appenders>\n"
        + appenderXml
        + "</Appenders><Loggers><Root level=\"INFO\"><AppenderRef ref=\"BENCH\"/></Root>"
        + "</Loggers></Configuration>\n";
  }

  private String ourAppenderXml(String attributes) {
    return """
        <Logproducer name="BENCH"%s>
          <Otlp endpoint="%s" serviceName="appender-benchmark"/>
          <ProducerSettings bufferFullPolicy="DROP" jmxEnabled="false" shutdownHookEnabled="false"/>
          <Mapping mdcInclude="*" captureThread="true" captureCode="false"/>
        </Logproducer>
        """
        .formatted(attributes, receiver.endpoint());
  }

  @TearDown(Level.Trial)
  public void stop() throws IOException {
    Appender installed = context.getConfiguration().getAppender("BENCH");
    LogproducerAppender ours = installed instanceof LogproducerAppender a ? a : null;
    if (ours != null) {
      ours.stop(); // ships what is queued and buffered, bounded by the appender's stop timeout
    }
    context.stop();
    long received = receiver.acceptedRecords();
    String drops =
        ours == null
            ? ""
            : " receiverRecords=%d notReceived=%d droppedCount()=%d"
                .formatted(received, LoggingThread.logged(threads) - received, ours.droppedCount());
    receiver.close();
    Files.deleteIfExists(file);
    System.out.printf(
        "%n[Log4j2AppenderBenchmark] appender=%s pauseMicros=%d %s%s%n",
        appender, pauseMicros, LoggingThread.summary(threads), drops);
  }

  /** Each benchmark thread: its ThreadContext, its own ids and users, and the calls it made. */
  @State(Scope.Thread)
  public static class ThreadState extends LoggingThread {
    private static final AtomicInteger THREADS = new AtomicInteger();

    @Setup(Level.Trial)
    public void prepare(Log4j2AppenderBenchmark bench) {
      fill(THREADS.incrementAndGet());
      bench.threads.add(this);
    }

    /** Runs on the benchmark thread: the ThreadContext is the thread's. */
    @Setup(Level.Iteration)
    public void context(IterationParams iteration) {
      ThreadContext.put(
          "requestId", "req-" + Long.toHexString(ThreadLocalRandom.current().nextLong()));
      ThreadContext.put("tenant", "acme-eu-west-1");
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
    if (pauseMicros > 0) {
      LockSupport.parkNanos(pauseMicros * 1_000);
    }
  }
}
