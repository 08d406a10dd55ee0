package io.logproducer.otlp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.LogRecord;
import io.logproducer.Producer;
import io.logproducer.ProducerConfig;
import io.logproducer.ProducerMetrics;
import io.logproducer.SendResult;
import io.logproducer.SendResult.Status;
import io.logproducer.internal.ProducerEngine;
import io.logproducer.otlp.encoding.testing.TestRecords;
import io.logproducer.otlp.testing.ProtoRequests;
import io.logproducer.testing.Outcomes;
import io.logproducer.testing.otlp.Exchange;
import io.logproducer.testing.otlp.OtlpReceiver;
import io.logproducer.testing.otlp.ReceivedRequest;
import io.logproducer.testing.otlp.Reply;
import io.logproducer.testsupport.SchedulerLag;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The real Producer with the OTLP exporter against a real HTTP receiver on 127.0.0.1. */
class OtlpHttpExporterIntegrationTest {

  private static final AtomicInteger IDS = new AtomicInteger();
  private static final long WAIT_MILLIS = 30_000;

  /** Logger names records are sent with, by sequence number modulo their count; null: none. */
  private static final String[] LOGGERS = {
    "com.example.checkout.OrderService", null, "日志.记录器", "a\"b\\c"
  };

  private OtlpReceiver server;
  private String clientId;

  @BeforeEach
  void startServer() throws Exception {
    server = OtlpReceiver.start();
    clientId = "otlp-it-" + IDS.incrementAndGet();
  }

  @AfterEach
  void stopServer() {
    if (server != null) {
      server.close();
    }
  }

  private ProducerConfig.Builder config() {
    return ProducerConfig.builder()
        .setClientId(clientId)
        .setJmxEnabled(false)
        .setLingerMillis(60_000)
        .setInitialRetryBackoffMillis(50)
        .setMaxRetryBackoffMillis(500);
  }

  private OtlpHttpExporterBuilder exporter(String endpoint) {
    return OtlpHttpExporter.builder(Map.of()).setEndpoint(endpoint).setTimeoutMillis(5_000);
  }

  /** Sends {@code n} records with bodies "r-0".."r-(n-1)" from the calling thread (one stripe). */
  private static void sendAll(Producer producer, Outcomes outcomes, int n) {
    for (int i = 0; i < n; i++) {
      producer.send(TestRecords.simple("r-" + i), outcomes.callback(i));
    }
  }

  private void assertNoProducerThreads() {
    List<String> alive =
        Thread.getAllStackTraces().keySet().stream()
            .filter(Thread::isAlive)
            .map(Thread::getName)
            .filter(n -> n.startsWith(clientId + "-"))
            .collect(Collectors.toList());
    assertEquals(List.of(), alive, "producer threads alive after close");
  }

  @Test
  void retryAfter503DeliversEveryRecordExactlyOnce() {
    AtomicInteger calls = new AtomicInteger();
    server.respond(
        r -> calls.getAndIncrement() == 0 ? Reply.rpcStatus(r, 503, "overloaded") : Reply.ok(r));
    Outcomes outcomes = new Outcomes();
    try (Producer producer =
        new Producer(
            config().setBatchCountThreshold(100).build(), exporter(server.endpoint()).build())) {
      sendAll(producer, outcomes, 100);
      assertTrue(outcomes.await(100, WAIT_MILLIS), "outcomes: " + outcomes.total());
      assertEquals(Map.of(Status.DELIVERED, 100), outcomes.statusCounts());
      assertEquals(0, outcomes.duplicates());
      assertEquals(2, outcomes.get(0).getAttempts());
      List<Exchange> exchanges = server.exchanges();
      assertEquals(2, exchanges.size());
      assertEquals(503, exchanges.get(0).status());
      assertEquals(200, exchanges.get(1).status());
      assertEquals(
          100, exchanges.get(0).request().records().size(), "the failed attempt carried the batch");
      List<String> delivered = server.deliveredBodies();
      assertEquals(100, delivered.size());
      assertEquals(100, new HashSet<>(delivered).size());
      ProducerMetrics m = producer.getMetrics();
      assertEquals(100, m.getRecordsAccepted());
      assertEquals(100, m.getRecordsSent());
      assertEquals(0, m.getRecordsRejected());
      assertEquals(0, m.getRecordsFailed());
      assertEquals(1, m.getBatchesSent());
      assertEquals(0, m.getBatchesFailed());
      assertEquals(1, m.getRetries());
      assertEquals(2, m.getRequests());
      assertEquals(0, m.getBufferedBytes());
    }
    assertEquals(List.of(), server.invalidRequests());
    assertNoProducerThreads();
  }

