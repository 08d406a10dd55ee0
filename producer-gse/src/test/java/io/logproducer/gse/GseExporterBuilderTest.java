package io.logproducer.gse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.Compression;
import org.junit.jupiter.api.Test;

/** Every default, and every validation message, exactly. */
class GseExporterBuilderTest {

  @Test
  void defaults() {
    assertEquals("/var/run/ipc.state.report", GseExporter.DEFAULT_UNIX_SOCKET_PATH);
    assertEquals("127.0.0.1", GseExporter.DEFAULT_TCP_HOST);
    assertEquals(47000, GseExporter.DEFAULT_TCP_PORT);
    assertEquals(10 * 1024 * 1024, GseExporter.DEFAULT_MAX_FRAME_BODY_BYTES);
    assertEquals(5_000L, GseExporter.DEFAULT_WRITE_TIMEOUT_MILLIS);
    assertEquals(5_000L, GseExporter.DEFAULT_CONNECT_TIMEOUT_MILLIS);
    assertEquals(31_000L, GseExporter.DEFAULT_AGENT_INFO_INTERVAL_MILLIS);
    assertEquals(5_000L, GseExporter.DEFAULT_AGENT_INFO_TIMEOUT_MILLIS);
    assertEquals(0, GseExporter.DEFAULT_SOCKET_SEND_BUFFER_BYTES);
    assertEquals(1, GseExporter.DEFAULT_STRIPES_PER_DATA_ID);

    GseExporterBuilder b = GseExporter.builder();
    assertEquals(null, b.unixSocketPath);
    assertEquals(null, b.tcpHost);
    assertEquals(0, b.dataId);
    assertEquals(GseExporter.FrameType.DYNAMIC, b.frameType);
    assertEquals(GseExporter.ItemFormat.RECORD_JSON, b.itemFormat);
    assertEquals(GseExporter.DEFAULT_MAX_FRAME_BODY_BYTES, b.maxFrameBodyBytes);
    assertEquals(GseExporter.DEFAULT_WRITE_TIMEOUT_MILLIS, b.writeTimeoutMillis);
    assertEquals(GseExporter.DEFAULT_CONNECT_TIMEOUT_MILLIS, b.connectTimeoutMillis);
    assertEquals(GseExporter.DEFAULT_AGENT_INFO_INTERVAL_MILLIS, b.agentInfoIntervalMillis);
    assertEquals(GseExporter.DEFAULT_AGENT_INFO_TIMEOUT_MILLIS, b.agentInfoTimeoutMillis);
    assertEquals(GseExporter.DEFAULT_SOCKET_SEND_BUFFER_BYTES, b.socketSendBufferBytes);
    assertEquals(GseExporter.DEFAULT_STRIPES_PER_DATA_ID, b.stripesPerDataId);
    assertTrue(b.meta.isEmpty());
    assertTrue(b.resource.isEmpty());

    GseExporter e = b.build();
    assertEquals(
        GseExporterBuilder.isWindows() ? "tcp:127.0.0.1:47000" : "unix:/var/run/ipc.state.report",
        e.endpoint().describe());
    assertEquals(Compression.NONE, e.capabilities().defaultCompression());
    assertTrue(e.capabilities().supports(Compression.NONE));
    for (Compression c : new Compression[] {Compression.GZIP, Compression.LZ4, Compression.ZSTD}) {
      assertTrue(!e.capabilities().supports(c), c.toString());
    }
    assertEquals(10 * 1024 * 1024 - 1 - 2048 - 29, e.maxBatchSizeInBytes());
    assertEquals(
        "GSE agent "
            + e.endpoint().describe()
            + " (dynamic frames, RECORD_JSON items, default dataid none, "
            + "1 stripe(s) per dataid)",
        e.describe());
    assertEquals("gse", e.name());
  }

