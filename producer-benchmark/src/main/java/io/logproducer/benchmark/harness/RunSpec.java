package io.logproducer.benchmark.harness;

import io.logproducer.Compression;
import io.logproducer.benchmark.report.Report;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.HashMap;
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

  private static final RecordComponent[] COMPONENTS = RunSpec.class.getRecordComponents();

  /**
   * The reference settings (workload.md): 10 app threads, 100 MiB, 2 MiB batches, 32768 records, 2
   * s linger.
   */
  private static final RunSpec REFERENCE =
      new RunSpec(
          "reference",
          Client.LOGPRODUCER,
          10,
          4,
          100L * MIB,
          2 * MIB,
          32_768,
          2_000,
          Compression.LZ4,
          0,
          3,
          8,
          0,
          0,
          false,
          0,
          0,
          false,
          0,
          0,
          "",
          "GROUP_COMMIT",
          "",
          "http");

  /**
   * @throws IllegalArgumentException when {@code protocol} is neither http nor grpc
   */
  public RunSpec {
    protocol = protocol.trim().toLowerCase(Locale.ROOT);
    if (!protocol.equals("http") && !protocol.equals("grpc")) {
      throw new IllegalArgumentException("protocol must be http or grpc, was '" + protocol + "'");
    }
  }

  /** {@return the reference settings} */
  public static RunSpec reference() {
    return REFERENCE;
  }

  /**
   * {@return these settings with some changed: {@code keyValues} alternates a component's name and
   * its value, typed or as text (parsed as {@link #toMap()} writes it); unknown names are ignored,
   * so that a results line's extra columns do not matter}
   *
   * @throws IllegalArgumentException when a text value does not parse
   */
  public RunSpec with(Object... keyValues) {
    Map<String, Object> changes = new HashMap<>();
    for (int i = 0; i < keyValues.length; i += 2) {
      changes.put((String) keyValues[i], keyValues[i + 1]);
    }
    Object[] values = new Object[COMPONENTS.length];
    Class<?>[] types = new Class<?>[COMPONENTS.length];
    try {
      for (int i = 0; i < COMPONENTS.length; i++) {
        RecordComponent c = COMPONENTS[i];
        types[i] = c.getType();
        Object v = changes.getOrDefault(c.getName(), c.getAccessor().invoke(this));
        values[i] = v instanceof String s && types[i] != String.class ? parse(types[i], s) : v;
      }
      return RunSpec.class.getDeclaredConstructor(types).newInstance(values);
    } catch (InvocationTargetException e) {
      throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Object parse(Class<?> type, String s) {
    if (type == int.class) {
      return Integer.parseInt(s);
    } else if (type == long.class) {
      return Long.parseLong(s);
    } else if (type == double.class) {
      return Double.parseDouble(s);
    } else if (type == boolean.class) {
      return Boolean.parseBoolean(s);
    } else if (type == Compression.class) {
      return Compression.fromName(s);
    }
    return Client.valueOf(s.toUpperCase(Locale.ROOT));
  }

  public RunSpec withLabel(String v) {
    return with("label", v);
  }

  public RunSpec withClient(Client v) {
    return with("client", v);
  }

  public RunSpec withAppThreads(int v) {
    return with("appThreads", v);
  }

  public RunSpec withSendThreads(int v) {
    return with("sendThreads", v);
  }

  public RunSpec withTotalSize(long v) {
    return with("totalSizeInBytes", v);
  }

  public RunSpec withBatchSize(int v) {
    return with("batchSizeInBytes", v);
  }

  public RunSpec withCompression(Compression v, int level) {
    return with("compression", v, "compressionLevel", level);
  }

  public RunSpec withTiming(double warmup, double duration) {
    return with("warmupSeconds", warmup, "durationSeconds", duration);
  }

  public RunSpec withRateLimit(long v) {
    return with("rateLimit", v);
  }

  /** The OpenTelemetry SDK as the client, tuned or with its defaults. */
  public RunSpec withOtel(boolean tuned, int queueSize, int batchSize) {
    return with(
        "client",
        Client.OTEL,
        "otelTuned",
        tuned,
        "otelQueueSize",
        queueSize,
        "otelBatchSize",
        batchSize);
  }

  public RunSpec withJfr(boolean v) {
    return with("jfr", v);
  }

  public RunSpec withRecordBytes(int v) {
    return with("recordBytes", v);
  }

  /** {@return these settings with the child JVM's heap {@code v} (see {@link #heap()})} */
  public RunSpec withHeap(String v) {
    return with("heap", v);
  }

  /** {@return whether OTLP travels over gRPC (protocol {@code grpc}) rather than HTTP} */
  public boolean grpc() {
    return protocol.equals("grpc");
  }

  /** {@return whether the child JVM runs with the JVM's own heap sizing (no heap options)} */
  public boolean defaultHeap() {
    return heap.equals("default");
  }

  /** The settings as key/value pairs, in component order. */
  public Map<String, String> toMap() {
    Map<String, String> m = new LinkedHashMap<>();
    try {
      for (RecordComponent c : COMPONENTS) {
        Object v = c.getAccessor().invoke(this);
        m.put(c.getName(), v instanceof Enum<?> e ? e.name() : String.valueOf(v));
      }
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e);
    }
    // Settings added later are absent at their defaults, so that earlier results.tsv lines read
    // back
    // unchanged.
    if (recordBytes == 0) {
      m.remove("recordBytes");
    }
    if (spoolDir.isEmpty()) {
      m.remove("spoolDir");
      m.remove("spoolDurability");
    }
    if (heap.isEmpty()) {
      m.remove("heap");
    }
    if (!grpc()) {
      m.remove("protocol");
    }
    return m;
  }

  /** {@code --key value} arguments for {@link HarnessMain}. */
  public List<String> toArgs() {
    List<String> args = new ArrayList<>();
    toMap().forEach((k, v) -> args.addAll(List.of("--" + k, v)));
    return args;
  }

  /**
   * Parses {@link #toMap()}'s keys; missing keys keep the {@link #reference()} value, unknown keys
   * are ignored.
   */
  public static RunSpec fromMap(Map<String, String> m) {
    List<Object> kv = new ArrayList<>();
    m.forEach((k, v) -> kv.addAll(List.of(k, v)));
    return REFERENCE.with(kv.toArray());
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
