package io.logproducer.testing.otlp;

import io.logproducer.Compression;
import io.logproducer.internal.codec.Codec;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;

/**
 * The gRPC wire details of {@link OtlpGrpcReceiver}, from the gRPC over HTTP/2 specification
 * ({@code grpc/doc/PROTOCOL-HTTP2.md}): the length-prefixed message, {@code grpc-message}
 * percent-encoding, {@code grpc-timeout}, {@code grpc-status-details-bin}. Stateless, thread-safe.
 */
final class GrpcWire {

  /** The length prefix: a 1-byte compressed flag and a 4-byte big-endian length. */
  static final int PREFIX = 5;

  private static final String RETRY_INFO_TYPE = "type.googleapis.com/google.rpc.RetryInfo";

  private GrpcWire() {}

  /** Thrown when a message is larger than the limit, with the size found. */
  static final class TooLarge extends IOException {
    private static final long serialVersionUID = 1L;
    final long size;

    TooLarge(long size) {
      super("larger than max: " + size);
      this.size = size;
    }
  }

  /** {@return {@code message} with its 5-byte uncompressed prefix} */
  static byte[] frame(byte[] message) {
    byte[] out = new byte[PREFIX + message.length];
    int n = message.length;
    out[1] = (byte) (n >>> 24);
    out[2] = (byte) (n >>> 16);
    out[3] = (byte) (n >>> 8);
    out[4] = (byte) n;
    System.arraycopy(message, 0, out, PREFIX, n);
    return out;
  }

  /** {@return the 4-byte big-endian length at {@code offset} + 1, as an unsigned value} */
  static long declaredLength(byte[] buf, int offset) {
    return ((buf[offset + 1] & 0xFFL) << 24)
        | ((buf[offset + 2] & 0xFFL) << 16)
        | ((buf[offset + 3] & 0xFFL) << 8)
        | (buf[offset + 4] & 0xFFL);
  }

  /**
   * Decompresses {@code length} bytes of {@code wire} from {@code offset} with the core's {@code
   * encoding} codec ("gzip" or "zstd"), reading at most {@code max} bytes.
   *
   * @throws TooLarge if the message is larger than {@code max} (with its full size)
   * @throws IOException if it is not a valid stream, or the codec's library is missing
   */
  static byte[] decompress(String encoding, byte[] wire, int offset, int length, int max)
      throws IOException {
    Codec codec;
    try {
      codec = Codec.of(Compression.fromName(encoding), 0);
    } catch (IllegalStateException e) {
      throw new IOException(e.getMessage(), e); // zstd-jni missing: the user's set-up, said plainly
    }
    try (InputStream in = codec.decompress(new ByteArrayInputStream(wire, offset, length))) {
      byte[] buf = new byte[Math.max(256, Math.min(max, length * 4))];
      int n = 0;
      while (true) {
        if (n == buf.length) {
          if (n >= max) {
            long size = n;
            byte[] skip = new byte[8192];
            for (int r; (r = in.read(skip)) >= 0; ) {
              size += r;
            }
            if (size > max) {
              throw new TooLarge(size);
            }
            return buf;
          }
          buf = Arrays.copyOf(buf, (int) Math.min(max, buf.length * 2L));
        }
        int r = in.read(buf, n, buf.length - n);
        if (r < 0) {
          return n == buf.length ? buf : Arrays.copyOf(buf, n);
        }
        n += r;
      }
    } catch (TooLarge e) {
      throw e;
    } catch (IOException | RuntimeException e) {
      throw new IOException("cannot decompress the " + encoding + " message: " + e, e);
    }
  }

