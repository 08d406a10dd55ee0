package io.logproducer;

import io.logproducer.internal.codec.Codec;
import io.logproducer.spi.Batch;
import io.logproducer.spi.EncodeBuffer;
import io.logproducer.spi.ExportResult;
import io.logproducer.spi.Exporter;
import io.logproducer.spi.ExporterCapabilities;
import io.logproducer.spi.RecordEncoder;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * A complete in-memory exporter for core tests: records are encoded as a 4-byte big-endian length and the
 * body's UTF-8; requests are decompressed and decoded back into bodies; answers are scripted.
 */
class TestExporter implements Exporter {

  /** One export call as the receiver saw it. */
  record Request(List<String> bodies, Object shardKey, int attempt, long receivedNanos, Compression compression) {
  }

  final List<Request> requests = Collections.synchronizedList(new ArrayList<>());
  final AtomicInteger calls = new AtomicInteger();
  volatile Function<Request, ExportResult> responder = r -> ExportResult.success();
  /** When set, export waits on it (a slow or hung receiver); close() opens it. */
  volatile CountDownLatch gate;
  volatile boolean closed;
  volatile int maxBatchSize = 1 << 24;
  volatile ProducerConfig startedWith;
  /** The request timeout {@link #capabilities()} declares, in ms. */
  volatile long requestTimeoutMillis;

  @Override
  public void start(ProducerConfig config) {
    startedWith = config;
  }

  /** Default compression none, all supported, {@link #maxBatchSize} and {@link #requestTimeoutMillis} as set now. */
  @Override
  public ExporterCapabilities capabilities() {
    return ExporterCapabilities.builder(maxBatchSize).setRequestTimeoutMillis(requestTimeoutMillis).build();
  }

  @Override
  public RecordEncoder encoder() {
    return (record, out) -> {
      String body = record.getBody() == null ? "" : record.getBody().asString();
      int len = EncodeBuffer.utf8Length(body);
      out.writeIntBigEndian(len);
      out.writeUtf8(body);
    };
  }

  @Override
  public Object shardKey(LogRecord record) {
    return record.getDestination() == null ? "default" : record.getDestination();
  }

  @Override
  public void writeRequest(Batch batch, OutputStream out) throws IOException {
    batch.writeTo(out);
  }

  @Override
  public ExportResult export(Batch batch, byte[] body, int length, Compression compression) {
    calls.incrementAndGet();
    CountDownLatch g = gate;
    if (g != null) {
      try {
        g.await(60, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        return ExportResult.retryable("interrupted", e, -1);
      }
    }
    if (closed) {
      return ExportResult.retryable("exporter closed", null, -1);
    }
    List<String> bodies;
    try (InputStream in = Codec.of(compression, 0).decompress(new ByteArrayInputStream(body, 0, length))) {
      bodies = decode(in.readAllBytes());
    } catch (IOException e) {
      return ExportResult.failed("undecodable request", e);
    }
    if (bodies.size() != batch.recordCount()) {
      return ExportResult.failed("decoded " + bodies.size() + " records, batch has " + batch.recordCount(), null);
    }
    Request r = new Request(bodies, batch.shardKey(), batch.attempt(), System.nanoTime(), compression);
    requests.add(r);
    return responder.apply(r);
  }

  static List<String> decode(byte[] bytes) {
    List<String> out = new ArrayList<>();
    ByteBuffer buf = ByteBuffer.wrap(bytes);
    while (buf.hasRemaining()) {
      int len = buf.getInt();
      byte[] s = new byte[len];
      buf.get(s);
      out.add(new String(s, StandardCharsets.UTF_8));
    }
    return out;
  }

  /** Bodies of every request, in request order. */
  List<String> allBodies() {
    List<String> all = new ArrayList<>();
    synchronized (requests) {
      for (Request r : requests) {
        all.addAll(r.bodies());
      }
    }
    return all;
  }

  @Override
  public String describe() {
    return "test://memory";
  }

  @Override
  public void close() {
    closed = true;
    CountDownLatch g = gate;
    if (g != null) {
      g.countDown();
    }
  }
}
