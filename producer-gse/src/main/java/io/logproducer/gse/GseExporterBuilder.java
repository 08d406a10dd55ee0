package io.logproducer.gse;

import io.logproducer.AnyValue;
import io.logproducer.gse.internal.Endpoint;
import io.logproducer.gse.internal.GseProtocol;
import java.time.Duration;
import java.time.ZoneId;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Builds a {@link GseExporter}. Every setter validates at once and throws {@link
 * IllegalArgumentException} naming the parameter, its bounds and the rejected value, e.g.
 * "maxFrameBodyBytes must be in [1024, 67108864], was 5". Not thread-safe; {@link #build()} may be
 * called more than once.
 *
 * <pre>{@code
 * GseExporter exporter = GseExporter.builder()
 *     .setDataId(1500001)                              // required unless every record has a destination
 *     .setUnixSocketPath("/var/run/ipc.state.report")  // the default on Linux/Unix
 *     .build();
 * }</pre>
 */
public final class GseExporterBuilder {

  static final String UNIX_IMPL_PROPERTY = "io.logproducer.gse.unixSocketImpl";

  String unixSocketPath;
  String tcpHost;
  int tcpPort;
  int dataId;
  GseExporter.FrameType frameType = GseExporter.FrameType.DYNAMIC;
  final List<Map.Entry<String, String>> meta = new ArrayList<>();
  GseExporter.ItemFormat itemFormat = GseExporter.ItemFormat.RECORD_JSON;
  int maxFrameBodyBytes = GseExporter.DEFAULT_MAX_FRAME_BODY_BYTES;
  long writeTimeoutMillis = GseExporter.DEFAULT_WRITE_TIMEOUT_MILLIS;
  long connectTimeoutMillis = GseExporter.DEFAULT_CONNECT_TIMEOUT_MILLIS;
  long agentInfoIntervalMillis = GseExporter.DEFAULT_AGENT_INFO_INTERVAL_MILLIS;
  long agentInfoTimeoutMillis = GseExporter.DEFAULT_AGENT_INFO_TIMEOUT_MILLIS;
  int socketSendBufferBytes = GseExporter.DEFAULT_SOCKET_SEND_BUFFER_BYTES;
  int stripesPerDataId = GseExporter.DEFAULT_STRIPES_PER_DATA_ID;
  Integer bizId;
  Integer bkBizId;
  Integer cloudId;
  String ip;
  String hostname;
  String bkAgentId;
  Integer bkHostId;
  final Map<String, AnyValue> resource = new LinkedHashMap<>();
  // Test hooks (package-private).
  LongSupplier clockMillis = System::currentTimeMillis;
  ZoneId zone;
  Endpoint.UnixImpl unixImpl;

  GseExporterBuilder() {}

  /**
   * Connect to the agent's Unix-domain stream socket at {@code path} (and not over TCP). The path
   * varies per install: {@value GseExporter#DEFAULT_UNIX_SOCKET_PATH} (bk-collector and
   * bkunifylogbeat docs, the default here), {@code /usr/local/gse/gseagent/ipc.state.report},
   * {@code /var/run/gse2/agent/ipc.state.report}, {@code /data/ipc/ipc.state.report} (containers).
   * Not {@code ipc.state.message}, which is for plugin messages.
   *
   * @param path the socket file's path
   * @return this builder
   * @throws IllegalArgumentException if {@code path} is null or empty
   */
  public GseExporterBuilder setUnixSocketPath(String path) {
    if (path == null || path.isEmpty()) {
      throw new IllegalArgumentException("unixSocketPath must not be empty");
    }
    this.unixSocketPath = path;
    this.tcpHost = null;
    return this;
  }

  /**
   * Connect over TCP to {@code host:port} (and not to a Unix socket): the agent's transport on
   * Windows, by default {@value GseExporter#DEFAULT_TCP_HOST}:{@value
   * GseExporter#DEFAULT_TCP_PORT}.
   *
   * @param host the agent's host name or IP address
   * @param port the agent's TCP port, in [1, 65535]
   * @return this builder
   * @throws IllegalArgumentException if {@code host} is empty or {@code port} is outside [1, 65535]
   */
  public GseExporterBuilder setTcpEndpoint(String host, int port) {
    if (host == null || host.isEmpty()) {
      throw new IllegalArgumentException("tcpHost must not be empty");
    }
    checkRange("tcpPort", port, 1, 65535);
    this.tcpHost = host;
    this.tcpPort = port;
    this.unixSocketPath = null;
    return this;
  }

  /**
   * The dataid of records whose {@link io.logproducer.LogRecord#getDestination() destination} is
   * null: the GSE channel the agent routes their frames by. No default: without it, every record
   * must carry a destination.
   *
   * @param dataId in [1, 2147483647] (libgse refuses dataids &lt;= 0 and carries them as int32)
   * @return this builder
   * @throws IllegalArgumentException if outside that range
   */
  public GseExporterBuilder setDataId(int dataId) {
    this.dataId = (int) checkRange("dataId", dataId, 1, Integer.MAX_VALUE);
    return this;
  }

  /**
   * The frame type.
   *
   * @param frameType the frame type; default {@link GseExporter.FrameType#DYNAMIC}, what
   *     bk-collector sends
   * @return this builder
   * @throws IllegalArgumentException if null
   */
  public GseExporterBuilder setFrameType(GseExporter.FrameType frameType) {
    if (frameType == null) {
      throw new IllegalArgumentException("frameType must not be null");
    }
    this.frameType = frameType;
    return this;
  }

  /**
   * Adds a meta entry to every dynamic frame (the GSE server extracts and strips the one named
   * {@code tag}). Entries take {@code 8 + key bytes + value bytes} (UTF-8) each, in a meta area of
   * {@value GseProtocol#META_MAX_LEN} bytes. Only for {@link GseExporter.FrameType#DYNAMIC} frames
   * (checked by {@link #build()}).
   *
   * @param key the entry's name, non-empty
   * @param value the entry's value, not null
   * @return this builder
   * @throws IllegalArgumentException if the key is empty, the value null, or the entries no longer
   *     fit
   */
  public GseExporterBuilder addMeta(String key, String value) {
    if (key == null || key.isEmpty()) {
      throw new IllegalArgumentException("meta key must not be empty");
    }
    if (value == null) {
      throw new IllegalArgumentException("meta value for '" + key + "' must not be null");
    }
    List<Map.Entry<String, String>> next = new ArrayList<>(meta);
    next.add(new AbstractMap.SimpleImmutableEntry<>(key, value));
    int need = GseProtocol.Meta.encodedLength(next);
    if (need > GseProtocol.META_MAX_LEN) {
      throw new IllegalArgumentException(
          "meta entries must fit metaMaxLen "
              + GseProtocol.META_MAX_LEN
              + " bytes (8 + key bytes + value bytes each), was "
              + need);
    }
    meta.add(next.get(next.size() - 1));
    return this;
  }

  /**
   * What each item's {@code data} holds.
   *
   * @param itemFormat the format; default {@link GseExporter.ItemFormat#RECORD_JSON}
   * @return this builder
   * @throws IllegalArgumentException if null
   */
  public GseExporterBuilder setItemFormat(GseExporter.ItemFormat itemFormat) {
    if (itemFormat == null) {
      throw new IllegalArgumentException("itemFormat must not be null");
    }
    this.itemFormat = itemFormat;
    return this;
  }

  /**
   * A frame's JSON body is kept strictly below this many bytes (bk-collector refuses bodies of 10
   * MiB or more, {@code max_message_bytes}; the GSE server refuses bodies over 64 MiB). Batches
   * whose frame would be larger are split by the producer.
   *
   * @param maxFrameBodyBytes bytes, in [1024, 67108864]; default {@value
   *     GseExporter#DEFAULT_MAX_FRAME_BODY_BYTES}
   * @return this builder
   * @throws IllegalArgumentException if outside that range
   */
  public GseExporterBuilder setMaxFrameBodyBytes(int maxFrameBodyBytes) {
    this.maxFrameBodyBytes =
        (int)
            checkRange(
                "maxFrameBodyBytes", maxFrameBodyBytes, 1024, GseProtocol.SERVER_MAX_BODY_BYTES);
    return this;
  }

  /**
   * How long a frame write may make no progress (the agent not reading) before the connection is
   * closed and the whole frame is re-sent on a new one.
   *
   * @param writeTimeoutMillis milliseconds, in [1, 3600000]; default {@value
   *     GseExporter#DEFAULT_WRITE_TIMEOUT_MILLIS} (libgse's write timeout)
   * @return this builder
   * @throws IllegalArgumentException if outside that range
   */
  public GseExporterBuilder setWriteTimeoutMillis(long writeTimeoutMillis) {
    this.writeTimeoutMillis = checkRange("writeTimeoutMillis", writeTimeoutMillis, 1, 3_600_000);
    return this;
  }

  /**
   * Convenience for {@link #setWriteTimeoutMillis(long)}.
   *
   * @param writeTimeout the timeout, truncated to whole milliseconds; not null
   * @return this builder
   * @throws IllegalArgumentException if {@code writeTimeout} is null or outside the range of {@link
   *     #setWriteTimeoutMillis(long)}
   */
  public GseExporterBuilder setWriteTimeout(Duration writeTimeout) {
    if (writeTimeout == null) {
      throw new IllegalArgumentException("writeTimeout must not be null");
    }
    return setWriteTimeoutMillis(writeTimeout.toMillis());
  }

  /**
   * How long one connection attempt may take.
   *
   * @param connectTimeoutMillis milliseconds, in [1, 600000]; default {@value
   *     GseExporter#DEFAULT_CONNECT_TIMEOUT_MILLIS}
   * @return this builder
   * @throws IllegalArgumentException if outside that range
   */
  public GseExporterBuilder setConnectTimeoutMillis(long connectTimeoutMillis) {
    this.connectTimeoutMillis =
        checkRange("connectTimeoutMillis", connectTimeoutMillis, 1, 600_000);
    return this;
  }

  /**
   * How often the agent-info request is re-sent on a live connection (it also probes an idle one).
   *
   * @param agentInfoIntervalMillis milliseconds, in [1000, 86400000]; default {@value
   *     GseExporter#DEFAULT_AGENT_INFO_INTERVAL_MILLIS} (libgse's interval)
   * @return this builder
   * @throws IllegalArgumentException if outside that range
   */
  public GseExporterBuilder setAgentInfoIntervalMillis(long agentInfoIntervalMillis) {
    this.agentInfoIntervalMillis =
        checkRange("agentInfoIntervalMillis", agentInfoIntervalMillis, 1000, 86_400_000);
    return this;
  }

  /**
   * How long the first data frame waits for the agent's first agent-info reply, so that its attach
   * fields are filled; frames go out with what is known after that. Not waited for when every
   * attach field is configured.
   *
   * @param agentInfoTimeoutMillis milliseconds, in [0, 600000]; default {@value
   *     GseExporter#DEFAULT_AGENT_INFO_TIMEOUT_MILLIS}
   * @return this builder
   * @throws IllegalArgumentException if outside that range
   */
  public GseExporterBuilder setAgentInfoTimeoutMillis(long agentInfoTimeoutMillis) {
    this.agentInfoTimeoutMillis =
        checkRange("agentInfoTimeoutMillis", agentInfoTimeoutMillis, 0, 600_000);
    return this;
  }

  /**
   * The socket's send buffer (SO_SNDBUF), 0 for the system default. Bytes written to the socket
   * count as delivered; if the agent dies, what it had not read yet is lost, so a smaller buffer
   * loses less, at some cost in throughput.
   *
   * @param socketSendBufferBytes bytes, in [0, 67108864]; default {@value
   *     GseExporter#DEFAULT_SOCKET_SEND_BUFFER_BYTES}
   * @return this builder
   * @throws IllegalArgumentException if outside that range
   */
  public GseExporterBuilder setSocketSendBufferBytes(int socketSendBufferBytes) {
    this.socketSendBufferBytes =
        (int) checkRange("socketSendBufferBytes", socketSendBufferBytes, 0, 64 << 20);
    return this;
  }

  /**
   * Shards (open batches) per dataid, chosen by the calling thread's id. With 1 (the default) each
   * dataid is one shard: all threads sending to it append under one lock, into one open batch,
   * giving the fewest and fullest frames. More stripes spread many application threads on many
   * cores over more locks; every frame still carries one dataid. (On the 2-core test machine, 10
   * threads made no measurable difference between 1, 2 and 8.)
   *
   * @param stripesPerDataId in [1, 1024]; default {@value GseExporter#DEFAULT_STRIPES_PER_DATA_ID}
   * @return this builder
   * @throws IllegalArgumentException if outside that range
   */
  public GseExporterBuilder setStripesPerDataId(int stripesPerDataId) {
    this.stripesPerDataId = (int) checkRange("stripesPerDataId", stripesPerDataId, 1, 1024);
    return this;
  }

  /**
   * Attach field {@code bizid} of every frame's body; overrides the agent's.
   *
   * @param bizId the value, written as a JSON number
   * @return this builder
   */
  public GseExporterBuilder setBizId(int bizId) {
    this.bizId = bizId;
    return this;
  }

  /**
   * Attach field {@code bk_biz_id} of every frame's body; overrides the agent's.
   *
   * @param bkBizId the value, written as a JSON number
   * @return this builder
   */
  public GseExporterBuilder setBkBizId(int bkBizId) {
    this.bkBizId = bkBizId;
    return this;
  }

  /**
   * Attach field {@code cloudid} of every frame's body; overrides the agent's.
   *
   * @param cloudId the value, written as a JSON number
   * @return this builder
   */
  public GseExporterBuilder setCloudId(int cloudId) {
    this.cloudId = cloudId;
    return this;
  }

  /**
   * Attach field {@code bk_host_id} of every frame's body; overrides the agent's.
   *
   * @param bkHostId the value, written as a JSON number
   * @return this builder
   */
  public GseExporterBuilder setBkHostId(int bkHostId) {
    this.bkHostId = bkHostId;
    return this;
  }

  /**
   * Attach field {@code ip} of every frame's body; overrides the agent's.
   *
   * @param ip the value, at most 255 characters
   * @return this builder
   * @throws IllegalArgumentException if null or longer than 255 characters
   */
  public GseExporterBuilder setIp(String ip) {
    this.ip = checkText("ip", ip);
    return this;
  }

  /**
   * Attach field {@code hostname} of every frame's body; overrides the agent's and the local host
   * name.
   *
   * @param hostname the value, at most 255 characters
   * @return this builder
   * @throws IllegalArgumentException if null or longer than 255 characters
   */
  public GseExporterBuilder setHostname(String hostname) {
    this.hostname = checkText("hostname", hostname);
    return this;
  }

  /**
   * Attach field {@code bk_agent_id} of every frame's body; overrides the agent's.
   *
   * @param bkAgentId the value, at most 255 characters
   * @return this builder
   * @throws IllegalArgumentException if null or longer than 255 characters
   */
  public GseExporterBuilder setBkAgentId(String bkAgentId) {
    this.bkAgentId = checkText("bkAgentId", bkAgentId);
    return this;
  }

  /**
   * A resource attribute, written into every record's {@code resource} object ({@link
   * GseExporter.ItemFormat#RECORD_JSON} only), e.g. {@code service.name}; replaces one with the
   * same key.
   *
   * @param key the attribute key
   * @param value the value
   * @return this builder
   * @throws IllegalArgumentException if the key or value is null
   */
  public GseExporterBuilder setResourceAttribute(String key, AnyValue value) {
    if (key == null) {
      throw new IllegalArgumentException("resource attribute key must not be null");
    }
    if (value == null) {
      throw new IllegalArgumentException("resource attribute '" + key + "' value must not be null");
    }
    resource.put(key, value);
    return this;
  }

  /**
   * A string resource attribute; see {@link #setResourceAttribute(String, AnyValue)}.
   *
   * @param key the attribute key
   * @param value the value
   * @return this builder
   * @throws IllegalArgumentException if the key or value is null
   */
  public GseExporterBuilder setResourceAttribute(String key, String value) {
    if (value == null) {
      throw new IllegalArgumentException("resource attribute '" + key + "' value must not be null");
    }
    return setResourceAttribute(key, AnyValue.of(value));
  }

  /** Test hook: the wall clock (ms since the epoch) frames are stamped with. */
  GseExporterBuilder setClock(LongSupplier clockMillis) {
    this.clockMillis = clockMillis;
    return this;
  }

  /** Test hook: the zone of {@code datetime}; default the system's. */
  GseExporterBuilder setZone(ZoneId zone) {
    this.zone = zone;
    return this;
  }

  /** Test hook: force the JDK's or junixsocket's Unix-domain sockets. */
  GseExporterBuilder setUnixImpl(Endpoint.UnixImpl unixImpl) {
    this.unixImpl = unixImpl;
    return this;
  }

  /**
   * A new exporter; it connects when a producer starts it.
   *
   * @return the exporter, for one producer
   * @throws IllegalArgumentException if meta entries are set for common frames
   * @throws IllegalStateException if a Unix socket is to be used but neither Java 16+ nor
   *     junixsocket is available
   */
  public GseExporter build() {
    if (frameType == GseExporter.FrameType.COMMON && !meta.isEmpty()) {
      throw new IllegalArgumentException(
          "meta entries need frameType DYNAMIC; common frames have no meta area");
    }
    Endpoint endpoint;
    if (tcpHost != null) {
      endpoint = Endpoint.tcp(tcpHost, tcpPort);
    } else if (unixSocketPath != null) {
      endpoint = Endpoint.unix(unixSocketPath, resolveUnixImpl());
    } else if (isWindows()) {
      endpoint = Endpoint.tcp(GseExporter.DEFAULT_TCP_HOST, GseExporter.DEFAULT_TCP_PORT);
    } else {
      endpoint = Endpoint.unix(GseExporter.DEFAULT_UNIX_SOCKET_PATH, resolveUnixImpl());
    }
    return new GseExporter(this, endpoint);
  }

  private Endpoint.UnixImpl resolveUnixImpl() {
    if (unixImpl != null) {
      return unixImpl;
    }
    String forced = System.getProperty(UNIX_IMPL_PROPERTY);
    if (forced == null || forced.isEmpty()) {
      return null;
    }
    try {
      return Endpoint.UnixImpl.valueOf(forced.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          UNIX_IMPL_PROPERTY + " must be jdk or junixsocket, was '" + forced + "'");
    }
  }

  static boolean isWindows() {
    return System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("windows");
  }

  private static long checkRange(String name, long value, long min, long max) {
    if (value < min || value > max) {
      throw new IllegalArgumentException(
          name + " must be in [" + min + ", " + max + "], was " + value);
    }
    return value;
  }

  private static String checkText(String name, String value) {
    if (value == null) {
      throw new IllegalArgumentException(name + " must not be null");
    }
    if (value.length() > 255) {
      throw new IllegalArgumentException(
          name + " must be at most 255 characters, was " + value.length());
    }
    return value;
  }
}
