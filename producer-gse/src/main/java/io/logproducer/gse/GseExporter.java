package io.logproducer.gse;

import io.logproducer.Compression;
import io.logproducer.LogRecord;
import io.logproducer.ProducerConfig;
import io.logproducer.gse.internal.AgentInfo;
import io.logproducer.gse.internal.DataIds;
import io.logproducer.gse.internal.Endpoint;
import io.logproducer.gse.internal.Envelope;
import io.logproducer.gse.internal.GseProtocol;
import io.logproducer.gse.internal.GseTransport;
import io.logproducer.gse.internal.ItemEncoders;
import io.logproducer.gse.internal.LocalHost;
import io.logproducer.gse.internal.TransportSettings;
import io.logproducer.spi.Batch;
import io.logproducer.spi.ExportResult;
import io.logproducer.spi.Exporter;
import io.logproducer.spi.ExporterCapabilities;
import io.logproducer.spi.RecordEncoder;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.ZoneId;
import java.util.LinkedHashMap;

/**
 * Ships records to a Tencent BlueKing GSE agent through its local data socket, byte-compatible with
 * what bk-collector and bkunifylogbeat send: one JSON document per frame, one frame per batch, one
 * dataid per frame.
 *
 * <pre>{@code
 * try (Producer producer = new Producer(ProducerConfig.defaults(),
 *     GseExporter.builder().setDataId(1500001).build())) {
 *   producer.send(LogRecord.builder().setSeverity(Severity.INFO).setBody("hello").build());
 * }
 * }</pre>
 *
 * <p><b>Transport.</b> One persistent connection to a Unix-domain stream socket (default {@value
 * #DEFAULT_UNIX_SOCKET_PATH}) or, on Windows or when configured, TCP (default {@value
 * #DEFAULT_TCP_HOST}: {@value #DEFAULT_TCP_PORT}). On Java 16+ the JDK's own Unix-domain channels
 * are used; on Java 8–15 junixsocket, which must then be on the class path ({@code
 * com.kohlschutter.junixsocket:junixsocket-core}, type pom). The agent does not acknowledge data,
 * so a record counts as delivered when its whole frame was written to the socket. Frames never
 * interleave; a write that fails or makes no progress for {@code writeTimeoutMillis} closes the
 * connection and the whole frame is retried on a new one by the producer's retry policy (no silent
 * drop). While the agent is unreachable, records wait in the producer's buffer until it is, or fail
 * after {@code deliveryTimeoutMillis}.
 *
 * <p><b>Frames</b> (libgse {@code gsetype.go}; our encoders are checked byte for byte against
 * frames libgse produced): dynamic (0x09, default; header, 24-byte extension, 408-byte meta area
 * with optional entries such as {@code tag}) or common (0x0C01); big-endian; the header's {@code
 * utctime} is in seconds.
 *
 * <p><b>Body</b> (bk-collector {@code exporter/queue/queue.go}, libgse {@code output/gse/gse.go}):
 * {@code dataid}, {@code datetime}, {@code utctime}, {@code time}, {@code items[{data,
 * iterationindex}]} and the agent's attach fields {@code bizid, bk_biz_id, cloudid, ip, hostname,
 * bk_agent_id, bk_host_id, gseindex}, from the agent-info reply (queried on connect and every
 * {@code agentInfoIntervalMillis}); configured values win. Each item's {@code data} is the record
 * as bk-collector's JSON ({@link ItemFormat#RECORD_JSON}) or its body line ({@link
 * ItemFormat#BODY}). A frame's body stays below {@code maxFrameBodyBytes}.
 *
 * <p><b>dataid</b>: the exporter's {@link GseExporterBuilder#setDataId(int) default}, or per record
 * its {@link LogRecord#getDestination() destination} as a decimal string. Each dataid is its own
 * shard (or, optionally, a few stripes of shards chosen by the calling thread): a frame never mixes
 * dataids.
 *
 * <p>Compression: none (the agent accepts none). Thread-safe, as {@link Exporter} requires. The
 * exporter starts one daemon thread, {@code <clientId>-gse-io}, that reads the agent's replies;
 * {@link #close()} stops it.
 */
public final class GseExporter implements Exporter {

  /**
   * Default Unix-domain socket path: {@value} (bk-collector and bkunifylogbeat docs, node manager
   * default).
   */
  public static final String DEFAULT_UNIX_SOCKET_PATH = "/var/run/ipc.state.report";

