package io.logproducer.otlp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.Compression;
import io.logproducer.ProducerConfig;
import io.logproducer.spi.ExportResult;
import io.logproducer.spi.ExportResult.Kind;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The hard deadline and close() against a real socket on 127.0.0.1 that accepts connections, reads
 * everything and never answers (not even the HTTP/2 preface): a call ends at its deadline as
 * retryable, and close() ends a call in flight at once.
 */
@Timeout(120)
class OtlpGrpcDeadlineTest {

  /** Accepts, reads and discards, never writes. */
  private static final class SilentServer implements AutoCloseable {
    final ServerSocket server;
    final List<Socket> sockets = new CopyOnWriteArrayList<>();
    final Thread acceptor;

    SilentServer() throws IOException {
      server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
      acceptor =
          new Thread(
              () -> {
                while (!server.isClosed()) {
                  try {
                    Socket s = server.accept();
                    sockets.add(s);
                    Thread reader =
                        new Thread(
                            () -> {
                              byte[] buf = new byte[8192];
                              try (InputStream in = s.getInputStream()) {
                                while (in.read(buf) >= 0) {
                                  // discard
                                }
                              } catch (IOException closed) {
                                // done
                              }
                            });
                    reader.setDaemon(true);
                    reader.start();
                  } catch (IOException closed) {
                    return;
                  }
                }
              });
      acceptor.setDaemon(true);
      acceptor.start();
    }

    String endpoint() {
      return "http://127.0.0.1:" + server.getLocalPort();
    }

    @Override
    public void close() throws IOException {
      server.close();
      for (Socket s : sockets) {
        s.close();
      }
    }
  }

  private static final byte[] BODY = {
    0x0a, 0x00
  }; // an ExportLogsServiceRequest, empty ResourceLogs

  @Test
  void aSilentServerEndsTheCallAtItsDeadlineAsRetryable() throws Exception {
    try (SilentServer server = new SilentServer();
        OtlpGrpcExporter exporter =
            OtlpGrpcExporter.builder(Map.of())
                .setEndpoint(server.endpoint())
                .setTimeoutMillis(300)
                .build()) {
      exporter.start(ProducerConfig.defaults());
      for (int i = 0; i < 2; i++) {
        long start = System.nanoTime();
        ExportResult r = exporter.export(null, BODY, BODY.length, Compression.NONE);
        long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertEquals(Kind.RETRYABLE, r.kind(), r.toString());
        assertEquals(
            "POST "
                + server.endpoint()
                + "/opentelemetry.proto.collector.logs.v1.LogsService/Export timed out after 300"
                + " ms (request deadline)",
            r.message());
        assertTrue(tookMillis >= 300, "waited the deadline: " + tookMillis);
      }
    }
  }

  @Test
  void closeEndsACallInFlightAtOnceAndIsIdempotent() throws Exception {
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try (SilentServer server = new SilentServer()) {
      OtlpGrpcExporter exporter =
          OtlpGrpcExporter.builder(Map.of())
              .setEndpoint(server.endpoint())
              .setTimeoutMillis(3_600_000)
              .build();
      exporter.start(ProducerConfig.defaults());
      Future<ExportResult> call =
          pool.submit(() -> exporter.export(null, BODY, BODY.length, Compression.NONE));
      long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (server.sockets.isEmpty() && System.nanoTime() - until < 0) {
        Thread.sleep(5);
      }
      assertEquals(1, server.sockets.size(), "the call connected");
      exporter.close();
      exporter.close();
      ExportResult r = call.get(60, TimeUnit.SECONDS); // a bound that only ends a hang
      assertEquals(Kind.FAILED, r.kind(), r.toString());
      assertTrue(r.message().contains("closed during the request"), r.message());
      ExportResult after = exporter.export(null, BODY, BODY.length, Compression.NONE);
      assertEquals(Kind.FAILED, after.kind());
      assertTrue(after.message().endsWith(" is closed"), after.message());
    } finally {
      pool.shutdownNow();
    }
  }
}
