package io.logproducer.gse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import io.logproducer.AnyValue;
import io.logproducer.Compression;
import io.logproducer.LogRecord;
import io.logproducer.Producer;
import io.logproducer.ProducerMetrics;
import io.logproducer.SendResult;
import io.logproducer.Severity;
import io.logproducer.gse.internal.Endpoint;
import io.logproducer.gse.internal.LocalHost;
import io.logproducer.testing.gse.GseAgent;
import io.logproducer.testing.gse.GseFrame;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * End-to-end: a producer with a GseExporter against a strict test agent on a real Unix (or TCP)
 * socket.
 */
class GseExporterTest {

  private static final int DATA_ID = 1500001;
  private static final DateTimeFormatter FORMAT =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

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

  private GseExporterBuilder exporter() {
    return GseExporter.builder()
        .setUnixSocketPath(dir.resolve("gse.sock").toString())
        .setDataId(DATA_ID);
  }

  private void sendAll(int n, Support.Outcomes outcomes) {
    for (int i = 0; i < n; i++) {
      producer.send(Support.record(i), outcomes.forSeq(i));
    }
  }

  @Test
  void deliversEveryRecordInFramesWithTheAgentsAttachFields() throws Exception {
    agent = GseAgent.unix(dir.resolve("gse.sock"));
    producer =
        new Producer(
            Support.config().setBatchCountThreshold(500).setLingerMillis(5_000).build(),
            exporter().build());
    Support.Outcomes outcomes = new Support.Outcomes();
    int n = 5_000;
    sendAll(n, outcomes);
    producer.flush();
    outcomes.await(n, 30_000);
    agent.awaitRecords(n, 30_000);

    assertEquals(List.of(), agent.violations());
    assertEquals(n, outcomes.count(SendResult.Status.DELIVERED));
    List<Long> seqs = Support.receivedSeqs(agent);
    assertEquals(n, seqs.size());
    assertEquals(n, new HashSet<>(seqs).size());
    List<GseFrame> frames = agent.frames();
    assertEquals(10, frames.size(), "5,000 records at batchCountThreshold 500");
    long gseIndex = 0;
    for (GseFrame f : frames) {
      assertEquals(0x09, f.msgType());
      assertEquals(DATA_ID, f.dataId());
      assertEquals(0, f.metaLen());
      assertEquals(0, f.metaCount());
      JsonObject j = Support.json(f);
      assertEquals(DATA_ID, j.get("dataid").getAsInt());
      assertEquals(2, j.get("bizid").getAsInt());
      assertEquals(3, j.get("bk_biz_id").getAsInt());
      assertEquals(4, j.get("cloudid").getAsInt());
      assertEquals("10.0.0.5", j.get("ip").getAsString());
      assertEquals("0100005254008ed86116666614661851", j.get("bk_agent_id").getAsString());
      assertEquals(77, j.get("bk_host_id").getAsInt());
      assertEquals(LocalHost.name(), j.get("hostname").getAsString());
      assertEquals(
          ++gseIndex, j.get("gseindex").getAsLong(), "gseindex counts frames of the dataid from 1");
      long time = j.get("time").getAsLong();
      assertEquals(f.utcTime(), time);
      assertEquals(
          FORMAT.format(LocalDateTime.ofEpochSecond(time, 0, ZoneOffset.UTC)),
          j.get("utctime").getAsString());
      assertEquals(
          FORMAT.format(
              LocalDateTime.ofInstant(Instant.ofEpochSecond(time), ZoneId.systemDefault())),
          j.get("datetime").getAsString());
      assertEquals(500, f.data().size());
    }
    // One record in full, decoded independently.
    JsonObject r = null;
    for (GseFrame f : frames) {
      for (String d : f.data()) {
        if (Support.seqOf(d) == 7) {
          r = Support.inner(d);
        }
      }
    }
    assertEquals(
        List.of(
            "attributes",
            "body",
            "flags",
            "resource",
            "severity_number",
            "severity_text",
            "span_id",
            "time_unix",
            "trace_id"),
        new ArrayList<>(r.keySet()));
    assertEquals("message 7 with \"quotes\", <html> & 中文", r.get("body").getAsString());
    assertEquals(7, r.getAsJsonObject("attributes").get("seq").getAsLong());
    assertEquals("pool-1-thread-2_7", r.getAsJsonObject("attributes").get("thread").getAsString());
    assertEquals(1_700_000_000_000_007L, r.get("time_unix").getAsLong());
    assertEquals(9, r.get("severity_number").getAsInt());
    assertEquals("INFO", r.get("severity_text").getAsString());
    assertEquals("", r.get("trace_id").getAsString());
    assertEquals("", r.get("span_id").getAsString());
    assertEquals(0, r.get("flags").getAsInt());
    assertEquals(0, r.getAsJsonObject("resource").size());

    ProducerMetrics m = producer.getMetrics();
    assertEquals(n, m.getRecordsSent());
    assertEquals(10, m.getBatchesSent());
    assertEquals(0, m.getRetries());
    assertEquals(1, agent.connections());
  }