  /** Default TCP host (Windows): {@value}. */
  public static final String DEFAULT_TCP_HOST = "127.0.0.1";

  /** Default TCP port (Windows): {@value}. */
  public static final int DEFAULT_TCP_PORT = 47000;

  /**
   * Default {@code maxFrameBodyBytes}: {@value} (10 MiB; bk-collector refuses bodies of 10 MiB or
   * more).
   */
  public static final int DEFAULT_MAX_FRAME_BODY_BYTES = 10 * 1024 * 1024;

  /** Default {@code writeTimeoutMillis}: {@value} (libgse's write timeout). */
  public static final long DEFAULT_WRITE_TIMEOUT_MILLIS = 5_000L;

  /** Default {@code connectTimeoutMillis}: {@value}. */
  public static final long DEFAULT_CONNECT_TIMEOUT_MILLIS = 5_000L;

  /** Default {@code agentInfoIntervalMillis}: {@value} (libgse re-sends the request every 31 s). */
  public static final long DEFAULT_AGENT_INFO_INTERVAL_MILLIS = 31_000L;

  /** Default {@code agentInfoTimeoutMillis}: {@value}. */
  public static final long DEFAULT_AGENT_INFO_TIMEOUT_MILLIS = 5_000L;

  /** Default {@code socketSendBufferBytes}: {@value} (the system default). */
  public static final int DEFAULT_SOCKET_SEND_BUFFER_BYTES = 0;

  /** Default {@code stripesPerDataId}: {@value} (each dataid is one shard). */
  public static final int DEFAULT_STRIPES_PER_DATA_ID = 1;

  /**
   * Room kept in a frame's body for the JSON envelope around the items (attach fields, times), in
   * bytes; halved for tiny {@code maxFrameBodyBytes}. {@link #maxBatchSizeInBytes()} is the maximum
   * minus this.
   */
  static final int ENVELOPE_RESERVE_BYTES = 2048;

  /**
   * The largest per-item suffix the framer adds to one record: {@code
   * ,"iterationindex":2147483647}}.
   */
  static final int ITEM_SUFFIX_MAX_BYTES = 29;

  /** The tag byte of a stored GSE shard key ({@link #spoolShardKey(Object)}). */
  private static final byte STORED_KEY_TAG = 'G';

  private static final int STORED_KEY_BYTES = 9;

  private static final byte[] ITERATION_INDEX =
      ",\"iterationindex\":".getBytes(StandardCharsets.US_ASCII);

  /** The frame type. */
  public enum FrameType {
    /**
     * 0x09: header, extension, 408-byte meta area, body. What bk-collector, bkunifylogbeat and
     * bkmonitorbeat send.
     */
    DYNAMIC,
    /** 0x0C01: header, body. */
    COMMON
  }

  /** What each item's {@code data} string holds. */
  public enum ItemFormat {
    /**
     * The record as a JSON object, as bk-collector's logs converter writes it: {@code time_unix}
     * (µs), {@code severity_number}, {@code severity_text}, {@code body}, {@code attributes},
     * {@code trace_id}, {@code span_id}, {@code flags}, {@code resource}.
     */
    RECORD_JSON,
    /** The body as one line of text, as a log collector (bkunifylogbeat) sends it. */
    BODY
  }

  private final Endpoint endpoint;
  private final DataIds dataIds;
  private final RecordEncoder encoder;
  private final Envelope envelope;
  private final int maxFrameBodyBytes;
  private final boolean waitForAgentInfo;
  private final long writeTimeoutMillis;
  private final long connectTimeoutMillis;
  private final long agentInfoIntervalMillis;
  private final long agentInfoTimeoutMillis;
  private final int socketSendBufferBytes;
  private final String summary;
  private volatile GseTransport transport;

