package io.logproducer.testing.gse;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ProtocolFamily;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.newsclub.net.unix.AFUNIXSocketAddress;
import org.newsclub.net.unix.AFUNIXSocketChannel;

/**
 * The agent against the protocol's golden vectors (docs: the GSE wire protocol; produced by the
 * unmodified libgse encoder; utctime 0x01020304, dataid 1500001, body {"a":1}), written by hand on
 * a real socket, and its modes and checks.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class GseAgentTest {

  private static final Hex HEX = new Hex();
  private static final String COMMON =
      "00000c01"
          + "0016e361"
          + "01020304"
          + "00000007"
          + "00000000"
          + "00000000"
          + "7b2261223a317d";
  private static final String DYNAMIC_HEAD =
      "00000009"
          + "0016e361"
          + "01020304"
          + "000001b7"
          + "00000000"
          + "00000000"
          + "0000000000000000"
          + "00000000"
          + "00000000"
          + "00000198"
          + "00000000";
  private static final String AGENT_INFO_REQUEST = "0000000a" + "00000000".repeat(5);

  @TempDir Path dir;

  private static byte[] dynamic(String metaLenCount, byte[] metaArea) {
    byte[] head = HEX.parseHex(DYNAMIC_HEAD);
    if (metaLenCount != null) {
      System.arraycopy(HEX.parseHex(metaLenCount), 0, head, 36, 12);
    }
    ByteBuffer b = ByteBuffer.allocate(463);
    b.put(head).put(metaArea).put("{\"a\":1}".getBytes(StandardCharsets.US_ASCII));
    return b.array();
  }

  private static SocketChannel connect(GseAgent agent) throws IOException {
    if (agent.socketPath() == null) {
      return SocketChannel.open(new InetSocketAddress("127.0.0.1", agent.tcpPort()));
    }
    return openUnix(agent.socketPath(), UnixServerChannels.preferred());
  }

  /**
   * A client of the Unix-domain socket at {@code path}: the JDK's (Java 16+, by reflection, as the
   * tests compile for Java 11) or junixsocket's.
   */
  private static SocketChannel openUnix(Path path, UnixServerChannels.Impl impl)
      throws IOException {
    if (impl == UnixServerChannels.Impl.JUNIXSOCKET) {
      return AFUNIXSocketChannel.open(AFUNIXSocketAddress.of(path.toFile()));
    }
    try {
      SocketChannel c =
          (SocketChannel)
              SocketChannel.class
                  .getMethod("open", ProtocolFamily.class)
                  .invoke(null, StandardProtocolFamily.valueOf("UNIX"));
      c.connect(
          (SocketAddress)
              Class.forName("java.net.UnixDomainSocketAddress")
                  .getMethod("of", Path.class)
                  .invoke(null, path));
      return c;
    } catch (ReflectiveOperationException e) {
      throw new IOException("no JDK Unix-domain sockets here: " + e, e);
    }
  }

  private static void write(SocketChannel c, byte[] bytes) throws IOException {
    ByteBuffer b = ByteBuffer.wrap(bytes);
    while (b.hasRemaining()) {
      c.write(b);
    }
  }

  private static byte[] read(SocketChannel c, int n) throws IOException {
    ByteBuffer b = ByteBuffer.allocate(n);
    while (b.hasRemaining()) {
      if (c.read(b) < 0) {
        throw new IOException("ended after " + b.position());
      }
    }
    return b.array();
  }

  @Test
  void goldenFramesAreDecodedFieldByField() throws Exception {
    try (GseAgent agent = GseAgent.unix(dir.resolve("a.sock"), GseAgent.Mode.FRAMING);
        SocketChannel c = connect(agent)) {
      write(c, HEX.parseHex(COMMON));
      write(c, dynamic(null, new byte[408]));
      byte[] area = new byte[408];
      System.arraycopy(HEX.parseHex("00000003" + "00000002" + "746167" + "7631"), 0, area, 0, 13);
      write(c, dynamic("0000000d" + "00000198" + "00000001", area));
      agent.await("3 frames", () -> agent.dataFrames() >= 3, 10_000);
      assertEquals(List.of(), agent.violations());
      List<GseFrame> frames = agent.frames();
      assertEquals(3, frames.size());
      int[] types = {0x0C01, 0x09, 0x09};
      for (int i = 0; i < 3; i++) {
        GseFrame f = frames.get(i);
        assertEquals(types[i], f.msgType());
        assertEquals(1500001, f.dataId());
        assertEquals(0x01020304L, f.utcTime());
        assertEquals(1, f.connection());
        assertArrayEquals("{\"a\":1}".getBytes(StandardCharsets.US_ASCII), f.body());
      }
      assertEquals(List.of(), frames.get(1).meta());
      assertEquals(0, frames.get(1).metaLen());
      assertEquals(List.of(Map.entry("tag", "v1")), frames.get(2).meta());
      assertEquals(13, frames.get(2).metaLen());
      assertEquals(1, frames.get(2).metaCount());
      assertThrows(
          IllegalStateException.class, () -> frames.get(0).document(), "FRAMING parses no body");
    }
  }

  @Test
  void theGoldenAgentInfoRequestIsAnsweredWithHeaderAndJson() throws Exception {
    try (GseAgent agent = GseAgent.tcp();
        SocketChannel c = connect(agent)) {
      agent.setAgentInfoJson("{\"bizid\":9}");
      write(c, HEX.parseHex(AGENT_INFO_REQUEST));
      byte[] reply = read(c, 8 + 11);
      assertEquals(
          "0000000a" + "0000000b" + HEX.formatHex("{\"bizid\":9}".getBytes(StandardCharsets.UTF_8)),
          HEX.formatHex(reply));
      assertEquals(1, agent.infoRequests());
      assertEquals(24, agent.bytes());
    }
  }

  @Test
  void strictModeRejectsABodyThatIsNotBkCollectorsDocument() throws Exception {
    try (GseAgent agent = GseAgent.unix(dir.resolve("s.sock"));
        SocketChannel c = connect(agent)) {
      write(c, HEX.parseHex(COMMON));
      agent.await("a violation", () -> agent.violationCount() == 1, 10_000);
      assertEquals(
          List.of("connection 1: body members [a], expected " + BkCollectorDocument.BODY_KEYS),
          agent.violations());
      assertEquals(0, agent.dataFrames());
    }
  }

  private static byte[] common(int dataId, long utc, String json) {
    byte[] body = json.getBytes(StandardCharsets.UTF_8);
    ByteBuffer b = ByteBuffer.allocate(24 + body.length);
    b.putInt(0x0C01)
        .putInt(dataId)
        .putInt((int) utc)
        .putInt(body.length)
        .putInt(0)
        .putInt(0)
        .put(body);
    return b.array();
  }

  private static String document(int dataId, long time, int items) {
    StringBuilder s =
        new StringBuilder(
            "{\"bizid\":0,\"bk_agent_id\":\"\",\"bk_biz_id\":0,\"bk_host_id\":0,"
                + "\"cloudid\":0,\"dataid\":"
                + dataId
                + ",\"datetime\":\"2026-11-21 10:00:00\",\"gseindex\":1,"
                + "\"hostname\":\"h\",\"ip\":\"\",\"items\":[");
    for (int i = 0; i < items; i++) {
      s.append(i > 0 ? "," : "")
          .append("{\"data\":\"r")
          .append(i)
          .append("\",\"iterationindex\":")
          .append(i)
          .append('}');
    }
    return s.append("],\"time\":")
        .append(time)
        .append(",\"utctime\":\"2026-11-21 02:00:00\"}")
        .toString();
  }

  @Test
  void strictModeRecordsAWellFormedDocumentAndCountsItsItems() throws Exception {
    try (GseAgent agent = GseAgent.unix(dir.resolve("d.sock"));
        SocketChannel c = connect(agent)) {
      write(c, common(1500001, 1795000000L, document(1500001, 1795000000L, 3)));
      agent.awaitRecords(3, 10_000);
      GseFrame f = agent.frames().get(0);
      assertEquals(List.of("r0", "r1", "r2"), f.data());
      assertEquals(1500001L, f.document().get("dataid"));
      write(c, common(1500001, 1795000000L, document(1500002, 1795000000L, 1)));
      agent.await("a violation", () -> agent.violationCount() == 1, 10_000);
      assertEquals(
          List.of("connection 1: header dataid 1500001 != body dataid 1500002"),
          agent.violations());
    }
  }

  @Test
  void countingModeCountsItemsWithoutKeepingFrames() throws Exception {
    try (GseAgent agent = GseAgent.unix(dir.resolve("c.sock"), GseAgent.Mode.COUNTING);
        SocketChannel c = connect(agent)) {
      for (int i = 1; i <= 4; i++) {
        write(c, common(1500001, 1795000000L, document(1500001, 1795000000L, i)));
      }
      agent.awaitRecords(10, 10_000);
      assertEquals(4, agent.dataFrames());
      assertEquals(List.of(), agent.frames());
      write(c, common(7, 1795000000L, document(1500001, 1795000000L, 1)));
      agent.await("a violation", () -> agent.violationCount() == 1, 10_000);
      assertTrue(
          agent.violations().get(0).contains("header dataid 7 does not match"),
          agent.violations().get(0));
    }
  }

  @Test
  void malformedFramingIsAViolationThatEndsTheConnection() throws Exception {
    try (GseAgent agent = GseAgent.unix(dir.resolve("m.sock"), GseAgent.Mode.FRAMING);
        SocketChannel c = connect(agent)) {
      byte[] bad = HEX.parseHex(COMMON);
      bad[23] = 1; // resv1
      write(c, bad);
      agent.await("a violation", () -> agent.violationCount() == 1, 10_000);
      assertEquals(List.of("connection 1: resv0/resv1 not zero: 0/1"), agent.violations());
      agent.awaitAllConnectionsEnded(10_000);
      int n;
      try {
        n = c.read(ByteBuffer.allocate(1));
      } catch (IOException reset) {
        n = -1; // closed with our bytes unread: a reset
      }
      assertEquals(-1, n, "the agent closed the connection");
    }
  }

  @Test
  void aKilledAgentCountsTheFrameItCutShortAndRestartsOnTheSamePath() throws Exception {
    try (GseAgent agent = GseAgent.unix(dir.resolve("k.sock"), GseAgent.Mode.FRAMING)) {
      agent.killAfterFrames(1, 3); // the second frame: its header and 3 of its 7 body bytes
      try (SocketChannel c = connect(agent)) {
        write(c, HEX.parseHex(COMMON));
        write(c, HEX.parseHex(COMMON));
        agent.await("a truncated frame", () -> agent.truncatedFrames() == 1, 10_000);
      }
      assertEquals(1, agent.dataFrames());
      agent.start();
      try (SocketChannel c = connect(agent)) {
        write(c, HEX.parseHex(COMMON));
        agent.await("a second frame", () -> agent.dataFrames() == 2, 10_000);
      }
      assertEquals(2, agent.connections());
    }
  }

  /**
   * Once {@link GseAgent#kill()} returns, a client's write on a connection the agent had open
   * fails: the kill is complete, not pending until the connection's reader thread leaves its
   * blocking read (the kernel keeps a socket that a thread is reading alive after its descriptor is
   * closed, so a write in that window would be accepted and then lost, and a producer would count
   * it as sent). Repeated, because the window is short on a quiet machine.
   */
  @Test
  void aWriteAfterKillReturnsFailsOnTheConnectionTheAgentHadOpen() throws Exception {
    // a new agent each round: a restarted one on the same path can lose a connection to the old
    // accept thread on junixsocket (its closed server's descriptor reused), a separate matter
    for (int i = 1; i <= 200; i++) {
      try (GseAgent agent = GseAgent.unix(dir.resolve("w" + i + ".sock"), GseAgent.Mode.FRAMING);
          SocketChannel c = connect(agent)) {
        write(c, HEX.parseHex(COMMON));
        agent.await("frame " + i, () -> agent.dataFrames() == 1, 10_000);
        agent.kill();
        int round = i;
        assertThrows(
            IOException.class,
            () -> write(c, HEX.parseHex(COMMON)),
            () -> "round " + round + ": a frame written after kill() returned was accepted");
      }
    }
  }

  @Test
  void junixsocketServesTheSameSocketAsTheJdk() throws Exception {
    assumeTrue(
        UnixServerChannels.preferred() == UnixServerChannels.Impl.JDK,
        "JDK "
            + Runtime.version().feature()
            + " has no Unix-domain channels of its own (Java 16+)");
    Path path = dir.resolve("j.sock");
    try (java.nio.channels.ServerSocketChannel s =
            UnixServerChannels.bind(path, UnixServerChannels.Impl.JUNIXSOCKET);
        SocketChannel client = openUnix(path, UnixServerChannels.Impl.JDK)) {
      try (SocketChannel accepted = s.accept()) {
        write(client, HEX.parseHex(AGENT_INFO_REQUEST));
        assertEquals(AGENT_INFO_REQUEST, HEX.formatHex(read(accepted, 24)));
      }
    }
  }

  /** {@code java.util.HexFormat.of()} of Java 17, for the Java 11 test runs. */
  private static final class Hex {
    /** {@code HexFormat.of().parseHex} of Java 17, for the Java 11 test runs. */
    byte[] parseHex(String hex) {
      byte[] out = new byte[hex.length() / 2];
      for (int i = 0; i < out.length; i++) {
        out[i] = (byte) Integer.parseInt(hex.substring(2 * i, 2 * i + 2), 16);
      }
      return out;
    }

    /** {@code HexFormat.of().formatHex} of Java 17, for the Java 11 test runs. */
    String formatHex(byte[] bytes) {
      StringBuilder sb = new StringBuilder(bytes.length * 2);
      for (byte b : bytes) {
        sb.append(Character.forDigit((b >> 4) & 0xf, 16)).append(Character.forDigit(b & 0xf, 16));
      }
      return sb.toString();
    }
  }
}