  @Test
  void configuredAttachFieldsWinOverTheAgentsAndCloudIdIsReadInBothSpellings() throws Exception {
    agent = GseAgent.unix(dir.resolve("gse.sock"));
    agent.setAgentInfoJson(
        "{\"bizid\":\"21\",\"bk_biz_id\":22,\"cloud_id\":23,\"ip\":\"10.1.1.1\","
            + "\"bk_agent_id\":\"agent-x\",\"bk_host_id\":24,\"extra\":{\"nested\":[1,2,{\"a\":null}]}}");
    producer =
        new Producer(
            Support.config().build(),
            exporter()
                .setBizId(-5)
                .setIp("192.168.0.9")
                .setHostname("configured-host")
                .setResourceAttribute("service.name", "checkout")
                .build());
    Support.Outcomes outcomes = new Support.Outcomes();
    sendAll(3, outcomes);
    producer.flush();
    outcomes.await(3, 30_000);
    agent.awaitRecords(3, 30_000);

    assertEquals(List.of(), agent.violations());
    JsonObject j = Support.json(agent.frames().get(0));
    assertEquals(-5, j.get("bizid").getAsInt(), "configured");
    assertEquals(22, j.get("bk_biz_id").getAsInt(), "agent");
    assertEquals(23, j.get("cloudid").getAsInt(), "agent's cloud_id");
    assertEquals("192.168.0.9", j.get("ip").getAsString(), "configured");
    assertEquals("configured-host", j.get("hostname").getAsString(), "configured");
    assertEquals("agent-x", j.get("bk_agent_id").getAsString(), "agent");
    assertEquals(24, j.get("bk_host_id").getAsInt(), "agent");
    JsonObject r = Support.inner(agent.frames().get(0).data().get(0));
    assertEquals("checkout", r.getAsJsonObject("resource").get("service.name").getAsString());
  }

  @Test
  void commonFramesCarryNoExtension() throws Exception {
    agent = GseAgent.unix(dir.resolve("gse.sock"));
    producer =
        new Producer(
            Support.config().build(),
            exporter().setFrameType(GseExporter.FrameType.COMMON).build());
    Support.Outcomes outcomes = new Support.Outcomes();
    sendAll(20, outcomes);
    producer.flush();
    agent.awaitRecords(20, 30_000);
    outcomes.await(20, 30_000);

    assertEquals(List.of(), agent.violations());
    for (GseFrame f : agent.frames()) {
      assertEquals(0x0C01, f.msgType());
      assertEquals(DATA_ID, f.dataId());
    }
    assertEquals(20, outcomes.count(SendResult.Status.DELIVERED));
  }

  @Test
  void dynamicFramesCarryTheConfiguredMetaEntries() throws Exception {
    agent = GseAgent.unix(dir.resolve("gse.sock"));
    producer =
        new Producer(
            Support.config().build(), exporter().addMeta("tag", "v1").addMeta("k2", "值").build());
    Support.Outcomes outcomes = new Support.Outcomes();
    sendAll(5, outcomes);
    producer.flush();
    agent.awaitRecords(5, 30_000);

    assertEquals(List.of(), agent.violations());
    GseFrame f = agent.frames().get(0);
    assertEquals(2, f.metaCount());
    assertEquals(13 + 8 + 2 + 3, f.metaLen());
    assertEquals(List.of(Map.entry("tag", "v1"), Map.entry("k2", "值")), f.meta());
  }