  private static void refused(String message, Executable call) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call::run);
    assertEquals(message, e.getMessage());
  }

  /** A call that may throw. */
  interface Executable {
    void run();
  }

  @Test
  void validationMessagesNameTheParameterAndTheBound() {
    GseExporterBuilder b = GseExporter.builder();
    refused(
        "maxFrameBodyBytes must be in [1024, 67108864], was 5", () -> b.setMaxFrameBodyBytes(5));
    refused(
        "maxFrameBodyBytes must be in [1024, 67108864], was 67108865",
        () -> b.setMaxFrameBodyBytes(67108865));
    refused("dataId must be in [1, 2147483647], was 0", () -> b.setDataId(0));
    refused("dataId must be in [1, 2147483647], was -3", () -> b.setDataId(-3));
    refused("tcpPort must be in [1, 65535], was 0", () -> b.setTcpEndpoint("127.0.0.1", 0));
    refused("tcpPort must be in [1, 65535], was 65536", () -> b.setTcpEndpoint("127.0.0.1", 65536));
    refused("tcpHost must not be empty", () -> b.setTcpEndpoint("", 1));
    refused("unixSocketPath must not be empty", () -> b.setUnixSocketPath(""));
    refused("writeTimeoutMillis must be in [1, 3600000], was 0", () -> b.setWriteTimeoutMillis(0));
    refused(
        "connectTimeoutMillis must be in [1, 600000], was 600001",
        () -> b.setConnectTimeoutMillis(600_001));
    refused(
        "agentInfoIntervalMillis must be in [1000, 86400000], was 999",
        () -> b.setAgentInfoIntervalMillis(999));
    refused(
        "agentInfoTimeoutMillis must be in [0, 600000], was -1",
        () -> b.setAgentInfoTimeoutMillis(-1));
    refused(
        "socketSendBufferBytes must be in [0, 67108864], was -1",
        () -> b.setSocketSendBufferBytes(-1));
    refused("stripesPerDataId must be in [1, 1024], was 0", () -> b.setStripesPerDataId(0));
    refused("stripesPerDataId must be in [1, 1024], was 1025", () -> b.setStripesPerDataId(1025));
    refused("ip must not be null", () -> b.setIp(null));
    refused(
        "hostname must be at most 255 characters, was 256", () -> b.setHostname("h".repeat(256)));
    refused("meta key must not be empty", () -> b.addMeta("", "v"));
    refused("meta value for 'tag' must not be null", () -> b.addMeta("tag", null));
    refused("frameType must not be null", () -> b.setFrameType(null));
    refused("itemFormat must not be null", () -> b.setItemFormat(null));
    refused(
        "resource attribute 'k' value must not be null",
        () -> b.setResourceAttribute("k", (String) null));
    b.addMeta("tag", "v".repeat(400 - 3));
    refused(
        "meta entries must fit metaMaxLen 408 bytes (8 + key bytes + value bytes each), was 417",
        () -> b.addMeta("k", ""));
    refused(
        "meta entries need frameType DYNAMIC; common frames have no meta area",
        () -> b.setFrameType(GseExporter.FrameType.COMMON).build());
  }

  @Test
  void boundsAreInclusive() {
    GseExporterBuilder b =
        GseExporter.builder()
            .setMaxFrameBodyBytes(1024)
            .setMaxFrameBodyBytes(67108864)
            .setDataId(1)
            .setDataId(Integer.MAX_VALUE)
            .setTcpEndpoint("h", 1)
            .setTcpEndpoint("h", 65535)
            .setWriteTimeoutMillis(1)
            .setAgentInfoIntervalMillis(1000)
            .setAgentInfoTimeoutMillis(0)
            .setSocketSendBufferBytes(0);
    assertEquals("tcp:h:65535", b.build().endpoint().describe());
    GseExporter tiny =
        GseExporter.builder().setMaxFrameBodyBytes(1024).setTcpEndpoint("h", 1).build();
    assertEquals(
        1024 - 1 - 512 - 29,
        tiny.maxBatchSizeInBytes(),
        "the envelope reserve halves for tiny frames");
  }

  @Test
  void theUnixSocketImplementationCanBeForcedByASystemProperty() {
    String old = System.getProperty(GseExporterBuilder.UNIX_IMPL_PROPERTY);
    try {
      System.setProperty(GseExporterBuilder.UNIX_IMPL_PROPERTY, "nope");
      refused(
          "io.logproducer.gse.unixSocketImpl must be jdk or junixsocket, was 'nope'",
          () -> GseExporter.builder().setUnixSocketPath("/tmp/x").build());
      System.setProperty(GseExporterBuilder.UNIX_IMPL_PROPERTY, "junixsocket");
      assertEquals(
          "unix:/tmp/x",
          GseExporter.builder().setUnixSocketPath("/tmp/x").build().endpoint().describe());
    } finally {
      if (old == null) {
        System.clearProperty(GseExporterBuilder.UNIX_IMPL_PROPERTY);
      } else {
        System.setProperty(GseExporterBuilder.UNIX_IMPL_PROPERTY, old);
      }
    }
  }

  @Test
  void nullArgumentsGetANamedIllegalArgumentExceptionNeverANullPointerException() throws Exception {
    java.util.List<String> checked =
        io.logproducer.testing.NullArguments.callEachWithNulls(
            GseExporterBuilder.class, GseExporter::builder);
    assertTrue(checked.size() >= 5, String.join("\n", checked));
  }
}