  GseExporter(GseExporterBuilder b, Endpoint endpoint) {
    this.endpoint = endpoint;
    this.dataIds = new DataIds(b.dataId, b.stripesPerDataId);
    this.encoder =
        b.itemFormat == ItemFormat.BODY
            ? ItemEncoders.body(dataIds)
            : ItemEncoders.recordJson(dataIds, new LinkedHashMap<>(b.resource));
    Envelope.Attach attach =
        new Envelope.Attach(
            b.bizId, b.bkBizId, b.cloudId, b.ip, b.hostname, b.bkAgentId, b.bkHostId);
    this.waitForAgentInfo = !attach.coversAgentInfo();
    this.envelope =
        new Envelope(
            b.frameType == FrameType.DYNAMIC,
            GseProtocol.Meta.of(b.meta),
            attach,
            b.maxFrameBodyBytes,
            b.clockMillis,
            b.zone != null ? b.zone : ZoneId.systemDefault());
    this.maxFrameBodyBytes = b.maxFrameBodyBytes;
    this.writeTimeoutMillis = b.writeTimeoutMillis;
    this.connectTimeoutMillis = b.connectTimeoutMillis;
    this.agentInfoIntervalMillis = b.agentInfoIntervalMillis;
    this.agentInfoTimeoutMillis = b.agentInfoTimeoutMillis;
    this.socketSendBufferBytes = b.socketSendBufferBytes;
    this.summary =
        "GSE agent "
            + endpoint.describe()
            + " ("
            + b.frameType.name().toLowerCase(java.util.Locale.ROOT)
            + " frames, "
            + b.itemFormat
            + " items, default dataid "
            + (b.dataId > 0 ? b.dataId : "none")
            + ", "
            + b.stripesPerDataId
            + " stripe(s) per dataid)";
  }

  /** {@return a new builder holding the defaults} */
  public static GseExporterBuilder builder() {
    return new GseExporterBuilder();
  }

  /**
   * Starts the connection's I/O thread (named {@code <clientId>-gse-io}), which makes the first
   * connection attempt and queries the agent's info. Reconnection backs off from the producer's
   * {@code initialRetryBackoffMillis} to {@code maxRetryBackoffMillis}. Called once by the
   * producer.
   */
  @Override
  public void start(ProducerConfig config) {
    synchronized (this) {
      if (transport != null) {
        throw new IllegalStateException(
            "GseExporter already started: an exporter serves one producer");
      }
      String fast = LocalHost.fastName();
      if (fast != null) {
        envelope.setLocalHostname(fast);
      }
      TransportSettings s =
          new TransportSettings(
              connectTimeoutMillis,
              writeTimeoutMillis,
              socketSendBufferBytes,
              agentInfoIntervalMillis,
              agentInfoTimeoutMillis,
              waitForAgentInfo,
              config.getInitialRetryBackoffMillis(),
              config.getMaxRetryBackoffMillis());
      Runnable lookup = fast != null ? null : () -> envelope.setLocalHostname(LocalHost.name());
      GseTransport t =
          new GseTransport(endpoint, s, config.getClientId() + "-gse-io", lookup, null);
      transport = t;
      t.start();
    }
  }

  /**
   * {@return {@link Compression#NONE} as the default and only compression (the agent takes
   * uncompressed JSON), and {@code maxFrameBodyBytes} minus room for the envelope and one item's
   * framing as the largest batch; no request timeout declared}
   */
  @Override
  public ExporterCapabilities capabilities() {
    return ExporterCapabilities.builder(maxBatchSizeInBytes())
        .setSupportedCompressions(Compression.NONE)
        .build();
  }

  @Override
  public RecordEncoder encoder() {
    return encoder;
  }

  /**
   * The record's shard: one of its dataid's {@code stripesPerDataId} shards, chosen by the calling
   * thread. The dataid is the record's destination parsed as a decimal, or the default; a shard
   * never spans dataids.
   *
   * @throws IllegalArgumentException if the destination is not a dataid, or there is none and no
   *     default
   */
  @Override
  public Object shardKey(LogRecord record) {
    return dataIds.shardKey(record.getDestination());
  }

  /**
   * {@code maxFrameBodyBytes} minus room for the envelope and one item's framing, so that any
   * single record fits a frame. A batch of many records near this size may still need more room for
   * their per-item framing (up to 30 bytes each); export then answers "too large" and the producer
   * splits the batch.
   */
  int maxBatchSizeInBytes() {
    int reserve = Math.min(ENVELOPE_RESERVE_BYTES, maxFrameBodyBytes / 2);
    return maxFrameBodyBytes - 1 - reserve - ITEM_SUFFIX_MAX_BYTES;
  }