  /**
   * {@return {@code message} percent-encoded as {@code grpc-message} wants: UTF-8, every byte
   * outside 0x20-0x7E and {@code %} as {@code %XX}}
   */
  static String percentEncode(String message) {
    byte[] utf8 = message.getBytes(StandardCharsets.UTF_8);
    StringBuilder b = new StringBuilder(utf8.length);
    for (byte x : utf8) {
      int c = x & 0xFF;
      if (c >= 0x20 && c <= 0x7E && c != '%') {
        b.append((char) c);
      } else {
        b.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)));
        b.append(Character.toUpperCase(Character.forDigit(c & 0xF, 16)));
      }
    }
    return b.toString();
  }

  /**
   * {@return the {@code grpc-status-details-bin} value: unpadded base64 of {@code
   * google.rpc.Status{code, message, details: [Any{RetryInfo{retry_delay}}]}}}
   */
  static String retryInfoDetails(int code, String message, long retryMillis) {
    // google.protobuf.Duration { int64 seconds = 1; int32 nanos = 2; }
    ByteArrayOutputStream duration = new ByteArrayOutputStream();
    long seconds = retryMillis / 1000;
    int nanos = (int) (retryMillis % 1000) * 1_000_000;
    if (seconds != 0) {
      duration.write(1 << 3);
      writeVarint(duration, seconds);
    }
    if (nanos != 0) {
      duration.write(2 << 3);
      writeVarint(duration, nanos);
    }
    // google.rpc.RetryInfo { google.protobuf.Duration retry_delay = 1; }
    ByteArrayOutputStream retryInfo = new ByteArrayOutputStream();
    writeField(retryInfo, 1, duration.toByteArray());
    // google.protobuf.Any { string type_url = 1; bytes value = 2; }
    ByteArrayOutputStream any = new ByteArrayOutputStream();
    writeField(any, 1, RETRY_INFO_TYPE.getBytes(StandardCharsets.UTF_8));
    writeField(any, 2, retryInfo.toByteArray());
    // google.rpc.Status { int32 code = 1; string message = 2; repeated google.protobuf.Any details
    // = 3; }
    ByteArrayOutputStream status = new ByteArrayOutputStream();
    status.write(1 << 3);
    writeVarint(status, code);
    byte[] m = message.getBytes(StandardCharsets.UTF_8);
    if (m.length > 0) {
      writeField(status, 2, m);
    }
    writeField(status, 3, any.toByteArray());
    return Base64.getEncoder().withoutPadding().encodeToString(status.toByteArray());
  }

  /**
   * Parses a {@code grpc-timeout} value: 1 to 8 ASCII digits and a unit, {@code H}, {@code M},
   * {@code S}, {@code m}, {@code u} or {@code n}.
   *
   * @return the timeout in nanoseconds (saturated at Long.MAX_VALUE)
   * @throws IllegalArgumentException if the value is malformed
   */
  static long timeoutNanos(String value) {
    int n = value.length();
    if (n < 2 || n > 9) {
      throw new IllegalArgumentException("malformed grpc-timeout: \"" + value + "\"");
    }
    long amount = 0;
    for (int i = 0; i < n - 1; i++) {
      char c = value.charAt(i);
      if (c < '0' || c > '9') {
        throw new IllegalArgumentException("malformed grpc-timeout: \"" + value + "\"");
      }
      amount = amount * 10 + (c - '0');
    }
    long unit;
    switch (value.charAt(n - 1)) {
      case 'H':
        unit = 3_600_000_000_000L;
        break;
      case 'M':
        unit = 60_000_000_000L;
        break;
      case 'S':
        unit = 1_000_000_000L;
        break;
      case 'm':
        unit = 1_000_000L;
        break;
      case 'u':
        unit = 1_000L;
        break;
      case 'n':
        unit = 1L;
        break;
      default:
        throw new IllegalArgumentException("malformed grpc-timeout: \"" + value + "\"");
    }
    return amount > Long.MAX_VALUE / unit ? Long.MAX_VALUE : amount * unit;
  }

  static void writeField(ByteArrayOutputStream out, int number, byte[] value) {
    out.write(number << 3 | 2);
    writeVarint(out, value.length);
    out.write(value, 0, value.length);
  }

  static void writeVarint(ByteArrayOutputStream out, long value) {
    long v = value;
    while ((v & ~0x7FL) != 0) {
      out.write((int) (v & 0x7F) | 0x80);
      v >>>= 7;
    }
    out.write((int) v);
  }
}