  @Test
  void honoursRetryAfterOn429() {
    AtomicInteger calls = new AtomicInteger();
    server.respond(
        r ->
            calls.getAndIncrement() == 0
                ? Reply.rpcStatus(r, 429, "slow down").withHeader("Retry-After", "1")
                : Reply.ok(r));
    Outcomes outcomes = new Outcomes();
    SchedulerLag lag = SchedulerLag.start();
    try (Producer producer =
        new Producer(
            config().setBatchCountThreshold(10).build(), exporter(server.endpoint()).build())) {
      sendAll(producer, outcomes, 10);
      assertTrue(outcomes.await(10, WAIT_MILLIS));
      assertEquals(Map.of(Status.DELIVERED, 10), outcomes.statusCounts());
    } finally {
      lag.close();
    }
    List<Exchange> exchanges = server.exchanges();
    assertEquals(2, exchanges.size());
    assertEquals(429, exchanges.get(0).status());
    long gapMillis =
        TimeUnit.NANOSECONDS.toMillis(
            exchanges.get(1).request().receivedNanos()
                - exchanges.get(0).request().receivedNanos());
    // Retry-After 1 s: above the 500 ms maxRetryBackoffMillis, so only the receiver's floor
    // explains it
    assertTrue(gapMillis >= 1_000, "retry came " + gapMillis + " ms after the 429");
    // no later than the Retry-After plus how late this machine wakes the retrying thread
    assertTrue(
        gapMillis <= lag.allowanceMillis(1_000),
        "retry came " + gapMillis + " ms after the 429 (scheduler lag " + lag.maxMillis() + " ms)");
  }

  @Test
  void badRequestIsRejectedOnceWithoutRetry() {
    server.respond(r -> Reply.rpcStatus(r, 400, "invalid request"));
    Outcomes outcomes = new Outcomes();
    try (Producer producer =
        new Producer(
            config().setBatchCountThreshold(5).build(), exporter(server.endpoint()).build())) {
      sendAll(producer, outcomes, 5);
      assertTrue(outcomes.await(5, WAIT_MILLIS));
      producer.flush();
      assertEquals(Map.of(Status.REJECTED, 5), outcomes.statusCounts());
      SendResult r = outcomes.get(3);
      assertEquals("HTTP 400 Bad Request: invalid request", r.getMessage());
      assertEquals(1, r.getAttempts());
      assertEquals(5, r.getRejectedCount());
      assertEquals(1, server.exchanges().size());
      ProducerMetrics m = producer.getMetrics();
      assertEquals(5, m.getRecordsRejected());
      assertEquals(0, m.getRecordsSent());
      assertEquals(1, m.getRequests());
      assertEquals(0, m.getRetries());
      assertEquals(1, m.getBatchesFailed());
    }
    assertEquals(1, server.exchanges().size());
  }

