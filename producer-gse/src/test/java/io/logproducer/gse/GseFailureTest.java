package io.logproducer.gse;

import static io.logproducer.gse.GseExporterTest.awaitTrue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.BufferExhaustedException;
import io.logproducer.BufferFullPolicy;
import io.logproducer.LogRecord;
import io.logproducer.Producer;
import io.logproducer.ProducerMetrics;
import io.logproducer.SendResult;
import io.logproducer.Severity;
import io.logproducer.internal.ProducerEngine;
import io.logproducer.testing.gse.GseAgent;
import io.logproducer.testing.gse.GseFrame;
import io.logproducer.testsupport.SchedulerLag;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent dies, is slow, is missing: no record is lost silently, duplicated, or sent as a corrupt
 * frame.
 */
class GseFailureTest {

  private static final int DATA_ID = 1500001;

  /** ~1 KiB of padding per record, so that frames are far larger than the socket buffer. */
  private static final String PADDING = "x".repeat(1000);

  @TempDir Path dir;

  private GseAgent agent;
  private Producer producer;

  @AfterEach
  void tearDown() {
    if (producer != null) {
      producer.close(5_000);
    }
    if (agent != null) {
      agent.close();
    }
  }

  private Path socket() {
    return dir.resolve("gse.sock");
  }

  private GseExporterBuilder exporter() {
    return GseExporter.builder().setUnixSocketPath(socket().toString()).setDataId(DATA_ID);
  }

  private static LogRecord bigRecord(long seq) {
    return LogRecord.builder()
        .setSeverity(Severity.INFO)
        .setBody(PADDING)
        .setAttribute("seq", seq)
        .build();
  }

  @Test
  void agentKilledAndRestartedMidStreamLosesAtMostTheFrameInFlightAndDuplicatesNothing()
      throws Exception {
    agent = GseAgent.unix(socket());
    agent.killAfterFrames(5, 100); // dies 100 bytes into the 6th data frame
    producer =
        new Producer(
            Support.config().setBatchCountThreshold(100).setSendThreads(2).build(),
            exporter().setSocketSendBufferBytes(8192).build());
    Support.Outcomes outcomes = new Support.Outcomes();
    int n = 3_000;
    Thread sender =
        new Thread(
            () -> {
              for (int i = 0; i < n; i++) {
                producer.send(bigRecord(i), outcomes.forSeq(i));
              }
            });
    sender.start();
    agent.await("the agent to die", () -> agent.truncatedFrames() == 1, 30_000);
    agent.start(); // a new agent process on the same path
    sender.join(20_000);
    producer.flush();
    outcomes.await(n, 30_000);
    producer.close(
        5_000); // ends the connection: the agent reads what was written, then sees the end
    agent.awaitAllConnectionsEnded(10_000);

    assertEquals(n, outcomes.count(SendResult.Status.DELIVERED), outcomes.toString());
    assertEquals(List.of(), agent.violations());
    assertEquals(
        1, agent.truncatedFrames(), "only the frame the agent was reading when it died is cut");
    List<Long> received = Support.receivedSeqs(agent);
    Set<Long> unique = new HashSet<>(received);
    assertEquals(received.size(), unique.size(), "no record received twice");
    TreeSet<Long> missing = new TreeSet<>();
    for (long i = 0; i < n; i++) {
      if (!unique.contains(i)) {
        missing.add(i);
      }
    }
    System.out.println(
        "agent kill: "
            + missing.size()
            + " record(s) lost with the frame in flight, "
            + producer.getMetrics().getRetries()
            + " retries");
    if (!missing.isEmpty()) {
      // Written whole into the socket (so reported delivered), but the agent died before reading
      // it: one frame.
      SendResult lost = outcomes.bySeq.get(missing.first());
      for (long s : missing) {
        assertSame(
            lost, outcomes.bySeq.get(s), "missing records all belong to the one frame in flight");
      }
      assertEquals(lost.getBatchRecordCount(), missing.size());
    }
    assertTrue(producer.getMetrics().getRetries() >= 1, "the frame in flight was re-sent");
    assertTrue(missing.size() <= 100, "at most one frame");
    assertTrue(agent.connections() >= 2, "reconnected to the restarted agent");
  }