  /**
   * Writes the batch's items, comma-separated, each closed with its {@code ,"iterationindex":i}}:
   * the part of the frame that does not depend on the agent's info. The envelope and header are
   * added by {@link #export}.
   */
  @Override
  public void writeRequest(Batch batch, OutputStream out) throws IOException {
    byte[] suffix = new byte[ITERATION_INDEX.length + 12];
    System.arraycopy(ITERATION_INDEX, 0, suffix, 0, ITERATION_INDEX.length);
    int n = batch.recordCount();
    for (int i = 0; i < n; i++) {
      batch.writeRecord(i, out);
      int p = ITERATION_INDEX.length;
      p = putDecimal(suffix, p, i);
      suffix[p++] = '}';
      if (i + 1 < n) {
        suffix[p++] = ',';
      }
      out.write(suffix, 0, p);
    }
  }

  private static int putDecimal(byte[] b, int p, int v) {
    if (v < 10) {
      b[p] = (byte) ('0' + v);
      return p + 1;
    }
    int digits = 0;
    for (int t = v; t > 0; t /= 10) {
      digits++;
    }
    for (int k = p + digits - 1; k >= p; k--) {
      b[k] = (byte) ('0' + v % 10);
      v /= 10;
    }
    return p + digits;
  }

  /**
   * Frames the items with the current agent info and writes the frame. Never throws.
   *
   * @return success once the whole frame is written; retryable when not connected or the write
   *     failed (connection closed); too-large when the frame's body would not be below {@code
   *     maxFrameBodyBytes}
   */
  @Override
  public ExportResult export(Batch batch, byte[] body, int length, Compression compression) {
    GseTransport t = transport;
    if (t == null) {
      return ExportResult.failed("GseExporter was not started", null);
    }
    if (compression != Compression.NONE) {
      return ExportResult.failed("the GSE agent accepts no compression, got " + compression, null);
    }
    int dataId = ((DataIds.ShardKey) batch.shardKey()).dataId;
    return t.send(agent -> envelope.render(dataId, body, length, agent));
  }

  /**
   * The stored form of a GSE shard key for the disk spool: a tag byte {@code 'G'}, then the dataid
   * and the stripe as big-endian int32 (9 bytes). {@link #export} needs no more of a stored batch
   * than its dataid, so GSE batches are stored and replayed (the envelope is rendered at replay
   * with the agent info of that moment).
   *
   * @return 9 bytes, or null for a key this exporter did not make
   */
  @Override
  public byte[] spoolShardKey(Object shardKey) {
    if (!(shardKey instanceof DataIds.ShardKey)) {
      return null;
    }
    DataIds.ShardKey k = (DataIds.ShardKey) shardKey;
    return ByteBuffer.allocate(STORED_KEY_BYTES)
        .put(STORED_KEY_TAG)
        .putInt(k.dataId)
        .putInt(k.stripe())
        .array();
  }

  /**
   * The shard key {@link #spoolShardKey(Object)} stored.
   *
   * @throws IllegalArgumentException if the bytes are not a stored GSE shard key
   */
  @Override
  public Object spoolShardKey(byte[] stored) {
    if (stored == null || stored.length != STORED_KEY_BYTES || stored[0] != STORED_KEY_TAG) {
      throw new IllegalArgumentException(
          "not a stored GSE shard key: "
              + (stored == null ? "null" : stored.length + " bytes, tag " + stored[0]));
    }
    ByteBuffer b = ByteBuffer.wrap(stored, 1, STORED_KEY_BYTES - 1);
    return DataIds.ShardKey.of(b.getInt(), b.getInt());
  }

  @Override
  public String describe() {
    return summary;
  }

  /** {@return {@code "gse"}} */
  @Override
  public String name() {
    return "gse";
  }

  /**
   * Closes the connection and stops the I/O thread; in-flight exports fail promptly. Idempotent.
   */
  @Override
  public void close() {
    GseTransport t;
    synchronized (this) {
      t = transport;
    }
    if (t != null) {
      t.close();
    }
  }

  // ---- for tests in this package ----

  GseTransport transport() {
    return transport;
  }

  AgentInfo agentInfo() {
    GseTransport t = transport;
    return t == null ? AgentInfo.NONE : t.agentInfo();
  }

  Envelope envelope() {
    return envelope;
  }

  Endpoint endpoint() {
    return endpoint;
  }
}