  @Test
  void receiverDownAtStartAndUpOnceTheProducerRetried() throws Exception {
    int port;
    try (ServerSocket reserve = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      port = reserve.getLocalPort();
    }
    server.close();
    server = null;
    OtlpReceiver late = null;
    Outcomes outcomes = new Outcomes();
    try (Producer producer =
        new Producer(
            config().setLingerMillis(10).setDeliveryTimeoutMillis(60_000).build(),
            exporter("http://127.0.0.1:" + port).setTimeoutMillis(1_000).build())) {
      sendAll(producer, outcomes, 50);
      // the receiver comes up once an attempt found it down (was: a fixed 3 s later)
      assertTrue(
          Outcomes.until(() -> producer.getMetrics().getRetries() >= 1, WAIT_MILLIS),
          () -> "no retry: " + producer.getMetrics());
      assertEquals(0, outcomes.total(), "nothing has an outcome while the receiver is down");
      late = OtlpReceiver.start(port);
      assertTrue(outcomes.await(50, WAIT_MILLIS), "outcomes: " + outcomes.total());
      assertEquals(Map.of(Status.DELIVERED, 50), outcomes.statusCounts());
      List<String> delivered = late.deliveredBodies();
      assertEquals(50, delivered.size());
      assertEquals(50, new HashSet<>(delivered).size());
    } finally {
      if (late != null) {
        late.close();
      }
    }
  }

