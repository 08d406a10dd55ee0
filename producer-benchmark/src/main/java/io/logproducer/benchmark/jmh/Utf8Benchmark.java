package io.logproducer.benchmark.jmh;

import io.logproducer.LogRecord;
import io.logproducer.otlp.encoding.internal.ProtoWriter;
import io.logproducer.spi.EncodeBuffer;
import io.logproducer.testing.ReferenceWorkload;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.StandardCharsets;
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
 * Where the OTLP encoder's time goes: the UTF-8 work on one reference-workload record's four values
 * (three ASCII attributes of ~20–90 chars and the ~400-char body with CJK characters), done the
 * encoder's way (one pass per value, {@code writeUtf8LengthDelimited}), the encoder's earlier ways
 * (a length pass, then a write pass) and the JDK's ways; per string shape as well (short and long
 * ASCII, long with CJK), where a size or content threshold picks the path.
 *
 * <pre>java -jar target/benchmarks.jar Utf8Benchmark -prof gc</pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
    value = 1,
    jvmArgsPrepend = "--enable-native-access=ALL-UNNAMED") // zstd-jni, lz4-java: no JDK 24+ warning
public class Utf8Benchmark {

  /**
   * onepass: {@code ProtoWriter.writeUtf8LengthDelimited} per value, the length prefix filled in
   * after the bytes (the encoder now); encodebuffer: {@code EncodeBuffer.utf8Length} + {@code
   * writeUtf8} per value (a length pass, then a write pass); marked: {@code utf8LengthMarked} +
   * {@code writeUtf8Marked} (the encoder's two passes until it wrote each string in one); getbytes:
   * {@code String.getBytes(UTF_8)} + copy (allocates); charsetencoder: a reused {@link
   * CharsetEncoder} into a reused buffer (no allocation); asciifast: like encodebuffer, but a value
   * whose UTF-8 length equals its char count (ASCII) is copied with {@code String.getBytes(int,
   * int, byte[], int)}, an array copy for compact Latin-1 strings, instead of char by char (a
   * prototype for the encoder's write pass); getbytescopy: {@code String.getBytes(UTF_8)}, its
   * length as a varint, then the bytes copied into the reused buffer (the bulk path alone, at every
   * length); charloop: {@code ProtoWriter.putUtf8}, a {@code charAt} loop, at every length, with
   * the length filled in after the bytes (the char path alone).
   */
  @Param({
    "onepass",
    "encodebuffer",
    "marked",
    "asciifast",
    "getbytes",
    "charsetencoder",
    "getbytescopy",
    "charloop"
  })
  public String method;

  /**
   * The strings encoded per op: record: one reference-workload record's four values (the row the
   * report reads); short-ascii: its 23-char thread attribute; long-ascii: 180 ASCII chars (its
   * location attribute, twice, cut); long-cjk: its ~420-char body (24 CJK characters among ASCII).
   */
  @Param({"record", "short-ascii", "long-ascii", "long-cjk"})
  public String shape;

  private String[] values;
  private EncodeBuffer buffer;
  private CharsetEncoder encoder;
  private ByteBuffer out;
  private byte[] raw = new byte[4096];

  @Setup(Level.Trial)
  public void setup() {
    LogRecord r = new ReferenceWorkload().next(1_234_567);
    String location = r.getAttributeValue(2).asString();
    switch (shape) {
      case "record":
        values =
            new String[] {
              r.getAttributeValue(0).asString(),
              r.getAttributeValue(1).asString(),
              location,
              r.getBody().asString()
            };
        break;
      case "short-ascii":
        values = new String[] {r.getAttributeValue(1).asString()};
        break;
      case "long-ascii":
        values = new String[] {(location + location + location).substring(0, 180)};
        break;
      case "long-cjk":
        values = new String[] {r.getBody().asString()};
        break;
      default:
        throw new IllegalArgumentException("shape: " + shape);
    }
    buffer = new EncodeBuffer(4096);
    encoder = StandardCharsets.UTF_8.newEncoder();
    out = ByteBuffer.allocate(4096);
  }

  @SuppressWarnings("deprecation") // the only allocation-free bulk copy of a Latin-1 String's bytes
  private static void asciiCopy(String s, byte[] dst, int off) {
    s.getBytes(0, s.length(), dst, off);
  }

  /** The {@code charloop} method: a {@code charAt} loop at every length, length filled in after. */
  private int charLoop() {
    EncodeBuffer b = buffer;
    b.reset();
    int n = 0;
    for (String s : values) {
      b.ensure(5 + 3 * s.length());
      int width = EncodeBuffer.varintSize32(s.length());
      int index = ProtoWriter.reserveVarint32(b, width);
      b.setSize(ProtoWriter.putUtf8(s, b.array(), b.size()));
      n += ProtoWriter.fillVarint32(b, index, width);
    }
    return n + b.size();
  }

  @Benchmark
  public int utf8() {
    switch (method) {
      case "onepass":
        {
          EncodeBuffer b = buffer;
          b.reset();
          int n = 0;
          for (String s : values) {
            n += ProtoWriter.writeUtf8LengthDelimited(b, s);
          }
          return n + b.size();
        }
      case "encodebuffer":
        {
          EncodeBuffer b = buffer;
          b.reset();
          int n = 0;
          for (String s : values) {
            n += EncodeBuffer.utf8Length(s);
            b.writeUtf8(s);
          }
          return n + b.size();
        }
      case "marked":
        {
          EncodeBuffer b = buffer;
          b.reset();
          int n = 0;
          for (String s : values) {
            int marked = ProtoWriter.utf8LengthMarked(s);
            n += ProtoWriter.markedLength(marked);
            ProtoWriter.writeUtf8Marked(b, s, marked);
          }
          return n + b.size();
        }
      case "asciifast":
        {
          EncodeBuffer b = buffer;
          b.reset();
          int pos = 0;
          for (String s : values) {
            int len = EncodeBuffer.utf8Length(s);
            if (len == s.length()) {
              asciiCopy(s, raw, pos);
            } else {
              b.reset();
              b.writeUtf8(s);
              System.arraycopy(b.array(), 0, raw, pos, len);
            }
            pos += len;
          }
          return pos;
        }
      case "getbytescopy":
        {
          EncodeBuffer b = buffer;
          b.reset();
          int n = 0;
          for (String s : values) {
            byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
            b.writeVarint32(bytes.length);
            b.writeBytes(bytes);
            n += bytes.length;
          }
          return n + b.size();
        }
      case "charloop":
        return charLoop();
      case "getbytes":
        {
          EncodeBuffer b = buffer;
          b.reset();
          for (String s : values) {
            b.writeBytes(s.getBytes(StandardCharsets.UTF_8));
          }
          return b.size();
        }
      default:
        {
          ByteBuffer o = out;
          o.clear();
          for (String s : values) {
            encoder.reset();
            encoder.encode(CharBuffer.wrap(s), o, true);
          }
          return o.position();
        }
    }
  }
}
