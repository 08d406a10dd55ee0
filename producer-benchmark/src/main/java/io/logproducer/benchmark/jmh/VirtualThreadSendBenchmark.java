package io.logproducer.benchmark.jmh;

import io.logproducer.LogRecord;
import io.logproducer.Producer;
import io.logproducer.ProducerConfig;
import io.logproducer.otlp.OtlpHttpExporter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * {@code Producer.send(record)} throughput (records/s) from 10 platform threads versus 10,000
 * virtual threads (Java 21+), through one producer with the real background path and a transport
 * that answers at once ({@link DiscardingExporter}, as {@link SendBenchmark}). Each invocation
 * sends {@value #RECORDS} records: 10 platform threads (a fixed pool) 10,000 each, or 10,000
 * virtual threads (one per task) 10 each, and waits for all of them; the score is records per
 * second. Virtual threads are created by reflection (this module compiles for Java 17); on Java
 * &lt; 21 the {@code virtual} case fails at setup. Build with JDK 17, run on 21:
 *
 * <pre>
 * $JDK21/bin/java -jar producer-benchmark/target/benchmarks.jar VirtualThreadSendBenchmark
 * </pre>
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class VirtualThreadSendBenchmark extends BenchmarkDefaults {

  static final int RECORDS = 100_000;

  /** {@code platform}: 10 platform threads; {@code virtual}: 10,000 virtual threads. */
  @Param({"platform", "virtual"})
  public String threads;

  private Producer producer;
  private ExecutorService executor;
  private int tasks;
  private LogRecord[] records;

  @Setup(Level.Trial)
  public void start() throws Exception {
    producer =
        new Producer(
            ProducerConfig.builder()
                .setClientId("jmh-vthreads")
                .setJmxEnabled(false)
                .setTotalSizeInBytes(104_857_600)
                .setSendThreads(2)
                .build(),
            new DiscardingExporter(
                OtlpHttpExporter.builder().setEndpoint("http://127.0.0.1:9").build()));
    records = Records.pool(0);
    if ("platform".equals(threads)) {
      tasks = 10;
      executor = Executors.newFixedThreadPool(tasks);
    } else if ("virtual".equals(threads)) {
      tasks = 10_000;
      executor =
          (ExecutorService)
              Executors.class.getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
    } else {
      throw new IllegalArgumentException("threads: platform or virtual, not " + threads);
    }
  }

  @TearDown(Level.Trial)
  public void stop() throws InterruptedException {
    executor.shutdown();
    executor.awaitTermination(1, TimeUnit.MINUTES);
    producer.close();
  }

  @Benchmark
  @OperationsPerInvocation(RECORDS)
  public void send() throws Exception {
    int perTask = RECORDS / tasks;
    List<Future<?>> futures = new ArrayList<>(tasks);
    for (int t = 0; t < tasks; t++) {
      int base = t * perTask;
      futures.add(
          executor.submit(
              () -> {
                for (int i = 0; i < perTask; i++) {
                  producer.send(records[(base + i) & (Records.POOL - 1)]);
                }
              }));
    }
    for (Future<?> f : futures) {
      f.get();
    }
  }
}