  @Test
  void bodyItemsCarryTheBodyLine() throws Exception {
    agent = GseAgent.unix(dir.resolve("gse.sock"));
    producer =
        new Producer(
            Support.config().build(),
            exporter().setItemFormat(GseExporter.ItemFormat.BODY).build());
    String line = "2026-11-21 10:00:00 ERROR \"quoted\" \\ back\tslash <tag> & 中文 \u2028 😀";
    producer.send(LogRecord.builder().setBody(line).build());
    producer.send(LogRecord.builder().setBody(AnyValue.of(42L)).build());
    producer.send(LogRecord.builder().build());
    producer.flush();
    agent.awaitRecords(3, 30_000);

    assertEquals(List.of(), agent.violations());
    assertEquals(List.of(line, "42", ""), agent.frames().get(0).data());
  }

  @Test
  void eachDataIdGetsItsOwnFramesAndBadDestinationsAreRefusedAtSend() throws Exception {
    agent = GseAgent.unix(dir.resolve("gse.sock"));
    producer = new Producer(Support.config().setLingerMillis(2_000).build(), exporter().build());
    Support.Outcomes outcomes = new Support.Outcomes();
    String[] ids = {null, "1500002", "7"};
    int n = 300;
    for (int i = 0; i < n; i++) {
      producer.send(Support.record(i, ids[i % 3]), outcomes.forSeq(i));
    }
    IllegalArgumentException bad =
        assertThrows(IllegalArgumentException.class, () -> producer.send(Support.record(n, "15x")));
    assertEquals(
        "destination (GSE dataid) must be a decimal integer in [1, 2147483647], was '15x'",
        bad.getMessage());
    assertThrows(IllegalArgumentException.class, () -> producer.send(Support.record(n, "0")));
    assertThrows(
        IllegalArgumentException.class, () -> producer.send(Support.record(n, "2147483648")));
    producer.flush();
    outcomes.await(n, 30_000);
    agent.awaitRecords(n, 30_000);

    assertEquals(List.of(), agent.violations());
    assertEquals(n, outcomes.count(SendResult.Status.DELIVERED));
    Map<Integer, Integer> perDataId = new HashMap<>();
    for (GseFrame f : agent.frames()) {
      for (String d : f.data()) {
        long seq = Support.seqOf(d);
        int expected =
            ids[(int) (seq % 3)] == null ? DATA_ID : Integer.parseInt(ids[(int) (seq % 3)]);
        assertEquals(expected, f.dataId(), "record " + seq + " in a frame of another dataid");
        perDataId.merge(f.dataId(), 1, Integer::sum);
      }
    }
    assertEquals(Map.of(DATA_ID, 100, 1500002, 100, 7, 100), perDataId);
  }

