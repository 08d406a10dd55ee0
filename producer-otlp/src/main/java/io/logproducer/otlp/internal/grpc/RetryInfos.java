package io.logproducer.otlp.internal.grpc;

import io.logproducer.internal.proto.ProtoReader;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * Finds the retry delay in a {@code grpc-status-details-bin} trailer, decoded by hand (no
 * protobuf-java): base64 (padding optional, {@code grpc/grpc} {@code doc/PROTOCOL-HTTP2.md}) of a
 * {@code google.rpc.Status} ({@code int32 code = 1; string message = 2; repeated
 * google.protobuf.Any details = 3}), whose {@code Any} ({@code string type_url = 1; bytes value =
 * 2}) of type {@value #RETRY_INFO_TYPE} holds a {@code google.rpc.RetryInfo} ({@code
 * google.protobuf.Duration retry_delay = 1}; {@code Duration}: {@code int64 seconds = 1; int32
 * nanos = 2}); {@code googleapis/google/rpc/status.proto} and {@code error_details.proto}.
 * Stateless, thread-safe.
 */
final class RetryInfos {

  /** The type URL of {@code google.rpc.RetryInfo}: {@value}. */
  static final String RETRY_INFO_TYPE = "type.googleapis.com/google.rpc.RetryInfo";

  /** No RetryInfo (or an unreadable one). */
  static final long NONE = -2;

  private RetryInfos() {}

  /**
   * @param detailsBin the trailer's value, or null
   * @return the delay in ms (0 or more; a negative delay counts as 0), or {@link #NONE}; never
   *     throws
   */
  static long retryDelayMillis(String detailsBin) {
    if (detailsBin == null || detailsBin.trim().isEmpty()) {
      return NONE;
    }
    try {
      byte[] status = Base64.getDecoder().decode(detailsBin.trim());
      ProtoReader r = new ProtoReader(status, 0, status.length);
      while (r.hasMore()) {
        int tag = r.readTag();
        if (tag != ProtoReader.tag(3, ProtoReader.LEN)) {
          r.skip(tag);
          continue;
        }
        long delay = fromAny(r.readMessage());
        if (delay != NONE) {
          return delay;
        }
      }
    } catch (IllegalArgumentException | IndexOutOfBoundsException malformed) {
      return NONE;
    }
    return NONE;
  }

  private static long fromAny(ProtoReader any) {
    boolean retryInfo = false;
    byte[] value = null;
    while (any.hasMore()) {
      int tag = any.readTag();
      if (tag == ProtoReader.tag(1, ProtoReader.LEN)) {
        retryInfo =
            any.readBytesEqual(RETRY_INFO_TYPE.getBytes(StandardCharsets.US_ASCII)) || retryInfo;
      } else if (tag == ProtoReader.tag(2, ProtoReader.LEN)) {
        value = any.readBytes();
      } else {
        any.skip(tag);
      }
    }
    if (!retryInfo) {
      return NONE;
    }
    long millis = 0;
    ProtoReader info =
        new ProtoReader(value == null ? new byte[0] : value, 0, value == null ? 0 : value.length);
    while (info.hasMore()) {
      int tag = info.readTag();
      if (tag != ProtoReader.tag(1, ProtoReader.LEN)) {
        info.skip(tag);
        continue;
      }
      ProtoReader duration = info.readMessage();
      long seconds = 0;
      long nanos = 0;
      while (duration.hasMore()) {
        int t = duration.readTag();
        if (t == ProtoReader.tag(1, ProtoReader.VARINT)) {
          seconds = duration.readVarint();
        } else if (t == ProtoReader.tag(2, ProtoReader.VARINT)) {
          nanos = (int) duration.readVarint();
        } else {
          duration.skip(t);
        }
      }
      millis = Math.max(0, Math.min(seconds, Long.MAX_VALUE / 1000 - 1) * 1000 + nanos / 1_000_000);
    }
    return millis;
  }
}
