package io.logproducer.testing.otlp;

import io.logproducer.Compression;
import io.logproducer.internal.codec.Codec;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hc.core5.http.ClassicHttpRequest;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.http.HttpRequest;

/**
 * Checks, reads, decompresses (with the core's codecs) and decodes one request of {@link
 * OtlpReceiver}, the way the Collector's OTLP/HTTP receiver judges it. Thread-safe: one {@link
 * #read} per request, on its thread.
 */
final class RequestReader {

  /** What {@link #read} found: an error with its status, or a well-formed request. */
  static final class Result {
    int status;
    String error;
    Map<String, List<String>> headers;
    int wireLength;
    byte[] body;
    long recordCount;
    List<ReceivedLogRecord> records;
    long[] ids;

    static Result error(int status, String error) {
      Result r = new Result();
      r.status = status;
      r.error = error;
      return r;
    }
  }

  private final boolean decode;
  private final byte[] idKey;

  RequestReader(boolean decode, byte[] idKey) {
    this.decode = decode;
    this.idKey = idKey;
  }

  /** Reads {@code request}; the body is always consumed. */
  Result read(ClassicHttpRequest request) throws IOException {
    byte[] wire = readAll(request);
    if (!"POST".equals(request.getMethod())) {
      return Result.error(405, "method must be POST, was " + request.getMethod());
    }
    String path = path(request);
    if (!OtlpReceiver.LOGS_PATH.equals(path)) {
      return Result.error(404, "path must be " + OtlpReceiver.LOGS_PATH + ", was " + path);
    }
    String type = header(request, "Content-Type");
    String mediaType = type == null ? "" : type.split(";", 2)[0].trim().toLowerCase(Locale.ROOT);
    boolean json = mediaType.equals("application/json");
    if (!json && !mediaType.equals("application/x-protobuf")) {
      return Result.error(
          415, "Content-Type must be application/x-protobuf or application/json, was " + type);
    }
    String encoding = header(request, "Content-Encoding");
    Result r = new Result();
    try {
      r.body = decompress(encoding, wire);
      if (json) {
        decodeJson(r);
      } else {
        decodeProtobuf(r);
      }
    } catch (IllegalArgumentException | IOException e) {
      return Result.error(400, e.getMessage() == null ? e.toString() : e.getMessage());
    }
    r.status = 200;
    r.wireLength = wire.length;
    r.headers = headers(request);
    return r;
  }

  /**
   * Decodes (strict) or counts a decompressed protobuf {@code ExportLogsServiceRequest}, the
   * message of an OTLP/gRPC call ({@link OtlpGrpcReceiver}): fills {@code records}, {@code
   * recordCount} and {@code ids} of a new result whose {@code body} is {@code body}.
   *
   * @throws IllegalArgumentException if the message is malformed
   */
  Result readProtobuf(byte[] body) {
    Result r = new Result();
    r.body = body;
    decodeProtobuf(r);
    return r;
  }

  private void decodeProtobuf(Result r) {
    if (decode) {
      r.records = ProtobufRequests.decode(r.body, r.body.length);
      r.recordCount = r.records.size();
      if (idKey != null) {
        r.ids = ids(r.records);
      }
    } else if (idKey != null) {
      IdList ids = new IdList();
      r.recordCount = ProtobufRequests.count(r.body, 0, r.body.length, idKey, ids);
      r.ids = ids.toArray();
    } else {
      r.recordCount = ProtobufRequests.count(r.body, 0, r.body.length, null, null);
    }
  }

  private void decodeJson(Result r) {
    List<ReceivedLogRecord> records =
        JsonRequests.decode(new String(r.body, StandardCharsets.UTF_8));
    r.recordCount = records.size();
    if (idKey != null) {
      r.ids = ids(records);
    }
    r.records =
        decode ? records : null; // counting mode counts JSON by decoding it, keeping nothing
  }

  private long[] ids(List<ReceivedLogRecord> records) {
    String key = new String(idKey, StandardCharsets.UTF_8);
    long[] out = new long[records.size()];
    for (int i = 0; i < out.length; i++) {
      Object v = records.get(i).attribute(key);
      out[i] = v instanceof Long ? (Long) v : -1;
    }
    return out;
  }

