package io.logproducer.otlp.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.Compression;
import io.logproducer.spi.ExportResult;
import io.logproducer.testing.Outcomes;
import io.logproducer.testing.otlp.OtlpReceiver;
import io.logproducer.testsupport.SchedulerLag;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code timeoutMillis} is a hard deadline on the whole request: receivers on real 127.0.0.1
 * sockets that stop reading the body, or trickle their response, get the send thread back within
 * the timeout plus a little slack, as a retryable failure; a normal receiver is unaffected and
 * leaves no deadline task behind.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HttpTransportDeadlineTest {

  private static final long TIMEOUT_MILLIS = 1_000;

  /**
   * How late this machine wakes threads during the test: a request cut by its deadline returns no
   * later than the timeout plus that lag ({@link SchedulerLag#allowanceMillis}), however loaded.
   */
  private final SchedulerLag lag = SchedulerLag.start();

  private final List<AutoCloseable> toClose = new CopyOnWriteArrayList<>();

  /** Response bytes the trickling receivers have sent. */
  private final AtomicLong trickled = new AtomicLong();

  @AfterEach
  void closeAll() {
    lag.close();
    for (AutoCloseable c : toClose) {
      try {
        c.close();
      } catch (Exception ignored) {
        // best effort
      }
    }
  }

  private HttpTransport started(String url, long timeoutMillis) {
    HttpTransport t =
        new HttpTransport(
            URI.create(url),
            Map.of(),
            timeoutMillis,
            "application/x-protobuf",
            false,
            "test-agent",
            null);
    t.start(2);
    toClose.add(t::close);
    return t;
  }

  /**
   * A raw TCP receiver on 127.0.0.1 whose connections are handled by {@code handler}, each on its
   * own thread.
   */
  private RawServer rawServer(int receiveBufferBytes, ConnectionHandler handler)
      throws IOException {
    RawServer s = new RawServer(receiveBufferBytes, handler);
    toClose.add(s);
    return s;
  }

  @Test
  void aReceiverThatNeverReadsTheBodyFailsRetryableAtTheDeadline() throws Exception {
    // Accepts, then neither reads nor answers: the 8 MB upload fills both socket buffers and the
    // write blocks.
    RawServer server = rawServer(64 * 1024, socket -> sleepQuietly(30_000));
    HttpTransport t = started(server.url(), TIMEOUT_MILLIS);
    byte[] body = new byte[8 * 1024 * 1024];

    long start = System.nanoTime();
    ExportResult r = t.send(body, body.length, Compression.NONE);
    long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    System.out.println("never-reading receiver: send returned after " + tookMillis + " ms: " + r);

    assertEquals(ExportResult.Kind.RETRYABLE, r.kind(), r.toString());
    assertEquals(
        "POST " + server.url() + " timed out after 1000 ms (request deadline)", r.message());
    assertNotNull(r.error());
    assertEquals(-1, r.retryAfterMillis());
    assertTrue(server.connections() >= 1, "the request reached the receiver");
    assertTrue(
        tookMillis >= TIMEOUT_MILLIS - 50 && tookMillis <= lag.allowanceMillis(TIMEOUT_MILLIS),
        "took " + tookMillis + " ms; scheduler lag " + lag.maxMillis() + " ms");
    assertEquals(0, t.pendingDeadlines());
  }

  @Test
  void aReceiverThatTricklesItsResponseHeadersFailsRetryableAtTheDeadline() throws Exception {
    // Reads the whole request, then sends a valid 200 one byte every 200 ms: each byte restarts a
    // socket read
    // timeout, so only the deadline can end it (the whole answer would take about 15 s).
    byte[] response =
        ("HTTP/1.1 200 OK\r\nContent-Type: application/x-protobuf\r\nContent-Length: 0\r\n"
                + "Connection: keep-alive\r\n\r\n")
            .getBytes(StandardCharsets.US_ASCII);
    RawServer server =
        rawServer(
            0,
            socket -> {
              readRequest(socket.getInputStream());
              trickle(socket.getOutputStream(), response, 200);
            });
    HttpTransport t = started(server.url(), TIMEOUT_MILLIS);
    byte[] body = new byte[1024];

    long start = System.nanoTime();
    ExportResult r = t.send(body, body.length, Compression.NONE);
    long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    System.out.println(
        "trickling receiver (headers): send returned after " + tookMillis + " ms: " + r);

    assertEquals(ExportResult.Kind.RETRYABLE, r.kind(), r.toString());
    assertTrue(r.message().endsWith("timed out after 1000 ms (request deadline)"), r.message());
    assertTrue(trickled.get() > 0, "the receiver had started answering");
    assertTrue(
        tookMillis >= TIMEOUT_MILLIS - 50 && tookMillis <= lag.allowanceMillis(TIMEOUT_MILLIS),
        "took " + tookMillis + " ms; scheduler lag " + lag.maxMillis() + " ms");
    assertEquals(0, t.pendingDeadlines());
  }

  @Test
  void aReceiverThatTricklesItsResponseBodyFailsRetryableAtTheDeadline() throws Exception {
    // Headers at once, then a 200-byte body one byte every 200 ms (40 s in all).
    byte[] head =
        ("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 200\r\n\r\n")
            .getBytes(StandardCharsets.US_ASCII);
    byte[] bodyBytes = new byte[200];
    Arrays.fill(bodyBytes, (byte) 'x');
    RawServer server =
        rawServer(
            0,
            socket -> {
              readRequest(socket.getInputStream());
              OutputStream out = socket.getOutputStream();
              out.write(head);
              out.flush();
              trickle(out, bodyBytes, 200);
            });
    HttpTransport t = started(server.url(), TIMEOUT_MILLIS);

    long start = System.nanoTime();
    ExportResult r = t.send(new byte[10], 10, Compression.NONE);
    long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    System.out.println(
        "trickling receiver (body): send returned after " + tookMillis + " ms: " + r);

    assertEquals(ExportResult.Kind.RETRYABLE, r.kind(), r.toString());
    assertTrue(r.message().endsWith("timed out after 1000 ms (request deadline)"), r.message());
    assertTrue(
        tookMillis >= TIMEOUT_MILLIS - 50 && tookMillis <= lag.allowanceMillis(TIMEOUT_MILLIS),
        "took " + tookMillis + " ms; scheduler lag " + lag.maxMillis() + " ms");
  }

  @Test
  void aSuccessBodyBeyondTheReadLimitIsNotDrained() throws Exception {
    // A 200 announcing 100 MB: the transport reads its bounded prefix and drops the connection
    // instead of draining
    // the rest, so the answer comes back at once, long before the deadline.
    int sent = HttpTransport.MAX_SUCCESS_BODY_BYTES + 8 * 1024;
    RawServer server =
        rawServer(
            0,
            socket -> {
              readRequest(socket.getInputStream());
              OutputStream out = socket.getOutputStream();
              out.write(
                  ("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: "
                          + (100 * 1024 * 1024)
                          + "\r\n\r\n")
                      .getBytes(StandardCharsets.US_ASCII));
              out.write(new byte[sent]);
              out.flush();
              sleepQuietly(30_000); // the rest never comes
            });
    HttpTransport t = started(server.url(), 30_000);

    // The rest never comes: a transport that drained it would end at the 30 s deadline, RETRYABLE.
    // SUCCESS is the proof, not how fast this machine read the prefix.
    ExportResult r = t.send(new byte[10], 10, Compression.NONE);

    assertEquals(ExportResult.Kind.SUCCESS, r.kind(), r.toString());
    assertEquals(0, t.pendingDeadlines());
  }

  @Test
  void aFastReceiverSucceedsEveryTimeAndNoDeadlineTaskIsLeftBehind() throws Exception {
    try (OtlpReceiver server = OtlpReceiver.start()) {
      String url = server.endpoint() + "/v1/logs";
      HttpTransport t = started(url, TIMEOUT_MILLIS);
      Thread deadlineThread = thread(HttpTransport.deadlineThreadName(URI.create(url)));
      assertNotNull(deadlineThread, "the deadline thread is started with the transport");
      assertTrue(deadlineThread.isDaemon());

      int n = 300;
      for (int i = 0; i < n; i++) {
        ExportResult r = t.send(new byte[0], 0, Compression.NONE);
        assertEquals(ExportResult.Kind.SUCCESS, r.kind(), "request " + i + ": " + r);
      }
      assertEquals(n, server.requests().size());
      assertEquals(0, t.pendingDeadlines(), "each completed request removed its deadline task");
      // Idle: once the last cancelled task's wake-up (at most one timeout later) has passed, the
      // thread waits
      // untimed for the next task: it does not poll.
      assertTrue(
          Outcomes.until(
              () -> deadlineThread.getState() == Thread.State.WAITING, TIMEOUT_MILLIS + 4_000),
          "idle deadline thread blocks untimed, was " + deadlineThread.getState());

      t.close();
      deadlineThread.join(5_000);
      assertFalse(deadlineThread.isAlive(), "close stops the deadline thread");
    }
  }

  @Test
  void aResponseReadToItsEndKeepsTheConnectionForTheNextRequest() throws Exception {
    // Alternately an empty body and a small one: both are read to their end, and the connection
    // goes back to the
    // pool (only an over-limit or failed body read drops it).
    RawServer server =
        rawServer(
            0,
            socket -> {
              InputStream in = socket.getInputStream();
              OutputStream out = socket.getOutputStream();
              for (int i = 0; ; i++) {
                readRequest(in);
                String bodyText = i % 2 == 0 ? "" : "ok";
                out.write(
                    ("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: "
                            + bodyText.length()
                            + "\r\n\r\n"
                            + bodyText)
                        .getBytes(StandardCharsets.US_ASCII));
                out.flush();
              }
            });
    HttpTransport t = started(server.url(), TIMEOUT_MILLIS);
    for (int i = 0; i < 20; i++) {
      ExportResult r = t.send(new byte[10], 10, Compression.NONE);
      assertEquals(ExportResult.Kind.SUCCESS, r.kind(), "request " + i + ": " + r);
    }
    assertEquals(1, server.connections(), "one connection for all requests");
    assertEquals(0, t.pendingDeadlines());
  }

  @Test
  void closeStillFailsARequestBlockedInItsUploadAtOnce() throws Exception {
    RawServer server = rawServer(64 * 1024, socket -> sleepQuietly(30_000));
    HttpTransport t = started(server.url(), 30_000);
    byte[] body = new byte[8 * 1024 * 1024];
    List<ExportResult> results = new CopyOnWriteArrayList<>();
    Thread sender = new Thread(() -> results.add(t.send(body, body.length, Compression.NONE)));
    sender.start();
    assertTrue(
        Outcomes.until(() -> server.connections() >= 1, 30_000), "request reached the receiver");
    assertTrue(
        Outcomes.until(() -> inSocketWrite(sender), 30_000),
        "the sender is blocked writing the body");

    long start = System.nanoTime();
    t.close();
    sender.join(30_000); // a hang bound; the time is asserted below
    assertFalse(sender.isAlive());
    // at once: close waits on no timer (the 30 s timeout is far off), only for the aborted write
    // to come back; 500 ms for that hand-off, plus how late this machine wakes threads
    lag.assertWithin(start, 500, "close with an upload blocked");

    assertEquals(ExportResult.Kind.FAILED, results.get(0).kind(), results.get(0).toString());
    assertTrue(results.get(0).message().contains("closed"), results.get(0).message());
  }

  // ---- helpers ----

  /**
   * Whether {@code t} is inside a socket write (the receiver stopped reading, the send buffer is
   * full).
   */
  private static boolean inSocketWrite(Thread t) {
    for (StackTraceElement e : t.getStackTrace()) {
      String c = e.getClassName();
      if (e.getMethodName().startsWith("write")
          && (c.contains("Socket") || c.contains("NioSocketImpl"))) {
        return true;
      }
    }
    return false;
  }

  private static Thread thread(String name) {
    for (Thread th : Thread.getAllStackTraces().keySet()) {
      if (th.getName().equals(name)) {
        return th;
      }
    }
    return null;
  }

  private static void sleepQuietly(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Reads request headers and a Content-Length body. */
  private static void readRequest(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    int matched = 0;
    byte[] end = {'\r', '\n', '\r', '\n'};
    while (matched < 4) {
      int b = in.read();
      if (b < 0) {
        throw new IOException("end of stream in the request head");
      }
      head.write(b);
      matched = b == end[matched] ? matched + 1 : (b == '\r' ? 1 : 0);
    }
    long length = 0;
    for (String line : head.toString(StandardCharsets.US_ASCII).split("\r\n")) {
      if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
        length = Long.parseLong(line.substring("content-length:".length()).trim());
      }
    }
    byte[] buf = new byte[8192];
    while (length > 0) {
      int n = in.read(buf, 0, (int) Math.min(buf.length, length));
      if (n < 0) {
        throw new IOException("end of stream in the request body");
      }
      length -= n;
    }
  }

  /** Writes {@code bytes} one at a time, {@code everyMillis} apart. */
  private void trickle(OutputStream out, byte[] bytes, long everyMillis) throws IOException {
    for (int i = 0; i < bytes.length; i++) {
      out.write(bytes[i]);
      out.flush();
      trickled.incrementAndGet();
      sleepQuietly(everyMillis);
      if (Thread.currentThread().isInterrupted()) {
        return;
      }
    }
  }

  @FunctionalInterface
  interface ConnectionHandler {
    void handle(Socket socket) throws IOException;
  }

  /**
   * Accepts on 127.0.0.1 and runs the handler per connection on daemon threads; close ends
   * everything.
   */
  private static final class RawServer implements AutoCloseable {
    private final ServerSocket server;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final List<Thread> threads = new ArrayList<>();
    private final AtomicInteger connections = new AtomicInteger();

    RawServer(int receiveBufferBytes, ConnectionHandler handler) throws IOException {
      server = new ServerSocket();
      if (receiveBufferBytes > 0) {
        server.setReceiveBufferSize(receiveBufferBytes); // inherited by accepted sockets
      }
      server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 8);
      Thread acceptor =
          new Thread(
              () -> {
                while (!server.isClosed()) {
                  Socket s;
                  try {
                    s = server.accept();
                  } catch (IOException e) {
                    return;
                  }
                  connections.incrementAndGet();
                  sockets.add(s);
                  Thread th =
                      new Thread(
                          () -> {
                            try {
                              handler.handle(s);
                            } catch (IOException e) {
                              // the client went away
                            }
                          },
                          "raw-receiver-connection");
                  th.setDaemon(true);
                  synchronized (threads) {
                    threads.add(th);
                  }
                  th.start();
                }
              },
              "raw-receiver-accept");
      acceptor.setDaemon(true);
      synchronized (threads) {
        threads.add(acceptor);
      }
      acceptor.start();
    }

    String url() {
      return "http://127.0.0.1:" + server.getLocalPort() + "/v1/logs";
    }

    int connections() {
      return connections.get();
    }

    @Override
    public void close() throws Exception {
      server.close();
      for (Socket s : sockets) {
        s.close();
      }
      List<Thread> ts;
      synchronized (threads) {
        ts = new ArrayList<>(threads);
      }
      for (Thread th : ts) {
        th.interrupt();
        th.join(5_000);
      }
    }
  }
}
