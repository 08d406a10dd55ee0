package io.logproducer.appender;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.LogRecord;
import io.logproducer.Producer;
import io.logproducer.internal.proto.ProtoReader;
import io.logproducer.testing.otlp.OtlpReceiver;
import io.logproducer.testing.otlp.ReceivedLogRecord;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class AppenderProducerTest {

  private final List<String> status = new CopyOnWriteArrayList<>();
  private final List<AppenderProducer> started = new ArrayList<>();

  @AfterEach
  void stopAll() {
    started.forEach(AppenderProducer::stop);
  }

  private AppenderProducer start(
      String name, ProducerSettings producer, OtlpSettings otlp, long reportMillis) {
    AppenderProducer ap = new AppenderProducer(name, 2_000, reportMillis, status::add);
    producer.setJmxEnabled(false);
    producer.setShutdownHookEnabled(false);
    ap.start(producer, otlp, null, "test-scope", true);
    started.add(ap);
    return ap;
  }

  private static OtlpSettings otlp(String endpoint) {
    OtlpSettings s = new OtlpSettings();
    s.setEndpoint(endpoint);
    s.setTimeoutMillis(1_000);
    return s;
  }

  private static List<String> threadsNamed(String prefix) {
    List<String> names = new ArrayList<>();
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      if (t.isAlive() && t.getName().startsWith(prefix)) {
        names.add(t.getName());
      }
    }
    return names;
  }

  /**
   * The scope name of each ScopeLogs of a protobuf ExportLogsServiceRequest, in wire order (the
   * kit's decoded records carry their scope's name but not how records are grouped into ScopeLogs).
   */
  private static List<String> scopeLogsNames(byte[] request) {
    List<String> names = new ArrayList<>();
    int len = ProtoReader.LEN;
    ProtoReader in = new ProtoReader(request, 0, request.length);
    while (in.hasMore()) {
      int t = in.readTag();
      if (t != ProtoReader.tag(1, len)) { // resource_logs
        in.skip(t);
        continue;
      }
      ProtoReader rl = in.readMessage();
      while (rl.hasMore()) {
        int rt = rl.readTag();
        if (rt != ProtoReader.tag(2, len)) { // scope_logs
          rl.skip(rt);
          continue;
        }
        ProtoReader sl = rl.readMessage();
        String name = "";
        while (sl.hasMore()) {
          int st = sl.readTag();
          if (st == ProtoReader.tag(1, len)) { // scope
            ProtoReader scope = sl.readMessage();
            while (scope.hasMore()) {
              int nt = scope.readTag();
              if (nt == ProtoReader.tag(1, len)) { // name
                name = scope.readString();
              } else {
                scope.skip(nt);
              }
            }
          } else {
            sl.skip(st);
          }
        }
        names.add(name);
      }
    }
    return names;
  }

  @Test
  void eventsAreDeliveredAndStopLeavesNoProducerThread() throws Exception {
    try (OtlpReceiver server = OtlpReceiver.start()) {
      AppenderProducer ap =
          start("Ship It", new ProducerSettings(), otlp(server.endpoint()), 10_000);
      assertEquals("logproducer-ship_it", ap.producer().getConfig().getClientId());
      for (int i = 0; i < 3; i++) {
        assertTrue(ap.enter("com.example.Orders"));
        try {
          ap.send(
              LogRecord.builder()
                  .setBody("event " + i)
                  .setInstrumentationScopeName("com.example.Orders")
                  .build());
        } finally {
          ap.exit();
        }
      }
      ap.stop();
      assertEquals(List.of("event 0", "event 1", "event 2"), server.deliveredBodies());
      assertEquals(
          List.of("com.example.Orders", "com.example.Orders", "com.example.Orders"),
          server.requests().stream()
              .flatMap(r -> scopeLogsNames(r.body()).stream())
              .collect(Collectors.toList()),
          "each record in a ScopeLogs named after its logger");
      assertEquals(
          List.of("com.example.Orders", "com.example.Orders", "com.example.Orders"),
          server.deliveredRecords().stream()
              .map(ReceivedLogRecord::scopeName)
              .collect(Collectors.toList()));
      assertEquals(List.of(), threadsNamed("logproducer-ship_it-"));
      assertNull(ap.producer());
      assertEquals(0, ap.droppedCount());
      assertEquals(List.of(), status);
    }
  }

  @Test
  void theGuardKeepsTheProducersOwnEventsOut() throws Exception {
    try (OtlpReceiver server = OtlpReceiver.start()) {
      AppenderProducer ap = start("guard", new ProducerSettings(), otlp(server.endpoint()), 10_000);
      assertFalse(ap.enter("io.logproducer.internal.Sender"), "the library's own loggers");
      assertTrue(ap.enter("org.apache.hc.client5.http.wire"));
      try {
        assertFalse(ap.enter("com.example.Nested"), "a nested call on a thread already appending");
      } finally {
        ap.exit();
      }
      assertTrue(ap.enter("com.example.Again"), "after exit the thread may enter again");
      ap.exit();
      AtomicBoolean onProducerThread = new AtomicBoolean(true);
      Thread t =
          new Thread(
              () -> onProducerThread.set(ap.enter("org.apache.hc.client5.http.wire")),
              "logproducer-guard-sender-9");
      t.start();
      t.join(10_000);
      assertFalse(
          onProducerThread.get(),
          "events logged on the producer's threads (httpclient5 DEBUG) stay out");
    }
  }

  @Test
  void nothingEntersBeforeStartOrAfterStop() throws Exception {
    AppenderProducer ap = new AppenderProducer("idle", 0, 1_000, status::add);
    assertFalse(ap.enter("com.example.A"));
    ap.send(LogRecord.builder().setBody("x").build());
    assertEquals(1, ap.droppedCount());
    ap.stop();
    assertTrue(
        status
            .get(0)
            .startsWith(
                "logproducer appender 'idle': 1 events dropped and 0 failed since the last"
                    + " report (1 and 0 in all); last cause: the appender is stopped"),
        status.toString());
  }

  @Test
  void aFullBufferDropsCountsExactlyAndReportsWithoutBlocking() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort(); // closed when the test runs: connections are refused
    }
    ProducerSettings settings = new ProducerSettings();
    settings.setTotalSizeInBytes(1 << 20);
    settings.setBatchSizeInBytes(64 << 10);
    settings.setDeliveryTimeoutMillis(60_000);
    AppenderProducer ap = start("full", settings, otlp("http://127.0.0.1:" + port), 1);
    String body = "x".repeat(1000);
    int events = 20_000;
    long slowestNanos = 0;
    for (int i = 0; i < events; i++) {
      long t0 = System.nanoTime();
      if (ap.enter("com.example.Flood")) {
        try {
          ap.send(LogRecord.builder().setBody(body).build());
        } finally {
          ap.exit();
        }
      }
      slowestNanos = Math.max(slowestNanos, System.nanoTime() - t0);
    }
    Producer p = ap.producer();
    long accepted = p.getMetrics().getRecordsAccepted();
    assertEquals(
        events, accepted + ap.droppedCount(), "every event accepted or counted as dropped");
    assertTrue(
        ap.droppedCount() > events / 2, "a 1 MiB buffer cannot hold 20 MB: " + ap.droppedCount());
    assertTrue(
        p.getMetrics().getPeakBufferedBytes() <= 1 << 20,
        "" + p.getMetrics().getPeakBufferedBytes());
    // a call that waited for memory would take maxBlockMillis (60 s); a slow machine's calls
    // take longer than an idle one's, but never that
    assertTrue(
        slowestNanos < 60_000_000_000L,
        "DROP never waits for maxBlockMillis (60 s): slowest call "
            + slowestNanos / 1_000_000
            + " ms");
    assertTrue(
        status.stream()
            .anyMatch(
                m ->
                    m.startsWith("logproducer appender 'full': ")
                        && m.contains(
                            "last cause: the buffer was full (the receiver is slow or down)")),
        status.toString());
  }

  @Test
  void twoExportersAreRefusedNamingTheAppender() {
    AppenderProducer ap = new AppenderProducer("both", 0, 1_000, status::add);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                ap.start(new ProducerSettings(), new OtlpSettings(), new GseSettings(), "s", true));
    assertEquals(
        "appender 'both' configures more than one exporter (OTLP, GSE, Kafka); choose one",
        e.getMessage());
  }

  @Test
  void settingsNameTheBadValue() {
    ProducerSettings p = new ProducerSettings();
    assertEquals(
        "bufferFullPolicy must be one of BLOCK, DROP, was 'wait'",
        assertThrows(IllegalArgumentException.class, () -> p.setBufferFullPolicy("wait"))
            .getMessage());
    p.setBufferFullPolicy("block");
    assertEquals(
        "headers must be name=value items separated by commas; item 1 of 1 has no '=' (not shown:"
            + " it may hold a secret)",
        assertThrows(IllegalArgumentException.class, () -> new OtlpSettings().setHeaders("nope"))
            .getMessage());
    assertEquals(
        "tcpEndpoint must be host:port, was '127.0.0.1'",
        assertThrows(
                IllegalArgumentException.class, () -> new GseSettings().setTcpEndpoint("127.0.0.1"))
            .getMessage());
  }

  @Test
  void reportsComeAtMostOncePerInterval() throws Exception {
    AppenderProducer ap = new AppenderProducer("quiet", 0, 60_000, status::add);
    CountDownLatch done = new CountDownLatch(4);
    AtomicReference<Throwable> error = new AtomicReference<>();
    for (int t = 0; t < 4; t++) {
      new Thread(
              () -> {
                try {
                  for (int i = 0; i < 1_000; i++) {
                    ap.send(
                        LogRecord.builder()
                            .setBody("x")
                            .build()); // not started: every send is a drop
                  }
                } catch (Throwable e) {
                  error.set(e);
                } finally {
                  done.countDown();
                }
              })
          .start();
    }
    done.await();
    assertNull(error.get());
    assertEquals(4_000, ap.droppedCount());
    assertEquals(1, status.size(), "one report in the first interval: " + status);
    ap.stop(); // reports the rest
    assertEquals(2, status.size(), status.toString());
    assertTrue(
        status
            .get(1)
            .contains("events dropped and 0 failed since the last report (4,000 and 0 in all)"),
        status.toString());
  }

  /**
   * An attached producer's close fails what it still holds after the appender stopped: the outcomes
   * reach the appender's counts, and {@link AppenderProducer#reportNow()} (what the producer's
   * owner calls after closing it) reports them at once, within the report interval.
   */
  @Test
  void reportNowAfterAnAttachedProducersCloseCountsWhatTheCloseFailed() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      port = s.getLocalPort(); // closed: connections are refused
    }
    ProducerSettings settings = new ProducerSettings();
    settings.setJmxEnabled(false);
    settings.setShutdownHookEnabled(false);
    settings.setClientId("shared-owner");
    Producer shared =
        SettingsProducer.build(
            "shared", settings, otlp("http://127.0.0.1:" + port), null, null, "test-scope", true);
    AppenderProducer ap = new AppenderProducer("shared", 0, 60_000, status::add);
    try {
      ap.attach(shared);
      for (int i = 0; i < 50; i++) {
        ap.send(LogRecord.builder().setBody("line " + i).build());
      }
      ap.stop(); // lets the producer go: nothing failed yet, nothing to report
      assertEquals(List.of(), status);
    } finally {
      shared.close(0);
    }
    assertEquals(50, ap.failedCount(), "the close's outcomes reach the counts");
    assertEquals(List.of(), status, "within the report interval");
    ap.reportNow();
    assertEquals(1, status.size(), status.toString());
    assertTrue(
        status
                .get(0)
                .contains("0 events dropped and 50 failed since the last report (0 and 50 in all)")
            && status.get(0).contains("last cause: FAILED_AT_CLOSE"),
        status.toString());
    ap.reportNow();
    assertEquals(1, status.size(), "nothing new: no report");
  }
}