  @Test
  void aStalledWriteClosesTheConnectionAndTheWholeFrameIsResentOnANewOne() throws Exception {
    agent = GseAgent.unix(socket());
    GseExporter exporter =
        exporter().setSocketSendBufferBytes(8192).setWriteTimeoutMillis(300).build();
    producer =
        new Producer(
            Support.config().setBatchCountThreshold(200).setLingerMillis(5_000).build(), exporter);
    agent.awaitInfoRequests(1, 30_000);
    awaitTrue("agent info", () -> exporter.agentInfo().ip != null, 30_000);
    agent.pauseReading();
    Support.Outcomes outcomes = new Support.Outcomes();
    int n = 200;
    for (int i = 0; i < n; i++) {
      producer.send(bigRecord(i), outcomes.forSeq(i));
    }
    awaitTrue(
        "a stalled write", () -> exporter.transport().counters().writeFailures() >= 1, 30_000);
    agent.resumeReading();
    outcomes.await(n, 30_000);
    agent.awaitRecords(n, 30_000);

    assertEquals(n, outcomes.count(SendResult.Status.DELIVERED));
    assertEquals(
        List.of(),
        agent.violations(),
        "the partial frame never reached a parser that kept reading");
    assertTrue(agent.truncatedFrames() >= 1, "the stalled connection ended inside the frame");
    List<Long> received = Support.receivedSeqs(agent);
    assertEquals(n, received.size());
    assertEquals(n, new HashSet<>(received).size());
    assertEquals(1, agent.frames().size(), "the whole frame, once");
    SendResult r = outcomes.bySeq.get(0L);
    assertTrue(r.getAttempts() >= 2, r.toString());
  }

  @Test
  void agentAbsentAtStartRecordsWaitAndAreDeliveredWhenItAppears() throws Exception {
    agent = GseAgent.notStarted(socket());
    GseExporter exporter = exporter().build();
    producer = new Producer(Support.config().setBatchCountThreshold(50).build(), exporter);
    Support.Outcomes outcomes = new Support.Outcomes();
    int n = 500;
    for (int i = 0; i < n; i++) {
      producer.send(Support.record(i), outcomes.forSeq(i));
    }
    awaitTrue(
        "failed connection attempts",
        () -> exporter.transport().counters().connectsFailed() >= 3,
        10_000);
    assertEquals(0, outcomes.total(), "nothing completes while the agent is absent");
    agent.start();
    outcomes.await(n, 30_000);
    agent.awaitRecords(n, 30_000);

    assertEquals(n, outcomes.count(SendResult.Status.DELIVERED));
    assertEquals(List.of(), agent.violations());
    List<Long> received = Support.receivedSeqs(agent);
    assertEquals(n, received.size());
    assertEquals(n, new HashSet<>(received).size());
    assertEquals(
        2,
        Support.json(agent.frames().get(0)).get("bizid").getAsInt(),
        "attach fields from the late agent");
  }

  @Test
  void agentThatNeverAppearsFailsEveryRecordAfterDeliveryTimeout() throws Exception {
    producer =
        new Producer(
            Support.config().setBatchCountThreshold(10).setDeliveryTimeoutMillis(1_000).build(),
            exporter().build());
    Support.Outcomes outcomes = new Support.Outcomes();
    int n = 100;
    long start = System.nanoTime();
    for (int i = 0; i < n; i++) {
      producer.send(Support.record(i), outcomes.forSeq(i));
    }
    outcomes.await(n, 30_000);
    long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

    assertEquals(n, outcomes.count(SendResult.Status.FAILED), outcomes.toString());
    assertTrue(tookMillis >= 800, "failed only after deliveryTimeoutMillis: " + tookMillis + " ms");
    SendResult r = outcomes.bySeq.get(0L);
    assertTrue(r.getMessage().contains("deliveryTimeoutMillis"), r.getMessage());
    assertTrue(r.getMessage().contains("not connected to the GSE agent at unix:"), r.getMessage());
    assertNotNull(r.getError());
    ProducerMetrics m = producer.getMetrics();
    assertEquals(n, m.getRecordsFailed());
    assertEquals(0, m.getRecordsSent());
    assertEquals(10, m.getBatchesFailed());
    assertEquals(0, m.getBufferedBytes(), "the budget comes back whole");
  }

