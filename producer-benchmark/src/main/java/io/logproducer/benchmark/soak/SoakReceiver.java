package io.logproducer.benchmark.soak;

import io.logproducer.examples.receiver.ProtobufReader;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.BindException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.GZIPInputStream;
import org.apache.hc.core5.http.ClassicHttpRequest;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.http.impl.bootstrap.HttpServer;
import org.apache.hc.core5.http.impl.bootstrap.ServerBootstrap;
import org.apache.hc.core5.http.io.SocketConfig;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import org.apache.hc.core5.http.io.entity.StringEntity;
import org.apache.hc.core5.http.protocol.HttpContext;
import org.apache.hc.core5.io.CloseMode;

/**
 * The soak's OTLP/HTTP receiver, in its own JVM on 127.0.0.1 (so that its heap and threads do not mix with the
 * producer's): {@code java -cp benchmarks.jar io.logproducer.benchmark.soak.SoakReceiver --threads T [--port P]}.
 *
 * <p>Accepts {@code POST /v1/logs} in protobuf with {@code Content-Encoding} lz4 (frame), zstd, gzip or none,
 * decompresses and walks every request, and records each log record's id (its integer attribute {@code seq} =
 * thread × 10^9 + sequence) in a bitset per producer thread: a record seen before is a duplicate (a legitimate
 * retry after a lost response). Answers 200 with an empty {@code partial_success}, as the Collector does.
 *
 * <p>Driven over stdin, one command a line, each acknowledged with {@code ok <command>} on stdout:
 * {@code up} (listen and answer normally, re-binding the same port if it was closed), {@code refuse} (close the
 * listening socket and every open connection: connection refused), {@code unavailable} (keep listening, answer
 * every request 503 with {@code Retry-After: 1}), {@code dump <file>} (write the id bitsets), {@code quit}. Exits
 * when stdin closes. Prints {@code listening <endpoint>} once, then a {@code stats …} line every second.
 */
public final class SoakReceiver {

  private static final byte[] EMPTY_PROTO_RESPONSE = {0x0A, 0x00};

  enum State { UP, REFUSING, UNAVAILABLE }

  private final SoakIdSet[] seen;
  private final AtomicLong unique = new AtomicLong();
  private final AtomicLong duplicates = new AtomicLong();
  private final AtomicLong records = new AtomicLong();
  private final AtomicLong noId = new AtomicLong();
  private final AtomicLong unknownThread = new AtomicLong();
  private final AtomicLong requests = new AtomicLong();
  private final AtomicLong unavailable = new AtomicLong();
  private final AtomicLong bad = new AtomicLong();
  private final AtomicLong wireBytes = new AtomicLong();
  private final AtomicLong bodyBytes = new AtomicLong();
  private volatile State state = State.UP;
  private volatile HttpServer server;
  private int port;
  private volatile String lastBad;

  SoakReceiver(int threads) {
    seen = new SoakIdSet[threads];
    for (int i = 0; i < threads; i++) {
      seen[i] = new SoakIdSet(0);
    }
  }