  @ParameterizedTest
  @EnumSource(OtlpEncoding.class)
  void partialSuccessIsReportedNotRetried(OtlpEncoding encoding) {
    server.respond(r -> Reply.partialSuccess(r, 3, "3 log records had invalid attributes"));
    Outcomes outcomes = new Outcomes();
    try (Producer producer =
        new Producer(
            config().setBatchCountThreshold(10).build(),
            exporter(server.endpoint()).setEncoding(encoding).build())) {
      sendAll(producer, outcomes, 10);
      assertTrue(outcomes.await(10, WAIT_MILLIS));
      producer.flush();
      assertEquals(Map.of(Status.PARTIALLY_REJECTED, 10), outcomes.statusCounts());
      for (int i = 0; i < 10; i++) {
        assertEquals(3, outcomes.get(i).getRejectedCount());
        assertEquals("3 log records had invalid attributes", outcomes.get(i).getMessage());
        assertEquals(10, outcomes.get(i).getBatchRecordCount());
      }
      ProducerMetrics m = producer.getMetrics();
      assertEquals(3, m.getRecordsRejected());
      assertEquals(7, m.getRecordsSent());
      assertEquals(0, m.getRecordsFailed());
      assertEquals(1, m.getRequests());
      assertEquals(0, m.getRetries());
    }
    assertEquals(1, server.exchanges().size());
    assertEquals(encoding == OtlpEncoding.JSON, server.exchanges().get(0).request().isJson());
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void tooLargeIsSplitUntilAccepted(boolean scopeFromRecords) {
    server.respond(
        r ->
            r.records().size() > 10
                ? Reply.status(413).withBody("text/plain", "too large".getBytes())
                : Reply.ok(r));
    Outcomes outcomes = new Outcomes();
    try (Producer producer =
        new Producer(
            config().setBatchCountThreshold(64).build(),
            exporter(server.endpoint())
                .setScope("io.logproducer.it", "7.0")
                .setInstrumentationScopeFromRecords(scopeFromRecords)
                .build())) {
      for (int i = 0; i < 64; i++) {
        producer.send(
            TestRecords.simple("r-" + i, LOGGERS[i % LOGGERS.length]), outcomes.callback(i));
      }
      assertTrue(outcomes.await(64, WAIT_MILLIS));
      assertEquals(Map.of(Status.DELIVERED, 64), outcomes.statusCounts());
      assertEquals(0, outcomes.duplicates());
      assertEquals(64, producer.getMetrics().getRecordsSent());
      assertEquals(
          15, producer.getMetrics().getRequests(), "64 -> 2x32 -> 4x16 refused, 8x8 accepted");
    }
    List<Exchange> exchanges = server.exchanges();
    assertEquals(15, exchanges.size());
    assertEquals(7, exchanges.stream().filter(e -> e.status() == 413).count());
    assertEquals(8, exchanges.stream().filter(Exchange::accepted).count());
    exchanges.stream()
        .filter(Exchange::accepted)
        .forEach(e -> assertEquals(8, e.request().records().size()));
    List<String> delivered = server.deliveredBodies();
    assertEquals(64, delivered.size());
    assertEquals(64, new HashSet<>(delivered).size());
    for (Exchange e : exchanges) {
      assertEquals(
          scopeFromRecords ? e.request().records().size() : 1,
          ProtoRequests.parse(e.request()).getResourceLogs(0).getScopeLogsCount());
      assertScopes(e.request(), scopeFromRecords);
    }
  }

  /**
   * Checks the scope of each record of {@code r} (bodies "…-i"): with the scope from the records,
   * its logger name (name only) or the exporter's scope; otherwise always the exporter's scope.
   */
  private static void assertScopes(ReceivedRequest r, boolean scopeFromRecords) {
    List<String> bodies = r.bodies();
    List<InstrumentationScope> scopes = ProtoRequests.scopes(r);
    assertEquals(bodies.size(), scopes.size());
    for (int i = 0; i < bodies.size(); i++) {
      String body = bodies.get(i);
      String logger =
          LOGGERS[Integer.parseInt(body.substring(body.lastIndexOf('-') + 1)) % LOGGERS.length];
      InstrumentationScope expected =
          scopeFromRecords && logger != null
              ? InstrumentationScope.newBuilder().setName(logger).build()
              : InstrumentationScope.newBuilder()
                  .setName("io.logproducer.it")
                  .setVersion("7.0")
                  .build();
      assertEquals(expected, scopes.get(i), body);
    }
  }

  @ParameterizedTest
  @CsvSource({"PROTOBUF, false", "PROTOBUF, true", "JSON, false", "JSON, true"})
  void eachRecordCarriesItsScopeNameOnlyWhenAskedTo(
      OtlpEncoding encoding, boolean scopeFromRecords) {
    Outcomes outcomes = new Outcomes();
    int n = 200;
    try (Producer producer =
        new Producer(
            config().setBatchCountThreshold(50).build(),
            exporter(server.endpoint())
                .setEncoding(encoding)
                .setScope("io.logproducer.it", "7.0")
                .setInstrumentationScopeFromRecords(scopeFromRecords)
                .build())) {
      for (int i = 0; i < n; i++) {
        producer.send(
            TestRecords.simple("s-" + i, LOGGERS[i % LOGGERS.length]), outcomes.callback(i));
      }
      assertTrue(outcomes.await(n, WAIT_MILLIS), "outcomes: " + outcomes.total());
      assertEquals(Map.of(Status.DELIVERED, n), outcomes.statusCounts());
    }
    assertEquals(List.of(), server.invalidRequests());
    List<ReceivedRequest> requests = server.requests();
    assertEquals(4, requests.size());
    for (ReceivedRequest r : requests) {
      assertEquals(encoding == OtlpEncoding.JSON, r.isJson());
      assertEquals(50, r.records().size());
      assertEquals(1, ProtoRequests.parse(r).getResourceLogsCount());
      assertEquals(
          scopeFromRecords ? 50 : 1, ProtoRequests.parse(r).getResourceLogs(0).getScopeLogsCount());
      assertScopes(r, scopeFromRecords);
    }
    assertEquals(n, new HashSet<>(server.deliveredBodies()).size());
  }

  @ParameterizedTest
  @EnumSource(OtlpEncoding.class)
  void scopedRequestsStayWithinMaxRequestSize(OtlpEncoding encoding) {
    int maxRequest = 4096;
    OtlpHttpExporter exporter =
        exporter(server.endpoint())
            .setEncoding(encoding)
            .setScope("io.logproducer.it", "7.0")
            .setInstrumentationScopeFromRecords(true)
            .setMaxRequestSizeInBytes(maxRequest)
            .build();
    Outcomes outcomes = new Outcomes();
    int n = 600;
    try (Producer producer =
        new Producer(
            config()
                .setBatchCountThreshold(10_000)
                .setBatchSizeInBytes(exporter.capabilities().maxBatchSizeInBytes())
                .build(),
            exporter)) {
      for (int i = 0; i < n; i++) {
        producer.send(
            TestRecords.simple("m-" + "x".repeat(i % 97) + "-" + i, LOGGERS[i % LOGGERS.length]),
            outcomes.callback(i));
      }
      producer.flush();
      assertTrue(outcomes.await(n, WAIT_MILLIS), "outcomes: " + outcomes.total());
      assertEquals(Map.of(Status.DELIVERED, n), outcomes.statusCounts());
    }
    List<ReceivedRequest> requests = server.requests();
    assertTrue(requests.size() > 10, "batches were sealed by size: " + requests.size());
    int largest = 0;
    for (ReceivedRequest r : requests) {
      assertTrue(r.body().length <= maxRequest, r.body().length + " > " + maxRequest);
      largest = Math.max(largest, r.body().length);
      assertScopes(r, true);
    }
    assertTrue(largest > maxRequest - 500, "the bound is tight: largest request " + largest);
    assertEquals(n, new HashSet<>(server.deliveredBodies()).size());
  }

  @Test
  void closeDuringHeavySendingGivesEveryAcceptedRecordOneOutcome() throws Exception {
    server.respond(
        r ->
            Reply.ok(r)
                .delayed(100)); // slow enough that close's grace period cannot drain the backlog
    Outcomes outcomes = new Outcomes();
    AtomicInteger nextId = new AtomicInteger();
    AtomicInteger accepted = new AtomicInteger();
    Producer producer =
        new Producer(
            config().setLingerMillis(5).setBatchCountThreshold(200).setSendThreads(2).build(),
            exporter(server.endpoint()).setStripes(4).build());
    List<Thread> senders = new ArrayList<>();
    for (int t = 0; t < 6; t++) {
      Thread sender =
          new Thread(
              () -> {
                while (true) {
                  int id = nextId.getAndIncrement();
                  try {
                    producer.send(TestRecords.simple("c-" + id), outcomes.callback(id));
                    accepted.incrementAndGet();
                  } catch (IllegalStateException closed) {
                    return;
                  } catch (RuntimeException refused) {
                    // e.g. buffer exhausted while closing: not accepted, no outcome expected
                    if (producer.isClosed()) {
                      return;
                    }
                  }
                }
              },
              "close-test-sender-" + t);
      senders.add(sender);
      sender.start();
    }
    assertTrue(
        Outcomes.until(() -> accepted.get() >= 20_000, WAIT_MILLIS), "accepted " + accepted.get());
    try (SchedulerLag lag = SchedulerLag.start()) {
      long closeStart = System.nanoTime();
      producer.close(500);
      lag.assertWithin(closeStart, 500 + ProducerEngine.CLOSE_SLACK_MILLIS, "close(500)");
    }
    for (Thread sender : senders) {
      sender.join(WAIT_MILLIS);
      assertTrue(!sender.isAlive(), sender.getName() + " still sending");
    }
    assertTrue(
        outcomes.await(accepted.get(), WAIT_MILLIS),
        "outcomes " + outcomes.total() + " of " + accepted.get() + " accepted");
    assertEquals(accepted.get(), outcomes.total());
    assertEquals(accepted.get(), outcomes.distinctIds());
    assertEquals(0, outcomes.duplicates());
    assertEquals(accepted.get(), producer.getMetrics().getRecordsAccepted());
    Map<Status, Integer> counts = outcomes.statusCounts();
    assertEquals(
        accepted.get(),
        counts.getOrDefault(Status.DELIVERED, 0) + counts.getOrDefault(Status.FAILED_AT_CLOSE, 0),
        "statuses: " + counts);
    assertTrue(counts.getOrDefault(Status.DELIVERED, 0) > 0, "statuses: " + counts);
    assertTrue(counts.getOrDefault(Status.FAILED_AT_CLOSE, 0) > 0, "statuses: " + counts);
    // every record reported DELIVERED reached the receiver (it may also have accepted requests
    // whose answer the
    // closing client no longer read: those records are FAILED_AT_CLOSE, the usual at-least-once
    // ambiguity)
    HashSet<String> received = new HashSet<>(server.deliveredBodies());
    for (int id : outcomes.idsWith(Status.DELIVERED)) {
      assertTrue(received.contains("c-" + id), "delivered c-" + id + " never reached the receiver");
    }
    assertNoProducerThreads();
  }

  @Test
  void closeAbortsARequestHungInTheReceiver() {
    java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
    server.respond(r -> Reply.ok(r).heldBy(release));
    Outcomes outcomes = new Outcomes();
    try {
      Producer producer =
          new Producer(
              config().setBatchCountThreshold(4).build(),
              exporter(server.endpoint()).setTimeoutMillis(60_000).build());
      sendAll(producer, outcomes, 4);
      assertTrue(
          Outcomes.until(() -> server.requests().size() == 1, WAIT_MILLIS),
          "the request is in flight");
      try (SchedulerLag lag = SchedulerLag.start()) {
        long start = System.nanoTime();
        producer.close(300);
        lag.assertWithin(
            start, 300 + ProducerEngine.CLOSE_SLACK_MILLIS, "close(300), a 60 s request in flight");
      }
      assertTrue(outcomes.await(4, WAIT_MILLIS));
      assertEquals(Map.of(Status.FAILED_AT_CLOSE, 4), outcomes.statusCounts());
      assertEquals(4, producer.getMetrics().getRecordsFailed());
      assertNoProducerThreads();
    } finally {
      release.countDown();
    }
  }

  @Test
  void budgetIsNeverExceededWithASlowReceiver() throws Exception {
    server.respond(r -> Reply.ok(r).delayed(20));
    long total = 64 * 1024;
    Outcomes outcomes = new Outcomes();
    int threads = 8;
    int perThread = 300;
    try (Producer producer =
        new Producer(
            config()
                .setTotalSizeInBytes(total)
                .setBatchSizeInBytes(4 * 1024)
                .setLingerMillis(50)
                .setSendThreads(2)
                .setMaxBlockMillis(WAIT_MILLIS)
                .build(),
            exporter(server.endpoint()).setStripes(8).build())) {
      List<Thread> senders = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int base = t * perThread;
        Thread sender =
            new Thread(
                () -> {
                  for (int i = 0; i < perThread; i++) {
                    int id = base + i;
                    producer.send(
                        LogRecord.builder()
                            .setObservedTimeUnixNano(1)
                            .setBody("b-" + id + "-" + "p".repeat(200))
                            .build(),
                        outcomes.callback(id));
                  }
                },
                "budget-sender-" + t);
        senders.add(sender);
        sender.start();
      }
      for (Thread sender : senders) {
        sender.join(WAIT_MILLIS * 2);
        assertTrue(!sender.isAlive());
      }
      assertTrue(outcomes.await(threads * perThread, WAIT_MILLIS));
      ProducerMetrics m = producer.getMetrics();
      assertTrue(
          m.getPeakBufferedBytes() <= total, "peak " + m.getPeakBufferedBytes() + " > " + total);
      assertTrue(
          m.getPeakBufferedBytes() > total / 2, "the budget was actually under pressure: " + m);
      assertTrue(m.getSendBlockedNanos() > 0, "senders had to wait: " + m);
      assertEquals(threads * perThread, m.getRecordsSent());
      assertEquals(Map.of(Status.DELIVERED, threads * perThread), outcomes.statusCounts());
    }
    List<String> delivered = server.deliveredBodies();
    assertEquals(threads * perThread, delivered.size());
    assertEquals(threads * perThread, new HashSet<>(delivered).size());
  }

  @Test
  void headersAndUserAgentAreSent() {
    Outcomes outcomes = new Outcomes();
    try (Producer producer =
        new Producer(
            config().setLingerMillis(10).build(),
            exporter(server.endpoint())
                .addHeader("X-BK-TOKEN", "secret-token")
                .addHeader("Authorization", "Bearer abc")
                .build())) {
      sendAll(producer, outcomes, 3);
      producer.flush();
    }
    ReceivedRequest r = server.requests().get(0);
    assertEquals("POST", r.method());
    assertEquals("/v1/logs", r.path());
    assertEquals("secret-token", r.header("x-bk-token"));
    assertEquals("Bearer abc", r.header("authorization"));
    assertNotNull(r.userAgent());
    assertTrue(r.userAgent().startsWith("logproducer-otlp-java"), r.userAgent());
    assertEquals(Map.of(Status.DELIVERED, 3), outcomes.statusCounts());
  }
}