  @Test
  void recordsWithoutDestinationNeedADefaultDataId() throws Exception {
    agent = GseAgent.unix(dir.resolve("gse.sock"));
    producer =
        new Producer(
            Support.config().build(),
            GseExporter.builder().setUnixSocketPath(dir.resolve("gse.sock").toString()).build());
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> producer.send(LogRecord.builder().setBody("x").build()));
    assertTrue(e.getMessage().startsWith("the record has no destination (dataid)"), e.getMessage());
    producer.send(Support.record(1, "42"));
    producer.flush();
    agent.awaitRecords(1, 30_000);
    assertEquals(42, agent.frames().get(0).dataId());
  }

  @Test
  void framesStayBelowMaxFrameBodyBytesEvenWhenItemFramingPushesABatchOver() throws Exception {
    agent = GseAgent.unix(dir.resolve("gse.sock"));
    int max = 64 * 1024;
    GseExporter exporter = exporter().setMaxFrameBodyBytes(max).build();
    assertEquals(max - 1 - 2048 - 29, exporter.maxBatchSizeInBytes());
    producer =
        new Producer(
            Support.config()
                .setBatchSizeInBytes(exporter.maxBatchSizeInBytes())
                .setLingerMillis(5_000)
                .build(),
            exporter);
    Support.Outcomes outcomes = new Support.Outcomes();
    int n = 3_000;
    sendAll(n, outcomes);
    producer.flush();
    outcomes.await(n, 30_000);
    agent.awaitRecords(n, 30_000);

    assertEquals(List.of(), agent.violations());
    assertEquals(n, outcomes.count(SendResult.Status.DELIVERED));
    List<Long> seqs = Support.receivedSeqs(agent);
    assertEquals(n, seqs.size());
    assertEquals(n, new HashSet<>(seqs).size());
    int split = 0;
    for (GseFrame f : agent.frames()) {
      assertTrue(f.bodyLength() < max, "frame body " + f.bodyLength() + " >= " + max);
      if (f.bodyLength() < max / 2 + 4096) {
        split++;
      }
    }
    assertTrue(
        split >= 2,
        "full batches (records ~"
            + (exporter.maxBatchSizeInBytes() / 250)
            + " per batch) need their ~30 bytes per item of framing and are split in halves");
  }

  @Test
  void agentInfoIsQueriedOnConnectAndRefreshedEveryInterval() throws Exception {
    agent = GseAgent.unix(dir.resolve("gse.sock"));
    GseExporter exporter = exporter().setAgentInfoIntervalMillis(1_000).build();
    producer = new Producer(Support.config().build(), exporter);
    agent.awaitInfoRequests(1, 30_000);
    awaitTrue("first agent info", () -> "10.0.0.5".equals(exporter.agentInfo().ip), 30_000);
    agent.setAgentInfoJson(
        "{\"bizid\":9,\"cloudid\":8,\"ip\":\"10.9.9.9\",\"bk_agent_id\":\"new\"}");
    agent.awaitInfoRequests(3, 30_000);
    awaitTrue("refreshed agent info", () -> "10.9.9.9".equals(exporter.agentInfo().ip), 30_000);
    producer.send(Support.record(1));
    producer.flush();
    agent.awaitRecords(1, 30_000);
    JsonObject j = Support.json(agent.frames().get(0));
    assertEquals("10.9.9.9", j.get("ip").getAsString());
    assertEquals(9, j.get("bizid").getAsInt());
    assertEquals(0, j.get("bk_biz_id").getAsInt(), "absent from the new reply");
    assertEquals(1, agent.connections(), "one persistent connection");
    assertEquals(List.of(), agent.violations());
  }

  @Test
  void anAgentThatNeverAnswersTheInfoRequestDelaysOnlyTheFirstFrame() throws Exception {
    agent = GseAgent.unix(dir.resolve("gse.sock"));
    agent.setAnswerAgentInfo(false);
    producer =
        new Producer(Support.config().build(), exporter().setAgentInfoTimeoutMillis(300).build());
    Support.Outcomes outcomes = new Support.Outcomes();
    long start = System.nanoTime();
    sendAll(10, outcomes);
    producer.flush();
    outcomes.await(10, 30_000);
    long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    assertTrue(tookMillis >= 250, "waited for the agent's info: " + tookMillis + " ms");
    assertEquals(10, outcomes.count(SendResult.Status.DELIVERED));
    agent.awaitRecords(10, 30_000);
    JsonObject j = Support.json(agent.frames().get(0));
    assertEquals(0, j.get("bizid").getAsInt());
    assertEquals("", j.get("ip").getAsString());
    assertEquals(LocalHost.name(), j.get("hostname").getAsString());
  }

  @Test
  void junixsocketImplementationDeliversTheSameFrames() throws Exception {
    agent = GseAgent.unix(dir.resolve("gse.sock"));
    GseExporter exporter = exporter().setUnixImpl(Endpoint.UnixImpl.JUNIXSOCKET).build();
    producer =
        new Producer(
            Support.config().setBatchCountThreshold(100).setLingerMillis(5_000).build(), exporter);
    Support.Outcomes outcomes = new Support.Outcomes();
    int n = 2_000;
    sendAll(n, outcomes);
    producer.flush();
    outcomes.await(n, 30_000);
    agent.awaitRecords(n, 30_000);
    assertEquals(List.of(), agent.violations());
    assertEquals(n, outcomes.count(SendResult.Status.DELIVERED));
    assertEquals(n, new HashSet<>(Support.receivedSeqs(agent)).size());
    assertEquals(
        2,
        Support.json(agent.frames().get(0)).get("bizid").getAsInt(),
        "agent info read via junixsocket");
    assertEquals(20, agent.frames().size());
  }

  @Test
  void tcpTransportToALocalAgent() throws Exception {
    agent = GseAgent.tcp();
    producer =
        new Producer(
            Support.config().setBatchCountThreshold(250).setLingerMillis(5_000).build(),
            GseExporter.builder()
                .setTcpEndpoint("127.0.0.1", agent.tcpPort())
                .setDataId(DATA_ID)
                .build());
    Support.Outcomes outcomes = new Support.Outcomes();
    int n = 1_000;
    sendAll(n, outcomes);
    producer.flush();
    outcomes.await(n, 30_000);
    agent.awaitRecords(n, 30_000);
    assertEquals(List.of(), agent.violations());
    assertEquals(n, outcomes.count(SendResult.Status.DELIVERED));
    assertEquals(n, new HashSet<>(Support.receivedSeqs(agent)).size());
    assertEquals(4, agent.frames().size());
    assertEquals("10.0.0.5", Support.json(agent.frames().get(0)).get("ip").getAsString());
  }

  @Test
  void compressionIsRefusedAndCloseStopsTheIoThread() throws Exception {
    agent = GseAgent.unix(dir.resolve("gse.sock"));
    GseExporter refused = exporter().build();
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> new Producer(Support.config().setCompression(Compression.GZIP).build(), refused));
    assertTrue(
        e.getMessage().startsWith("compression GZIP is not supported by GSE agent unix:"),
        e.getMessage());

    GseExporter exporter = exporter().build();
    producer = new Producer(Support.config().setClientId("gse-close-test").build(), exporter);
    producer.send(Support.record(1));
    producer.flush();
    agent.awaitRecords(1, 30_000);
    assertTrue(threadAlive("gse-close-test-gse-io"));
    producer.close(5_000);
    producer = null;
    assertFalse(threadAlive("gse-close-test-gse-io"), "no thread outlives close");
    exporter.close(); // idempotent
    assertEquals(1, agent.connections());
  }

  @Test
  void severityTraceAndSpanIdsAreWrittenAsBkCollectorDoes() throws Exception {
    agent = GseAgent.unix(dir.resolve("gse.sock"));
    producer = new Producer(Support.config().build(), exporter().build());
    producer.send(
        LogRecord.builder()
            .setSeverity(Severity.ERROR)
            .setSeverityText("boom")
            .setTraceId("0102030405060708090a0b0c0d0e0f10")
            .setSpanId("a1a2a3a4a5a6a7a8")
            .setFlags(1)
            .setObservedTimeUnixNano(1_234_567_890_123L)
            .setBody("x")
            .build());
    producer.flush();
    agent.awaitRecords(1, 30_000);
    JsonObject r = Support.inner(agent.frames().get(0).data().get(0));
    assertEquals("0102030405060708090a0b0c0d0e0f10", r.get("trace_id").getAsString());
    assertEquals("a1a2a3a4a5a6a7a8", r.get("span_id").getAsString());
    assertEquals(1, r.get("flags").getAsInt());
    assertEquals(17, r.get("severity_number").getAsInt());
    assertEquals("boom", r.get("severity_text").getAsString());
    assertEquals(
        1_234_567_890L, r.get("time_unix").getAsLong(), "observed time, in µs, when time is 0");
  }

  static boolean threadAlive(String name) {
    Set<Thread> all = Thread.getAllStackTraces().keySet();
    for (Thread t : all) {
      if (t.getName().equals(name) && t.isAlive()) {
        return true;
      }
    }
    return false;
  }

  /** Polls {@code condition} until it holds, failing after {@code timeoutMillis}. */
  static void awaitTrue(String what, BooleanSupplier condition, long timeoutMillis) {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() - deadline > 0) {
        throw new AssertionError("timed out after " + timeoutMillis + " ms waiting for " + what);
      }
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
    }
  }
}
