package io.logproducer.otlp.internal.grpc;

import com.github.luben.zstd.ZstdInputStream;
import io.logproducer.otlp.internal.ExportResponses;
import io.logproducer.otlp.internal.OtlpEnvironment;
import io.logproducer.spi.ExportResult;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.zip.GZIPInputStream;

/**
 * Turns a gRPC answer into an {@link ExportResult}, per the OTLP specification ({@code
 * opentelemetry-proto}, {@code docs/specification.md}, "OTLP/gRPC"):
 *
 * <ul>
 *   <li>HTTP status other than 200: the gRPC status of the HTTP-to-status table ({@code grpc/grpc},
 *       {@code doc/http-grpc-status-mapping.md}; 429, 502, 503, 504 are UNAVAILABLE: retryable);
 *   <li>{@code grpc-status} 0 (from the trailers, or the headers of a trailers-only response):
 *       success; an {@code ExportLogsServiceResponse} whose {@code partial_success} rejects records
 *       is a partial success, read as the HTTP exporter reads it ({@link
 *       ExportResponses#accepted});
 *   <li>CANCELLED, DEADLINE_EXCEEDED, ABORTED, OUT_OF_RANGE, UNAVAILABLE, DATA_LOSS, and
 *       RESOURCE_EXHAUSTED with a {@code RetryInfo}: retryable, after the RetryInfo's delay when
 *       given ({@link RetryInfos});
 *   <li>anything else, or no {@code grpc-status} at all (UNKNOWN): rejected.
 * </ul>
 *
 * Messages read "gRPC UNAVAILABLE (14): " and the percent-decoded {@code grpc-message}. Stateless,
 * thread-safe; never throws.
 */
final class GrpcResponses {

  private GrpcResponses() {}

  static ExportResult toResult(GrpcResponse r) {
    if (r.httpStatus != 200) {
      int code = GrpcStatus.fromHttpStatus(r.httpStatus);
      String message =
          "HTTP "
              + r.httpStatus
              + " from a gRPC endpoint, "
              + describe(code, r.status("grpc-message"));
      return GrpcStatus.retryable(code, false)
          ? ExportResult.retryable(message, null, -1)
          : ExportResult.rejected(message);
    }
    String statusText = r.status("grpc-status");
    int code;
    try {
      code = statusText == null ? -1 : Integer.parseInt(statusText.trim());
    } catch (NumberFormatException e) {
      code = -1;
    }
    if (code < 0) {
      return ExportResult.rejected(
          "gRPC UNKNOWN (2): the response has no valid grpc-status ("
              + (statusText == null ? "none" : "'" + statusText + "'")
              + "; content-type "
              + r.headers.get("content-type")
              + ")");
    }
    if (code == GrpcStatus.OK) {
      return accepted(r);
    }
    long delay = RetryInfos.retryDelayMillis(r.status("grpc-status-details-bin"));
    boolean hasRetryInfo = delay != RetryInfos.NONE;
    String message = describe(code, r.status("grpc-message"));
    if (code == GrpcStatus.RESOURCE_EXHAUSTED && !hasRetryInfo) {
      message += " (not retried: no RetryInfo, the server cannot recover)";
    }
    return GrpcStatus.retryable(code, hasRetryInfo)
        ? ExportResult.retryable(message, null, hasRetryInfo ? delay : -1)
        : ExportResult.rejected(message);
  }

  /** "gRPC UNAVAILABLE (14): message". */
  static String describe(int code, String grpcMessage) {
    String m = grpcMessage == null ? "" : OtlpEnvironment.percentDecode(grpcMessage).trim();
    return "gRPC " + GrpcStatus.name(code) + " (" + code + ")" + (m.isEmpty() ? "" : ": " + m);
  }

  private static ExportResult accepted(GrpcResponse r) {
    if (r.length < GrpcRequestEntity.PREFIX_BYTES || r.truncated) {
      return ExportResult.success(); // no message, or a huge one: accepted, nothing to read
    }
    byte[] b = r.body;
    boolean compressed = b[0] != 0;
    long len =
        ((b[1] & 0xffL) << 24) | ((b[2] & 0xff) << 16) | ((b[3] & 0xff) << 8) | (b[4] & 0xff);
    if (len > r.length - GrpcRequestEntity.PREFIX_BYTES) {
      return ExportResult.success();
    }
    byte[] message = new byte[(int) len];
    System.arraycopy(b, GrpcRequestEntity.PREFIX_BYTES, message, 0, (int) len);
    if (compressed) {
      message = decompress(message, r.headers.get("grpc-encoding"));
      if (message == null) {
        return ExportResult.success();
      }
    }
    return ExportResponses.accepted(message, message.length);
  }

  /** The message decompressed, or null if the encoding is unknown or the bytes are corrupt. */
  private static byte[] decompress(byte[] message, String encoding) {
    if (encoding == null) {
      return null;
    }
    try {
      InputStream in;
      switch (encoding.trim().toLowerCase(java.util.Locale.ROOT)) {
        case "gzip":
          in = new GZIPInputStream(new ByteArrayInputStream(message));
          break;
        case "zstd":
          in = new ZstdInputStream(new ByteArrayInputStream(message));
          break;
        default:
          return null;
      }
      try (InputStream i = in) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[512];
        int n;
        while ((n = i.read(buf)) > 0 && out.size() < GrpcResponse.MAX_BODY_BYTES) {
          out.write(buf, 0, n);
        }
        return out.toByteArray();
      }
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }
}