  public static void main(String[] args) throws Exception {
    int threads = 10;
    int port = 0;
    for (int i = 0; i + 1 < args.length; i += 2) {
      switch (args[i]) {
        case "--threads" -> threads = Integer.parseInt(args[i + 1]);
        case "--port" -> port = Integer.parseInt(args[i + 1]);
        default -> throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    SoakReceiver r = new SoakReceiver(threads);
    r.port = port;
    r.bind();
    say("listening http://127.0.0.1:" + r.port);
    Thread reporter = new Thread(() -> {
      try {
        while (true) {
          TimeUnit.SECONDS.sleep(1);
          say(r.statsLine());
        }
      } catch (InterruptedException e) {
        // exit
      }
    }, "soak-receiver-stats");
    reporter.setDaemon(true);
    reporter.start();
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    String line;
    while ((line = in.readLine()) != null) {
      line = line.trim();
      if (line.equals("quit")) {
        break;
      }
      try {
        r.command(line);
        say("ok " + line);
      } catch (Exception e) {
        say("error " + line + ": " + e);
      }
    }
    HttpServer s = r.server;
    if (s != null) {
      s.close(CloseMode.IMMEDIATE);
    }
    say(r.statsLine());
    System.exit(0);
  }

  private static synchronized void say(String line) {
    System.out.println(line);
    System.out.flush();
  }

  String statsLine() {
    return String.format(Locale.ROOT,
        "stats unique=%d dup=%d records=%d noid=%d unknown=%d requests=%d unavailable=%d bad=%d wire=%d body=%d"
            + " state=%s%s",
        unique.get(), duplicates.get(), records.get(), noId.get(), unknownThread.get(), requests.get(),
        unavailable.get(), bad.get(), wireBytes.get(), bodyBytes.get(), state,
        lastBad == null ? "" : " last_bad=" + lastBad.replace(' ', '_'));
  }

  private void command(String line) throws IOException, InterruptedException {
    String[] p = line.split("\\s+", 2);
    switch (p[0]) {
      case "up" -> {
        if (server == null) {
          bind();
        }
        state = State.UP;
      }
      case "refuse" -> {
        state = State.REFUSING;
        HttpServer s = server;
        server = null;
        if (s != null) {
          s.close(CloseMode.IMMEDIATE);
        }
      }
      case "unavailable" -> {
        if (server == null) {
          bind();
        }
        state = State.UNAVAILABLE;
      }
      case "dump" -> dump(Path.of(p[1]));
      default -> throw new IllegalArgumentException("unknown command");
    }
  }

  /** Listens on {@link #port} (any free port the first time), retrying a busy port for up to 10 s. */
  private void bind() throws IOException, InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (true) {
      HttpServer s = ServerBootstrap.bootstrap()
          .setLocalAddress(InetAddress.getLoopbackAddress())
          .setListenerPort(port)
          .setCanonicalHostName("127.0.0.1")
          .setSocketConfig(SocketConfig.custom().setTcpNoDelay(true).setSoReuseAddress(true)
              .setSoTimeout(60, TimeUnit.SECONDS).setRcvBufSize(1 << 20).build())
          .register("/v1/logs", this::handle)
          .create();
      try {
        s.start();
        port = s.getLocalPort();
        server = s;
        return;
      } catch (BindException e) {
        s.close(CloseMode.IMMEDIATE);
        if (System.nanoTime() - deadline > 0) {
          throw e;
        }
        TimeUnit.MILLISECONDS.sleep(100);
      }
    }
  }

  private void dump(Path file) throws IOException {
    try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(file), 1 << 16))) {
      out.writeInt(seen.length);
      for (SoakIdSet s : seen) {
        s.writeTo(out);
      }
    }
  }

  private void handle(ClassicHttpRequest request, ClassicHttpResponse response, HttpContext context)
      throws IOException {
    HttpEntity entity = request.getEntity();
    if (!"POST".equals(request.getMethod())) {
      EntityUtils.consume(entity);
      response.setCode(405);
      response.setEntity(new StringEntity("only POST is allowed", ContentType.TEXT_PLAIN));
      return;
    }
    if (state != State.UP) {
      EntityUtils.consume(entity);
      unavailable.incrementAndGet();
      response.setCode(503);
      response.setHeader("Retry-After", "1");
      response.setEntity(new StringEntity("soak outage: receiver unavailable", ContentType.TEXT_PLAIN));
      return;
    }
    Header encoding = request.getFirstHeader("Content-Encoding");
    Header type = request.getFirstHeader("Content-Type");
    byte[] wire = entity == null ? new byte[0] : EntityUtils.toByteArray(entity);
    long[] ids;
    byte[] body;
    try {
      if (type == null || !type.getValue().startsWith("application/x-protobuf")) {
        throw new IllegalArgumentException("the soak receiver takes protobuf only, got " + type);
      }
      body = decompress(encoding == null ? "" : encoding.getValue(), wire);
      ids = ids(body);
    } catch (IllegalArgumentException | IOException e) {
      bad.incrementAndGet();
      lastBad = String.valueOf(e);
      response.setCode(400);
      response.setEntity(new StringEntity("bad request: " + e.getMessage(), ContentType.TEXT_PLAIN));
      return;
    }
    int n = (int) ids[0];
    for (int k = 1; k <= n; k++) {
      long id = ids[k];
      records.incrementAndGet();
      if (id < 0) {
        noId.incrementAndGet();
        continue;
      }
      long t = id / SoakRecords.ID_STRIDE;
      if (t >= seen.length) {
        unknownThread.incrementAndGet();
        continue;
      }
      if (seen[(int) t].add(id % SoakRecords.ID_STRIDE)) {
        unique.incrementAndGet();
      } else {
        duplicates.incrementAndGet();
      }
    }
    requests.incrementAndGet();
    wireBytes.addAndGet(wire.length);
    bodyBytes.addAndGet(body.length);
    response.setCode(200);
    response.setEntity(new ByteArrayEntity(EMPTY_PROTO_RESPONSE, ContentType.create("application/x-protobuf")));
  }

  static byte[] decompress(String encoding, byte[] wire) throws IOException {
    String e = encoding.trim().toLowerCase(Locale.ROOT);
    InputStream in;
    switch (e) {
      case "", "identity", "none":
        return wire;
      case "gzip":
        in = new GZIPInputStream(new ByteArrayInputStream(wire), 1 << 16);
        break;
      case "lz4":
        in = new net.jpountz.lz4.LZ4FrameInputStream(new ByteArrayInputStream(wire));
        break;
      case "zstd":
        in = new com.github.luben.zstd.ZstdInputStream(new ByteArrayInputStream(wire));
        break;
      default:
        throw new IllegalArgumentException("unsupported Content-Encoding " + encoding);
    }
    try (InputStream s = new BufferedInputStream(in, 1 << 16)) {
      return s.readAllBytes();
    }
  }

  /**
   * The {@code seq} attribute of every log record of a protobuf {@code ExportLogsServiceRequest}, -1 for a record
   * without one: element 0 holds the count, the ids follow.
   */
  static long[] ids(byte[] buf) {
    long[] out = new long[1025];
    int n = 0;
    ProtobufReader request = new ProtobufReader(buf, 0, buf.length);
    while (request.more()) {
      int tag = request.tag();
      if (tag != (1 << 3 | 2)) { // resource_logs
        request.skip(tag);
        continue;
      }
      ProtobufReader rl = request.sub();
      while (rl.more()) {
        int t = rl.tag();
        if (t != (2 << 3 | 2)) { // scope_logs
          rl.skip(t);
          continue;
        }
        ProtobufReader sl = rl.sub();
        while (sl.more()) {
          int st = sl.tag();
          if (st != (2 << 3 | 2)) { // log_records
            sl.skip(st);
            continue;
          }
          long id = seqOf(sl.sub());
          if (++n == out.length) {
            out = Arrays.copyOf(out, out.length * 2);
          }
          out[n] = id;
        }
      }
    }
    out[0] = n;
    return out;
  }

  /** The int_value of attribute {@code seq} of one LogRecord, or -1. */
  private static long seqOf(ProtobufReader record) {
    long id = -1;
    while (record.more()) {
      int tag = record.tag();
      if (tag != (6 << 3 | 2)) { // attributes (KeyValue)
        record.skip(tag);
        continue;
      }
      ProtobufReader kv = record.sub();
      boolean isSeq = false;
      long value = -1;
      while (kv.more()) {
        int t = kv.tag();
        if (t == (1 << 3 | 2)) { // key
          ProtobufReader key = kv.sub();
          isSeq = key.contentEquals(SEQ_BYTES);
        } else if (t == (2 << 3 | 2)) { // value (AnyValue)
          ProtobufReader v = kv.sub();
          while (v.more()) {
            int vt = v.tag();
            if (vt == (3 << 3)) { // int_value
              value = v.varint64();
            } else {
              v.skip(vt);
            }
          }
        } else {
          kv.skip(t);
        }
      }
      if (isSeq) {
        id = value;
      }
    }
    return id;
  }

  private static final byte[] SEQ_BYTES = SoakRecords.SEQ_KEY.getBytes(StandardCharsets.UTF_8);
}
