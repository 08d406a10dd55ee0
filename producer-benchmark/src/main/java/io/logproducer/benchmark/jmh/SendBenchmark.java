package io.logproducer.benchmark.jmh;

import io.logproducer.Compression;
import io.logproducer.LogRecord;
import io.logproducer.Producer;
import io.logproducer.ProducerConfig;
import io.logproducer.otlp.OtlpHttpExporter;
import io.logproducer.otlp.OtlpHttpExporterBuilder;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
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

/**
 * {@code Producer.send(record)} (no callback) of reference-workload records: encode to OTLP
 * protobuf, reserve budget, append to the shard's batch; with the real background path behind it
 * (batches sealed, framed, compressed by the send threads) and a transport that answers at once
 * ({@link DiscardingExporter}). Run with {@code -t 1}, {@code -t 4}, {@code -t 10} and {@code -prof
 * gc}: {@code gc.alloc.rate.norm} is the allocation per send, including the send threads' share.
 *
 * <pre>java -jar target/benchmarks.jar SendBenchmark -t 4 -prof gc</pre>
 *
 * <p>The design card's sweeps, one line each (every {@code @Param} takes a list; the others keep
 * their defaults: 2 send threads, 2 MiB batches, 100 MiB budget, compression NONE and LZ4):
 *
 * <pre>
 * java -jar producer-benchmark/target/benchmarks.jar SendBenchmark -t 4 -p sendThreads=1,2,4,8,16,32 -p compression=LZ4
 * java -jar producer-benchmark/target/benchmarks.jar SendBenchmark -t 4 -p batchSizeInBytes=262144,524288,1048576,2097152,4194304 -p compression=LZ4
 * java -jar producer-benchmark/target/benchmarks.jar SendBenchmark -t 4 -p totalSizeInBytes=16777216,33554432,67108864,134217728,268435456 -p compression=LZ4
 * java -jar producer-benchmark/target/benchmarks.jar SendBenchmark -t 4 -p compression=NONE,GZIP,LZ4,ZSTD
 * </pre>
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class SendBenchmark extends BenchmarkDefaults {

  /** Request compression on the send threads: none isolates send(); lz4 adds the codec's cost. */
  @Param({"NONE", "LZ4"})
  public String compression;

  /** {@code sendThreads}: the pool that frames, compresses and exports sealed batches (1–32). */
  @Param({"2"})
  public int sendThreads;

  /** {@code batchSizeInBytes}: where a batch is sealed by size, in bytes (256 KiB–4 MiB). */
  @Param({"2097152"})
  public int batchSizeInBytes;

  /** {@code totalSizeInBytes}: the producer's memory budget, in bytes (16–256 MiB). */
  @Param({"104857600"})
  public long totalSizeInBytes;

  /** OTLP exporter stripes (open batches the threads spread over); 0 = the exporter's default. */
  @Param({"0"})
  public int stripes;

  private Producer producer;

  @Setup(Level.Trial)
  public void start() {
    ProducerConfig config =
        ProducerConfig.builder()
            .setClientId("jmh-send")
            .setJmxEnabled(false)
            .setCompression(Compression.valueOf(compression))
            .setTotalSizeInBytes(totalSizeInBytes)
            .setBatchSizeInBytes(batchSizeInBytes)
            .setSendThreads(sendThreads)
            .build();
    OtlpHttpExporterBuilder otlp = OtlpHttpExporter.builder().setEndpoint("http://127.0.0.1:9");
    if (stripes > 0) {
      otlp.setStripes(stripes);
    }
    producer = new Producer(config, new DiscardingExporter(otlp.build()));
  }

  @TearDown(Level.Trial)
  public void stop() {
    producer.close();
  }

  /** Each benchmark thread cycles through its own pre-generated records. */
  @State(Scope.Thread)
  public static class ThreadRecords {
    private static final AtomicLong BASES = new AtomicLong();
    LogRecord[] records;
    int next;

    @Setup(Level.Trial)
    public void generate() {
      records = Records.pool(BASES.getAndIncrement() * 1_000_000L);
    }

    LogRecord next() {
      return records[next++ & (Records.POOL - 1)];
    }
  }

  @Benchmark
  public void send(ThreadRecords r) {
    producer.send(r.next());
  }
}