  @Test
  void slowAgentBlockPolicyHoldsTheBudgetAndThrowsAfterMaxBlockMillis() throws Exception {
    agent = GseAgent.unix(socket());
    long total = 256 * 1024;
    GseExporter exporter = exporter().setWriteTimeoutMillis(60_000).build();
    producer =
        new Producer(
            Support.config()
                .setTotalSizeInBytes(total)
                .setBatchSizeInBytes(16 * 1024)
                .setMaxBlockMillis(300)
                .build(),
            exporter);
    agent.awaitInfoRequests(1, 30_000);
    awaitTrue("agent info", () -> exporter.agentInfo().ip != null, 30_000);
    agent.pauseReading();
    Support.Outcomes outcomes = new Support.Outcomes();
    int accepted = 0;
    long blockedMillis = -1;
    for (int i = 0; i < 100_000; i++) {
      long start = System.nanoTime();
      try {
        producer.send(bigRecord(i), outcomes.forSeq(i));
        accepted++;
      } catch (BufferExhaustedException e) {
        blockedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertTrue(e.getMessage().contains("within 300 ms"), e.getMessage());
        break;
      }
    }
    assertTrue(
        blockedMillis >= 280, "send blocked for maxBlockMillis before throwing: " + blockedMillis);
    ProducerMetrics m = producer.getMetrics();
    assertTrue(m.getPeakBufferedBytes() <= total, m.toString());
    assertTrue(m.getBufferedBytes() > total / 2, "the budget filled up: " + m);
    assertEquals(0, outcomes.count(SendResult.Status.DROPPED));

    agent.resumeReading();
    outcomes.await(accepted, 30_000);
    agent.awaitRecords(accepted, 30_000);
    assertEquals(accepted, outcomes.count(SendResult.Status.DELIVERED));
    assertEquals(accepted, agent.records());
    assertEquals(List.of(), agent.violations());
    assertTrue(producer.getMetrics().getPeakBufferedBytes() <= total);
  }

  @Test
  void slowAgentDropPolicyDropsAndReportsEveryDroppedRecord() throws Exception {
    agent = GseAgent.unix(socket());
    long total = 256 * 1024;
    GseExporter exporter = exporter().setWriteTimeoutMillis(60_000).build();
    producer =
        new Producer(
            Support.config()
                .setTotalSizeInBytes(total)
                .setBatchSizeInBytes(16 * 1024)
                .setBufferFullPolicy(BufferFullPolicy.DROP)
                .build(),
            exporter);
    agent.awaitInfoRequests(1, 30_000);
    awaitTrue("agent info", () -> exporter.agentInfo().ip != null, 30_000);
    agent.pauseReading();
    Support.Outcomes outcomes = new Support.Outcomes();
    int n = 2_000; // ~2 MB against a 256 KiB budget
    for (int i = 0; i < n; i++) {
      producer.send(bigRecord(i), outcomes.forSeq(i));
    }
    long dropped = outcomes.count(SendResult.Status.DROPPED);
    ProducerMetrics m = producer.getMetrics();
    assertTrue(dropped > 0, "records were dropped");
    assertEquals(dropped, m.getRecordsDropped());
    assertEquals(n - dropped, m.getRecordsAccepted());
    assertTrue(m.getPeakBufferedBytes() <= total, m.toString());

    agent.resumeReading();
    outcomes.await(n, 30_000);
    assertEquals(n - dropped, outcomes.count(SendResult.Status.DELIVERED));
    agent.awaitRecords(n - dropped, 30_000);
    assertEquals(n - dropped, agent.records());
    List<Long> received = Support.receivedSeqs(agent);
    for (long s : received) {
      assertEquals(SendResult.Status.DELIVERED, outcomes.bySeq.get(s).getStatus(), "record " + s);
    }
    assertEquals(List.of(), agent.violations());
  }

  @Test
  void slowlyReadingAgentGetsEverythingWhileSendBlocksWithinTheBudget() throws Exception {
    agent = GseAgent.unix(socket());
    agent.setReadBytesPerSecond(4L * 1024 * 1024);
    long total = 512 * 1024;
    producer =
        new Producer(
            Support.config()
                .setTotalSizeInBytes(total)
                .setBatchSizeInBytes(64 * 1024)
                .setMaxBlockMillis(30_000)
                .build(),
            exporter().build());
    Support.Outcomes outcomes = new Support.Outcomes();
    int n = 6_000; // ~6 MB at 4 MB/s
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < 3; t++) {
      int first = t * (n / 3);
      Thread th =
          new Thread(
              () -> {
                for (int i = first; i < first + n / 3; i++) {
                  producer.send(bigRecord(i), outcomes.forSeq(i));
                }
              });
      threads.add(th);
      th.start();
    }
    for (Thread th : threads) {
      th.join(30_000);
    }
    outcomes.await(n, 30_000);
    agent.awaitRecords(n, 30_000);

