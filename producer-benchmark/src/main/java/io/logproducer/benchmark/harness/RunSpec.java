package io.logproducer.benchmark.harness;

import io.logproducer.Compression;
import io.logproducer.benchmark.report.Report;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One end-to-end run: which client sends the reference workload, with which settings, for how long.
 * Passed to the child JVM ({@link HarnessMain}) as {@code --key value} arguments. Immutable.
 *
 * @param label human-readable name, shown in progress and tables
 * @param client {@link Client#LOGPRODUCER}, {@link Client#OTEL} (the OpenTelemetry Java SDK),
 *     {@link Client#ALIYUN} (the Aliyun Log Java producer, to the SLS sink) or {@link
 *     Client#GENERATE} (workload generation only, no client: the calibration run)
 * @param appThreads application threads calling send (the reference: 10)
 * @param sendThreads logproducer {@code sendThreads}; Aliyun {@code ioThreadCount}
 * @param totalSizeInBytes logproducer and Aliyun {@code totalSizeInBytes}
 * @param batchSizeInBytes logproducer {@code batchSizeInBytes}; Aliyun {@code
 *     batchSizeThresholdInBytes}
 * @param batchCountThreshold logproducer and Aliyun {@code batchCountThreshold}
 * @param lingerMillis logproducer {@code lingerMillis}; Aliyun {@code lingerMs}
 * @param compression request compression (every client; OTel supports none and gzip, Aliyun lz4,
 *     zstd, gzip as SLS's deflate, and none)
 * @param compressionLevel gzip/zstd level, 0 = the codec's default
 * @param warmupSeconds seconds of sending before the measured phase (a separate producer instance,
 *     same JVM)
 * @param durationSeconds length of the measured sending phase (flush excluded); 0 = bounded by
 *     records only
 * @param recordsPerThread per-thread cap on records in the measured phase; 0 = bounded by time only
 * @param rateLimit total records/s the application threads are paced to; 0 = as fast as possible
 * @param otelTuned OTel: large queue and batches, and the application waits for queue space (never
 *     drops); false = the SDK's defaults (drops when the queue is full)
 * @param otelQueueSize OTel tuned: {@code maxQueueSize}
 * @param otelBatchSize OTel tuned: {@code maxExportBatchSize}
 * @param jfr write a JFR profile of the measured phase (the suite's profiling run)
 * @param stripes OTLP exporter {@code stripes} (open batches application threads spread over); 0 =
 *     its default
 * @param recordBytes raw bytes per record (UTF-8 keys and values, as the reference counts them) of
 *     a {@link SizedWorkload}; 0 = the reference workload itself (~580 B), unchanged
 * @param spoolDir logproducer: the parent of a fresh disk-spool directory per producer (deleted
 *     after it closes); "" = memory-only (no spool)
 * @param spoolDurability logproducer with {@code spoolDir}: a {@code SpoolDurability} name, {@code
 *     GROUP_COMMIT} (200 ms), {@code EVERY_BATCH} or {@code NONE}
 * @param heap the child JVM's heap: "" = 4 GiB, fixed and touched up front ({@code -Xms4g -Xmx4g
 *     -XX:+AlwaysPreTouch}); {@code default} = no heap option at all, the JVM's own sizing (what
 *     {@code java -jar} of the quick start gets)
 * @param protocol logproducer and the OpenTelemetry SDK: {@code http} (OTLP/HTTP, protobuf) or
 *     {@code grpc} (OTLP/gRPC, to the sink's gRPC listener)
 */
public record RunSpec(
    String label,
    Client client,
    int appThreads,
    int sendThreads,
    long totalSizeInBytes,
    int batchSizeInBytes,
    int batchCountThreshold,
    long lingerMillis,
    Compression compression,
    int compressionLevel,
    double warmupSeconds,
    double durationSeconds,
    long recordsPerThread,
    long rateLimit,
    boolean otelTuned,
    int otelQueueSize,
    int otelBatchSize,
    boolean jfr,
    int stripes,
    int recordBytes,
    String spoolDir,
    String spoolDurability,
    String heap,
    String protocol) {

  /** Who sends. */
  public enum Client {
    LOGPRODUCER,
    OTEL,
    ALIYUN,
    GENERATE
  }

  public static final int MIB = 1024 * 1024;

  /**
   * The reference settings (workload.md): 10 app threads, 100 MiB, 2 MiB batches, 32768 records, 2
   * s linger.
   */
  public static RunSpec reference() {
    return new Builder().build();
  }

  /** {@return a builder holding the reference settings} */
  public static Builder builder() {
    return new Builder();
  }

  /** {@return a builder holding this run's settings} */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.label = label;
    b.client = client;
    b.appThreads = appThreads;
    b.sendThreads = sendThreads;
    b.totalSizeInBytes = totalSizeInBytes;
    b.batchSizeInBytes = batchSizeInBytes;
    b.batchCountThreshold = batchCountThreshold;
    b.lingerMillis = lingerMillis;
    b.compression = compression;
    b.compressionLevel = compressionLevel;
    b.warmupSeconds = warmupSeconds;
    b.durationSeconds = durationSeconds;
    b.recordsPerThread = recordsPerThread;
    b.rateLimit = rateLimit;
    b.otelTuned = otelTuned;
    b.otelQueueSize = otelQueueSize;
    b.otelBatchSize = otelBatchSize;
    b.jfr = jfr;
    b.stripes = stripes;
    b.recordBytes = recordBytes;
    b.spoolDir = spoolDir;
    b.spoolDurability = spoolDurability;
    b.heap = heap;
    b.protocol = protocol;
    return b;
  }

  public RunSpec withLabel(String v) {
    return toBuilder().label(v).build();
  }

  public RunSpec withClient(Client v) {
    return toBuilder().client(v).build();
  }

  public RunSpec withAppThreads(int v) {
    return toBuilder().appThreads(v).build();
  }

  public RunSpec withSendThreads(int v) {
    return toBuilder().sendThreads(v).build();
  }

  public RunSpec withTotalSize(long v) {
    return toBuilder().totalSizeInBytes(v).build();
  }

  public RunSpec withBatchSize(int v) {
    return toBuilder().batchSizeInBytes(v).build();
  }

  public RunSpec withBatchCountThreshold(int v) {
    return toBuilder().batchCountThreshold(v).build();
  }

  public RunSpec withLinger(long v) {
    return toBuilder().lingerMillis(v).build();
  }

  public RunSpec withCompression(Compression v, int level) {
    return toBuilder().compression(v).compressionLevel(level).build();
  }

  public RunSpec withTiming(double warmup, double duration) {
    return toBuilder().warmupSeconds(warmup).durationSeconds(duration).build();
  }

  public RunSpec withRateLimit(long v) {
    return toBuilder().rateLimit(v).build();
  }

  /** The OpenTelemetry SDK as the client, tuned or with its defaults. */
  public RunSpec withOtel(boolean tuned, int queueSize, int batchSize) {
    return toBuilder()
        .client(Client.OTEL)
        .otelTuned(tuned)
        .otelQueueSize(queueSize)
        .otelBatchSize(batchSize)
        .build();
  }

  public RunSpec withJfr(boolean v) {
    return toBuilder().jfr(v).build();
  }

  public RunSpec withRecordBytes(int v) {
    return toBuilder().recordBytes(v).build();
  }

  /** {@return these settings with the child JVM's heap {@code v} (see {@link #heap()})} */
  public RunSpec withHeap(String v) {
    return toBuilder().set("heap", v).build();
  }

  /** {@return whether OTLP travels over gRPC (protocol {@code grpc}) rather than HTTP} */
  public boolean grpc() {
    return protocol.equals("grpc");
  }

  /** {@return whether the child JVM runs with the JVM's own heap sizing (no heap options)} */
  public boolean defaultHeap() {
    return heap.equals("default");
  }

  /**
   * Builds a {@link RunSpec} by name: every setting starts at the reference's value ({@link
   * #reference()}), so a run names only what it changes. Not thread-safe.
   */
  public static final class Builder {
    private String label = "reference";
    private Client client = Client.LOGPRODUCER;
    private int appThreads = 10;
    private int sendThreads = 4;
    private long totalSizeInBytes = 100L * MIB;
    private int batchSizeInBytes = 2 * MIB;
    private int batchCountThreshold = 32_768;
    private long lingerMillis = 2_000;
    private Compression compression = Compression.LZ4;
    private int compressionLevel = 0;
    private double warmupSeconds = 3;
    private double durationSeconds = 8;
    private long recordsPerThread = 0;
    private long rateLimit = 0;
    private boolean otelTuned = false;
    private int otelQueueSize = 0;
    private int otelBatchSize = 0;
    private boolean jfr = false;
    private int stripes = 0;
    private int recordBytes = 0;
    private String spoolDir = "";
    private String spoolDurability = "GROUP_COMMIT";
    private String heap = "";
    private String protocol = "http";

    private Builder() {}

    public Builder label(String v) {
      label = v;
      return this;
    }

    public Builder client(Client v) {
      client = v;
      return this;
    }

    public Builder appThreads(int v) {
      appThreads = v;
      return this;
    }

    public Builder sendThreads(int v) {
      sendThreads = v;
      return this;
    }

    public Builder totalSizeInBytes(long v) {
      totalSizeInBytes = v;
      return this;
    }

    public Builder batchSizeInBytes(int v) {
      batchSizeInBytes = v;
      return this;
    }

    public Builder batchCountThreshold(int v) {
      batchCountThreshold = v;
      return this;
    }

    public Builder lingerMillis(long v) {
      lingerMillis = v;
      return this;
    }

    public Builder compression(Compression v) {
      compression = v;
      return this;
    }

    public Builder compressionLevel(int v) {
      compressionLevel = v;
      return this;
    }

    public Builder warmupSeconds(double v) {
      warmupSeconds = v;
      return this;
    }

    public Builder durationSeconds(double v) {
      durationSeconds = v;
      return this;
    }

    public Builder recordsPerThread(long v) {
      recordsPerThread = v;
      return this;
    }

    public Builder rateLimit(long v) {
      rateLimit = v;
      return this;
    }

    public Builder otelTuned(boolean v) {
      otelTuned = v;
      return this;
    }

    public Builder otelQueueSize(int v) {
      otelQueueSize = v;
      return this;
    }

    public Builder otelBatchSize(int v) {
      otelBatchSize = v;
      return this;
    }

    public Builder jfr(boolean v) {
      jfr = v;
      return this;
    }

    public Builder stripes(int v) {
      stripes = v;
      return this;
    }

    public Builder recordBytes(int v) {
      recordBytes = v;
      return this;
    }

    /**
     * Sets the setting named {@code key} (a component's name, as {@link #toMap()} writes it) from
     * its text; other keys are ignored, so that a results line's extra columns do not matter.
     *
     * @throws IllegalArgumentException when the value does not parse
     */
    public Builder set(String key, String v) {
      switch (key) {
        case "label" -> label = v;
        case "client" -> client = Client.valueOf(v.toUpperCase(Locale.ROOT));
        case "appThreads" -> appThreads = Integer.parseInt(v);
        case "sendThreads" -> sendThreads = Integer.parseInt(v);
        case "totalSizeInBytes" -> totalSizeInBytes = Long.parseLong(v);
        case "batchSizeInBytes" -> batchSizeInBytes = Integer.parseInt(v);
        case "batchCountThreshold" -> batchCountThreshold = Integer.parseInt(v);
        case "lingerMillis" -> lingerMillis = Long.parseLong(v);
        case "compression" -> compression = Compression.fromName(v);
        case "compressionLevel" -> compressionLevel = Integer.parseInt(v);
        case "warmupSeconds" -> warmupSeconds = Double.parseDouble(v);
        case "durationSeconds" -> durationSeconds = Double.parseDouble(v);
        case "recordsPerThread" -> recordsPerThread = Long.parseLong(v);
        case "rateLimit" -> rateLimit = Long.parseLong(v);
        case "otelTuned" -> otelTuned = Boolean.parseBoolean(v);
        case "otelQueueSize" -> otelQueueSize = Integer.parseInt(v);
        case "otelBatchSize" -> otelBatchSize = Integer.parseInt(v);
        case "jfr" -> jfr = Boolean.parseBoolean(v);
        case "stripes" -> stripes = Integer.parseInt(v);
        case "recordBytes" -> recordBytes = Integer.parseInt(v);
        case "spoolDir" -> spoolDir = v;
        case "spoolDurability" -> spoolDurability = v;
        case "heap" -> heap = v;
        case "protocol" -> protocol = protocol(v);
        default -> {}
      }
      return this;
    }

    /** {@return the run these settings describe} */
    public RunSpec build() {
      return new RunSpec(
          label,
          client,
          appThreads,
          sendThreads,
          totalSizeInBytes,
          batchSizeInBytes,
          batchCountThreshold,
          lingerMillis,
          compression,
          compressionLevel,
          warmupSeconds,
          durationSeconds,
          recordsPerThread,
          rateLimit,
          otelTuned,
          otelQueueSize,
          otelBatchSize,
          jfr,
          stripes,
          recordBytes,
          spoolDir,
          spoolDurability,
          heap,
          protocol);
    }

    private static String protocol(String v) {
      String p = v.trim().toLowerCase(Locale.ROOT);
      if (!p.equals("http") && !p.equals("grpc")) {
        throw new IllegalArgumentException("protocol must be http or grpc, was '" + v + "'");
      }
      return p;
    }
  }

  /** The settings as key/value pairs, in a stable order. */
  public Map<String, String> toMap() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("label", label);
    m.put("client", client.name());
    m.put("appThreads", Integer.toString(appThreads));
    m.put("sendThreads", Integer.toString(sendThreads));
    m.put("totalSizeInBytes", Long.toString(totalSizeInBytes));
    m.put("batchSizeInBytes", Integer.toString(batchSizeInBytes));
    m.put("batchCountThreshold", Integer.toString(batchCountThreshold));
    m.put("lingerMillis", Long.toString(lingerMillis));
    m.put("compression", compression.name());
    m.put("compressionLevel", Integer.toString(compressionLevel));
    m.put("warmupSeconds", Double.toString(warmupSeconds));
    m.put("durationSeconds", Double.toString(durationSeconds));
    m.put("recordsPerThread", Long.toString(recordsPerThread));
    m.put("rateLimit", Long.toString(rateLimit));
    m.put("otelTuned", Boolean.toString(otelTuned));
    m.put("otelQueueSize", Integer.toString(otelQueueSize));
    m.put("otelBatchSize", Integer.toString(otelBatchSize));
    m.put("jfr", Boolean.toString(jfr));
    m.put("stripes", Integer.toString(stripes));
    if (recordBytes
        != 0) { // absent for the reference workload, so earlier results.tsv lines read back
      // unchanged
      m.put("recordBytes", Integer.toString(recordBytes));
    }
    if (!spoolDir.isEmpty()) { // absent for memory-only runs, as before the spool
      m.put("spoolDir", spoolDir);
      m.put("spoolDurability", spoolDurability);
    }
    if (!heap.isEmpty()) { // absent for the fixed 4 GiB heap, as before this setting
      m.put("heap", heap);
    }
    if (grpc()) { // absent for OTLP/HTTP, as before this setting
      m.put("protocol", protocol);
    }
    return m;
  }

  /** {@code --key value} arguments for {@link HarnessMain}. */
  public List<String> toArgs() {
    List<String> args = new ArrayList<>();
    toMap()
        .forEach(
            (k, v) -> {
              args.add("--" + k);
              args.add(v);
            });
    return args;
  }

  /**
   * Parses {@link #toMap()}'s keys; missing keys keep the {@link #reference()} value, unknown keys
   * are ignored.
   */
  public static RunSpec fromMap(Map<String, String> m) {
    Builder b = builder();
    m.forEach(b::set);
    return b.build();
  }

  /** Parses {@code --key value} pairs. */
  public static RunSpec fromArgs(String[] args) {
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < args.length; i++) {
      if (!args[i].startsWith("--") || i + 1 >= args.length) {
        throw new IllegalArgumentException("expected --key value, got '" + args[i] + "'");
      }
      m.put(args[i].substring(2), args[++i]);
    }
    return fromMap(m);
  }

  /** A one-line summary of the settings that matter for this client. */
  public String describe() {
    return switch (client) {
      case GENERATE -> String.format(Locale.ROOT, "generate only, %d threads", appThreads);
      case OTEL ->
          String.format(
              Locale.ROOT,
              "OTel SDK%s %s, %s, %d threads%s",
              grpc() ? " over gRPC," : "",
              otelTuned
                  ? "tuned (queue "
                      + otelQueueSize
                      + ", batch "
                      + otelBatchSize
                      + ", waits for queue space)"
                  : "defaults",
              Report.compressionName(compression, compressionLevel),
              appThreads,
              rateLimit > 0 ? ", paced to " + rateLimit + "/s" : "");
      case ALIYUN ->
          String.format(
              Locale.ROOT,
              "Aliyun producer %s, ioThreads %d, total %s, batch %s / %d records, linger %d ms, %d threads%s",
              Report.compressionName(compression, compressionLevel),
              sendThreads,
              Report.bytes(totalSizeInBytes),
              Report.bytes(batchSizeInBytes),
              batchCountThreshold,
              lingerMillis,
              appThreads,
              rateLimit > 0 ? ", paced to " + rateLimit + "/s" : "");
      case LOGPRODUCER ->
          String.format(
                  Locale.ROOT,
                  "%s%s, sendThreads %d, total %s, batch %s, linger %d ms, %d threads%s%s",
                  grpc() ? "OTLP/gRPC, " : "",
                  Report.compressionName(compression, compressionLevel),
                  sendThreads,
                  Report.bytes(totalSizeInBytes),
                  Report.bytes(batchSizeInBytes),
                  lingerMillis,
                  appThreads,
                  rateLimit > 0 ? ", paced to " + rateLimit + "/s" : "",
                  stripes > 0 ? ", " + stripes + " stripes" : "")
              + (recordBytes > 0 ? ", " + recordBytes + " B records" : "")
              + (spoolDir.isEmpty() ? "" : ", spool " + spoolDurability + " in " + spoolDir)
              + (heap.isEmpty() ? "" : ", heap " + heap);
    };
  }
}