  private static byte[] decompress(String encoding, byte[] wire) throws IOException {
    if (encoding == null) {
      return wire;
    }
    Compression c;
    try {
      c = Compression.fromName(encoding);
    } catch (IllegalArgumentException e) {
      throw new IOException("unsupported Content-Encoding " + encoding);
    }
    if (c == Compression.NONE) {
      throw new IOException(
          "Content-Encoding " + encoding + " must be omitted for an uncompressed body");
    }
    Codec codec;
    try {
      codec = Codec.of(c, 0);
    } catch (IllegalStateException e) {
      throw new IOException(
          e.getMessage(), e); // lz4-java or zstd-jni missing: the user's set-up, said plainly
    }
    try (InputStream in = codec.decompress(new ByteArrayInputStream(wire))) {
      return readAll(in, Math.max(1024, wire.length * 8));
    } catch (IOException | RuntimeException e) {
      throw new IOException(
          "cannot decompress the " + encoding + " body of " + wire.length + " bytes: " + e, e);
    }
  }

  /**
   * {@return the decoded path of the request's target without its query, as {@code URI.getPath()}
   * gives it}
   */
  static String path(HttpRequest request) {
    String target = request.getPath();
    if (target == null) {
      return "";
    }
    try {
      String path = new URI(target).getPath();
      return path == null ? target : path;
    } catch (URISyntaxException e) {
      int query = target.indexOf('?');
      return query < 0 ? target : target.substring(0, query);
    }
  }

  private static String header(HttpRequest request, String name) {
    Header h = request.getFirstHeader(name);
    return h == null ? null : h.getValue();
  }

  private static byte[] readAll(ClassicHttpRequest request) throws IOException {
    HttpEntity entity = request.getEntity();
    if (entity == null) {
      return new byte[0];
    }
    long length = entity.getContentLength(); // -1 when chunked
    int hint = length < 0 ? 8192 : (int) Math.min(Integer.MAX_VALUE - 8, length);
    try (InputStream in = entity.getContent()) {
      return readAll(in, hint);
    }
  }

  /** Reads {@code in} to its end; {@code sizeHint} bytes are expected. */
  private static byte[] readAll(InputStream in, int sizeHint) throws IOException {
    byte[] buf = new byte[Math.max(16, sizeHint)];
    int n = 0;
    while (true) {
      if (n == buf.length) {
        int probe = in.read();
        if (probe < 0) {
          return buf;
        }
        buf = Arrays.copyOf(buf, buf.length >= (1 << 29) ? Integer.MAX_VALUE - 8 : buf.length * 2);
        buf[n++] = (byte) probe;
      }
      int r = in.read(buf, n, buf.length - n);
      if (r < 0) {
        return n == buf.length ? buf : Arrays.copyOf(buf, n);
      }
      n += r;
    }
  }

  /** {@return the request's headers by lower-case name, each with its values in order} */
  static Map<String, List<String>> headers(HttpRequest request) {
    Map<String, List<String>> out = new LinkedHashMap<>();
    for (Header h : request.getHeaders()) {
      out.computeIfAbsent(h.getName().toLowerCase(Locale.ROOT), k -> new ArrayList<>())
          .add(h.getValue());
    }
    for (Map.Entry<String, List<String>> e : out.entrySet()) {
      e.setValue(Collections.unmodifiableList(e.getValue()));
    }
    return Collections.unmodifiableMap(out);
  }

  /**
   * A growable list of record ids, the {@code LongConsumer} of a counting walk. Not thread-safe.
   */
  private static final class IdList implements java.util.function.LongConsumer {
    private long[] ids = new long[1024];
    private int n;

    @Override
    public void accept(long id) {
      if (n == ids.length) {
        ids = Arrays.copyOf(ids, n * 2);
      }
      ids[n++] = id;
    }

    long[] toArray() {
      return Arrays.copyOf(ids, n);
    }
  }
}
