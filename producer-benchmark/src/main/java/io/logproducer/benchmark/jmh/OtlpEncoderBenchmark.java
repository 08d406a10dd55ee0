package io.logproducer.benchmark.jmh;

import io.logproducer.LogRecord;
import io.logproducer.otlp.OtlpEncoding;
import io.logproducer.otlp.OtlpHttpExporter;
import io.logproducer.spi.EncodeBuffer;
import io.logproducer.spi.RecordEncoder;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The OTLP record encoder alone, through the exporter's {@code encoder()}, into a reused {@link
 * EncodeBuffer}: ns per reference-workload record (~580 raw bytes), one thread.
 *
 * <pre>java -jar target/benchmarks.jar OtlpEncoderBenchmark -prof gc</pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
    value = 1,
    jvmArgsPrepend = "--enable-native-access=ALL-UNNAMED") // zstd-jni, lz4-java: no JDK 24+ warning
public class OtlpEncoderBenchmark {

  @Param({"PROTOBUF", "JSON"})
  public String encoding;

  private RecordEncoder encoder;
  private EncodeBuffer buffer;
  private LogRecord[] records;
  private int next;

  @Setup(Level.Trial)
  public void setup() {
    OtlpHttpExporter exporter =
        OtlpHttpExporter.builder()
            .setEndpoint("http://127.0.0.1:9")
            .setEncoding(OtlpEncoding.valueOf(encoding))
            .build();
    encoder = exporter.encoder();
    buffer = new EncodeBuffer(4096);
    records = Records.pool(0);
  }

  @Benchmark
  public int encode() {
    EncodeBuffer b = buffer;
    b.reset();
    encoder.encode(records[next++ & (Records.POOL - 1)], b);
    return b.size();
  }
}