    ProducerMetrics m = producer.getMetrics();
    assertEquals(n, outcomes.count(SendResult.Status.DELIVERED));
    assertEquals(n, agent.records());
    assertTrue(m.getPeakBufferedBytes() <= total, m.toString());
    assertTrue(m.getSendBlockedNanos() > 0, "senders waited for the slow agent: " + m);
    assertEquals(List.of(), agent.violations());
  }

  @Test
  void closeDoesNotHangOnAStuckAgentAndFailsWhatIsLeft() throws Exception {
    agent = GseAgent.unix(socket());
    GseExporter exporter = exporter().setWriteTimeoutMillis(60_000).build();
    producer =
        new Producer(
            Support.config()
                .setClientId("gse-stuck")
                .setBatchCountThreshold(100)
                .setSendThreads(2)
                .build(),
            exporter);
    agent.awaitInfoRequests(1, 30_000);
    GseExporterTest.awaitTrue("agent info", () -> exporter.agentInfo().ip != null, 30_000);
    agent.pauseReading();
    Support.Outcomes outcomes = new Support.Outcomes();
    int n = 2_000; // ~2 MB: far more than the socket buffers hold
    for (int i = 0; i < n; i++) {
      producer.send(bigRecord(i), outcomes.forSeq(i));
    }
    GseExporterTest.awaitTrue(
        "a write stuck on the full socket",
        () ->
            exporter.transport().counters().framesStarted()
                > exporter.transport().counters().framesWritten()
                    + exporter.transport().counters().writeFailures(),
        10_000);
    try (SchedulerLag lag = SchedulerLag.start()) {
      long start = System.nanoTime();
      producer.close(300);
      lag.assertWithin(start, 300 + ProducerEngine.CLOSE_SLACK_MILLIS, "close(300)");
    }
    outcomes.await(n, 30_000);
    assertEquals(
        n,
        outcomes.count(SendResult.Status.DELIVERED)
            + outcomes.count(SendResult.Status.FAILED_AT_CLOSE),
        outcomes.toString());
    assertTrue(outcomes.count(SendResult.Status.FAILED_AT_CLOSE) > 0, outcomes.toString());
    assertTrue(!GseExporterTest.threadAlive("gse-stuck-gse-io"), "no thread outlives close");
    agent.resumeReading();
    agent.awaitAllConnectionsEnded(10_000);
    assertEquals(
        outcomes.count(SendResult.Status.DELIVERED),
        agent.records(),
        "exactly the records reported delivered were received");
    assertEquals(List.of(), agent.violations());
  }

  @Test
  void aBatchSizeAboveTheFrameLimitIsLoweredToIt() throws Exception {
    agent = GseAgent.unix(socket());
    // 4096-byte frame bodies leave 2018 bytes of records; the default batch size (1 MiB) is lowered
    // to that.
    producer =
        new Producer(Support.config().build(), exporter().setMaxFrameBodyBytes(4096).build());
    Support.Outcomes outcomes = new Support.Outcomes();
    int n = 200;
    for (int i = 0; i < n; i++) {
      producer.send(Support.record(i), outcomes.forSeq(i));
    }
    producer.flush();
    outcomes.await(n, 30_000);
    assertEquals(n, outcomes.count(SendResult.Status.DELIVERED), outcomes.toString());
    agent.awaitRecords(n, 30_000);
    List<GseFrame> data = new ArrayList<>();
    for (GseFrame f : agent.frames()) {
      if (f.dataId() == DATA_ID) {
        data.add(f);
      }
    }
    assertTrue(data.size() > 1, "the records travel in several frames: " + data.size());
    for (GseFrame f : data) {
      assertTrue(f.bodyLength() <= 4096, "a frame body of " + f.bodyLength() + " bytes");
    }
  }
}
