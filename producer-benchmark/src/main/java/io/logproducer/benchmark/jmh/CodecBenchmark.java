package io.logproducer.benchmark.jmh;

import io.logproducer.Compression;
import io.logproducer.LogRecord;
import io.logproducer.internal.codec.Codec;
import io.logproducer.otlp.OtlpHttpExporter;
import io.logproducer.spi.EncodeBuffer;
import io.logproducer.spi.RecordEncoder;
import io.logproducer.testing.ReferenceWorkload;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.AuxCounters;
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
 * Each codec compressing one 2 MiB batch of reference-workload records in OTLP protobuf form,
 * written in 64 KiB slices as the send threads write a batch's chunks, into a reused buffer: the
 * producer's per-batch codec cost. MB/s = 2.097152 × ops/s. One thread.
 *
 * <pre>java -jar target/benchmarks.jar CodecBenchmark</pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
    value = 1,
    jvmArgsPrepend = "--enable-native-access=ALL-UNNAMED") // zstd-jni, lz4-java: no JDK 24+ warning
public class CodecBenchmark {

  /** Size of the batch: {@value} bytes (2 MiB, the reference batch size). */
  public static final int BATCH_BYTES = 2 * 1024 * 1024;

  private static final int SLICE = 64 * 1024;

  /** codec-level: none, gzip-1, lz4, zstd-1, zstd-3 — the producer's codecs ({@code Codec.of}). */
  @Param({"none", "gzip-1", "lz4", "zstd-1", "zstd-3"})
  public String codec;

  private Codec impl;
  private byte[] batch;
  private Sink sink;

  @Setup(Level.Trial)
  public void setup() {
    batch = workloadBatch(BATCH_BYTES);
    sink = new Sink();
    int dash = codec.indexOf('-');
    Compression c = Compression.fromName(dash < 0 ? codec : codec.substring(0, dash));
    int level = dash < 0 ? 0 : Integer.parseInt(codec.substring(dash + 1));
    impl = Codec.of(c, level);
  }

  /**
   * {@code bytes} of encoded reference-workload records (OTLP protobuf {@code log_records} fields).
   */
  public static byte[] workloadBatch(int bytes) {
    RecordEncoder encoder =
        OtlpHttpExporter.builder().setEndpoint("http://127.0.0.1:9").build().encoder();
    EncodeBuffer one = new EncodeBuffer(4096);
    byte[] out = new byte[bytes];
    int pos = 0;
    ReferenceWorkload w = new ReferenceWorkload();
    for (long seq = 0; pos < bytes; seq++) {
      LogRecord r = w.next(seq);
      one.reset();
      encoder.encode(r, one);
      int n = Math.min(one.size(), bytes - pos);
      System.arraycopy(one.array(), 0, out, pos, n);
      pos += n;
    }
    return out;
  }

  /** Compressed size, for the ratio. */
  @AuxCounters(AuxCounters.Type.EVENTS)
  @State(Scope.Thread)
  public static class Ratio {
    public long compressedBytes;
    public long rawBytes;
  }

  @Benchmark
  public int compress(Ratio ratio) throws IOException {
    sink.reset();
    OutputStream out = impl.compress(sink);
    for (int off = 0; off < batch.length; off += SLICE) {
      out.write(batch, off, Math.min(SLICE, batch.length - off));
    }
    out.close();
    ratio.compressedBytes += sink.size;
    ratio.rawBytes += batch.length;
    return sink.size;
  }

  /** A reusable unsynchronized byte sink. */
  static final class Sink extends OutputStream {
    byte[] buf = new byte[BATCH_BYTES + 65536];
    int size;

    void reset() {
      size = 0;
    }

    @Override
    public void write(int b) {
      ensure(1);
      buf[size++] = (byte) b;
    }

    @Override
    public void write(byte[] b, int off, int len) {
      ensure(len);
      System.arraycopy(b, off, buf, size, len);
      size += len;
    }

    private void ensure(int n) {
      if (size + n > buf.length) {
        buf = Arrays.copyOf(buf, Math.max(size + n, buf.length * 2));
      }
    }
  }
}
