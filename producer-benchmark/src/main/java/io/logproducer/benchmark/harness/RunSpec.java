package io.logproducer.benchmark.harness;

import io.logproducer.Compression;
import io.logproducer.benchmark.report.Report;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One end-to-end run: which client sends the reference workload, with which settings, for how long. Passed to the
 * child JVM ({@link HarnessMain}) as {@code --key value} arguments. Immutable.
 *
 * @param label human-readable name, shown in progress and tables
 * @param client {@link Client#LOGPRODUCER}, {@link Client#OTEL} (the OpenTelemetry Java SDK), {@link Client#ALIYUN}
 *     (the Aliyun Log Java producer, to the SLS sink) or {@link Client#GENERATE} (workload generation only, no
 *     client: the calibration run)
 * @param appThreads application threads calling send (the reference: 10)
 * @param sendThreads logproducer {@code sendThreads}; Aliyun {@code ioThreadCount}
 * @param totalSizeInBytes logproducer and Aliyun {@code totalSizeInBytes}
 * @param batchSizeInBytes logproducer {@code batchSizeInBytes}; Aliyun {@code batchSizeThresholdInBytes}
 * @param batchCountThreshold logproducer and Aliyun {@code batchCountThreshold}
 * @param lingerMillis logproducer {@code lingerMillis}; Aliyun {@code lingerMs}
 * @param compression request compression (every client; OTel supports none and gzip, Aliyun lz4, zstd, gzip as
 *     SLS's deflate, and none)
 * @param compressionLevel gzip/zstd level, 0 = the codec's default
 * @param warmupSeconds seconds of sending before the measured phase (a separate producer instance, same JVM)
 * @param durationSeconds length of the measured sending phase (flush excluded); 0 = bounded by records only
 * @param recordsPerThread per-thread cap on records in the measured phase; 0 = bounded by time only
 * @param rateLimit total records/s the application threads are paced to; 0 = as fast as possible
 * @param otelTuned OTel: large queue and batches, and the application waits for queue space (never drops);
 *     false = the SDK's defaults (drops when the queue is full)
 * @param otelQueueSize OTel tuned: {@code maxQueueSize}
 * @param otelBatchSize OTel tuned: {@code maxExportBatchSize}
 * @param jfr write a JFR profile of the measured phase (the suite's profiling run)
 * @param stripes OTLP exporter {@code stripes} (open batches application threads spread over); 0 = its default
 * @param recordBytes raw bytes per record (UTF-8 keys and values, as the reference counts them) of a
 *     {@link SizedWorkload}; 0 = the reference workload itself (~580 B), unchanged
 */
public record RunSpec(String label, Client client, int appThreads, int sendThreads, long totalSizeInBytes,
    int batchSizeInBytes, int batchCountThreshold, long lingerMillis, Compression compression, int compressionLevel,
    double warmupSeconds, double durationSeconds, long recordsPerThread, long rateLimit, boolean otelTuned,
    int otelQueueSize, int otelBatchSize, boolean jfr, int stripes, int recordBytes) {

  /** Who sends. */
  public enum Client { LOGPRODUCER, OTEL, ALIYUN, GENERATE }

  public static final int MIB = 1024 * 1024;

  /** The reference settings (workload.md): 10 app threads, 100 MiB, 2 MiB batches, 32768 records, 2 s linger. */
  public static RunSpec reference() {
    return new RunSpec("reference", Client.LOGPRODUCER, 10, 4, 100L * MIB, 2 * MIB, 32_768, 2_000,
        Compression.LZ4, 0, 3, 8, 0, 0, false, 0, 0, false, 0, 0);
  }

  public RunSpec withLabel(String v) {
    return new RunSpec(v, client, appThreads, sendThreads, totalSizeInBytes, batchSizeInBytes, batchCountThreshold,
        lingerMillis, compression, compressionLevel, warmupSeconds, durationSeconds, recordsPerThread, rateLimit,
        otelTuned, otelQueueSize, otelBatchSize, jfr, stripes, recordBytes);
  }

  public RunSpec withClient(Client v) {
    return new RunSpec(label, v, appThreads, sendThreads, totalSizeInBytes, batchSizeInBytes, batchCountThreshold,
        lingerMillis, compression, compressionLevel, warmupSeconds, durationSeconds, recordsPerThread, rateLimit,
        otelTuned, otelQueueSize, otelBatchSize, jfr, stripes, recordBytes);
  }

  public RunSpec withAppThreads(int v) {
    return new RunSpec(label, client, v, sendThreads, totalSizeInBytes, batchSizeInBytes, batchCountThreshold,
        lingerMillis, compression, compressionLevel, warmupSeconds, durationSeconds, recordsPerThread, rateLimit,
        otelTuned, otelQueueSize, otelBatchSize, jfr, stripes, recordBytes);
  }

  public RunSpec withSendThreads(int v) {
    return new RunSpec(label, client, appThreads, v, totalSizeInBytes, batchSizeInBytes, batchCountThreshold,
        lingerMillis, compression, compressionLevel, warmupSeconds, durationSeconds, recordsPerThread, rateLimit,
        otelTuned, otelQueueSize, otelBatchSize, jfr, stripes, recordBytes);
  }

  public RunSpec withTotalSize(long v) {
    return new RunSpec(label, client, appThreads, sendThreads, v, batchSizeInBytes, batchCountThreshold,
        lingerMillis, compression, compressionLevel, warmupSeconds, durationSeconds, recordsPerThread, rateLimit,
        otelTuned, otelQueueSize, otelBatchSize, jfr, stripes, recordBytes);
  }

  public RunSpec withBatchSize(int v) {
    return new RunSpec(label, client, appThreads, sendThreads, totalSizeInBytes, v, batchCountThreshold,
        lingerMillis, compression, compressionLevel, warmupSeconds, durationSeconds, recordsPerThread, rateLimit,
        otelTuned, otelQueueSize, otelBatchSize, jfr, stripes, recordBytes);
  }

  public RunSpec withBatchCountThreshold(int v) {
    return new RunSpec(label, client, appThreads, sendThreads, totalSizeInBytes, batchSizeInBytes, v, lingerMillis,
        compression, compressionLevel, warmupSeconds, durationSeconds, recordsPerThread, rateLimit, otelTuned,
        otelQueueSize, otelBatchSize, jfr, stripes, recordBytes);
  }

  public RunSpec withLinger(long v) {
    return new RunSpec(label, client, appThreads, sendThreads, totalSizeInBytes, batchSizeInBytes,
        batchCountThreshold, v, compression, compressionLevel, warmupSeconds, durationSeconds, recordsPerThread,
        rateLimit, otelTuned, otelQueueSize, otelBatchSize, jfr, stripes, recordBytes);
  }

  public RunSpec withCompression(Compression v, int level) {
    return new RunSpec(label, client, appThreads, sendThreads, totalSizeInBytes, batchSizeInBytes,
        batchCountThreshold, lingerMillis, v, level, warmupSeconds, durationSeconds, recordsPerThread, rateLimit,
        otelTuned, otelQueueSize, otelBatchSize, jfr, stripes, recordBytes);
  }

  public RunSpec withTiming(double warmup, double duration) {
    return new RunSpec(label, client, appThreads, sendThreads, totalSizeInBytes, batchSizeInBytes,
        batchCountThreshold, lingerMillis, compression, compressionLevel, warmup, duration, recordsPerThread,
        rateLimit, otelTuned, otelQueueSize, otelBatchSize, jfr, stripes, recordBytes);
  }

  public RunSpec withRecordsPerThread(long v) {
    return new RunSpec(label, client, appThreads, sendThreads, totalSizeInBytes, batchSizeInBytes,
        batchCountThreshold, lingerMillis, compression, compressionLevel, warmupSeconds, durationSeconds, v,
        rateLimit, otelTuned, otelQueueSize, otelBatchSize, jfr, stripes, recordBytes);
  }

  public RunSpec withRateLimit(long v) {
    return new RunSpec(label, client, appThreads, sendThreads, totalSizeInBytes, batchSizeInBytes,
        batchCountThreshold, lingerMillis, compression, compressionLevel, warmupSeconds, durationSeconds,
        recordsPerThread, v, otelTuned, otelQueueSize, otelBatchSize, jfr, stripes, recordBytes);
  }

  public RunSpec withOtel(boolean tuned, int queueSize, int batchSize) {
    return new RunSpec(label, Client.OTEL, appThreads, sendThreads, totalSizeInBytes, batchSizeInBytes,
        batchCountThreshold, lingerMillis, compression, compressionLevel, warmupSeconds, durationSeconds,
        recordsPerThread, rateLimit, tuned, queueSize, batchSize, jfr, stripes, recordBytes);
  }

  public RunSpec withJfr(boolean v) {
    return new RunSpec(label, client, appThreads, sendThreads, totalSizeInBytes, batchSizeInBytes,
        batchCountThreshold, lingerMillis, compression, compressionLevel, warmupSeconds, durationSeconds,
        recordsPerThread, rateLimit, otelTuned, otelQueueSize, otelBatchSize, v, stripes, recordBytes);
  }

  public RunSpec withRecordBytes(int v) {
    return new RunSpec(label, client, appThreads, sendThreads, totalSizeInBytes, batchSizeInBytes,
        batchCountThreshold, lingerMillis, compression, compressionLevel, warmupSeconds, durationSeconds,
        recordsPerThread, rateLimit, otelTuned, otelQueueSize, otelBatchSize, jfr, stripes, v);
  }

  public RunSpec withStripes(int v) {
    return new RunSpec(label, client, appThreads, sendThreads, totalSizeInBytes, batchSizeInBytes,
        batchCountThreshold, lingerMillis, compression, compressionLevel, warmupSeconds, durationSeconds,
        recordsPerThread, rateLimit, otelTuned, otelQueueSize, otelBatchSize, jfr, v, recordBytes);
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
    if (recordBytes != 0) { // absent for the reference workload, so earlier results.tsv lines read back unchanged
      m.put("recordBytes", Integer.toString(recordBytes));
    }
    return m;
  }

  /** {@code --key value} arguments for {@link HarnessMain}. */
  public List<String> toArgs() {
    List<String> args = new ArrayList<>();
    toMap().forEach((k, v) -> {
      args.add("--" + k);
      args.add(v);
    });
    return args;
  }

  /** Parses {@link #toMap()}'s keys; missing keys keep the {@link #reference()} value. */
  public static RunSpec fromMap(Map<String, String> m) {
    RunSpec r = reference();
    return new RunSpec(m.getOrDefault("label", r.label),
        Client.valueOf(m.getOrDefault("client", r.client.name()).toUpperCase(Locale.ROOT)),
        Integer.parseInt(m.getOrDefault("appThreads", "" + r.appThreads)),
        Integer.parseInt(m.getOrDefault("sendThreads", "" + r.sendThreads)),
        Long.parseLong(m.getOrDefault("totalSizeInBytes", "" + r.totalSizeInBytes)),
        Integer.parseInt(m.getOrDefault("batchSizeInBytes", "" + r.batchSizeInBytes)),
        Integer.parseInt(m.getOrDefault("batchCountThreshold", "" + r.batchCountThreshold)),
        Long.parseLong(m.getOrDefault("lingerMillis", "" + r.lingerMillis)),
        Compression.fromName(m.getOrDefault("compression", r.compression.name())),
        Integer.parseInt(m.getOrDefault("compressionLevel", "" + r.compressionLevel)),
        Double.parseDouble(m.getOrDefault("warmupSeconds", "" + r.warmupSeconds)),
        Double.parseDouble(m.getOrDefault("durationSeconds", "" + r.durationSeconds)),
        Long.parseLong(m.getOrDefault("recordsPerThread", "" + r.recordsPerThread)),
        Long.parseLong(m.getOrDefault("rateLimit", "" + r.rateLimit)),
        Boolean.parseBoolean(m.getOrDefault("otelTuned", "" + r.otelTuned)),
        Integer.parseInt(m.getOrDefault("otelQueueSize", "" + r.otelQueueSize)),
        Integer.parseInt(m.getOrDefault("otelBatchSize", "" + r.otelBatchSize)),
        Boolean.parseBoolean(m.getOrDefault("jfr", "" + r.jfr)),
        Integer.parseInt(m.getOrDefault("stripes", "" + r.stripes)),
        Integer.parseInt(m.getOrDefault("recordBytes", "" + r.recordBytes)));
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
      case OTEL -> String.format(Locale.ROOT, "OTel SDK %s, %s, %d threads%s", otelTuned
          ? "tuned (queue " + otelQueueSize + ", batch " + otelBatchSize + ", waits for queue space)" : "defaults",
          Report.compressionName(compression, compressionLevel), appThreads,
          rateLimit > 0 ? ", paced to " + rateLimit + "/s" : "");
      case ALIYUN -> String.format(Locale.ROOT,
          "Aliyun producer %s, ioThreads %d, total %s, batch %s / %d records, linger %d ms, %d threads%s",
          Report.compressionName(compression, compressionLevel), sendThreads, Report.bytes(totalSizeInBytes),
          Report.bytes(batchSizeInBytes), batchCountThreshold, lingerMillis, appThreads,
          rateLimit > 0 ? ", paced to " + rateLimit + "/s" : "");
      case LOGPRODUCER -> String.format(Locale.ROOT,
          "%s, sendThreads %d, total %s, batch %s, linger %d ms, %d threads%s%s",
          Report.compressionName(compression, compressionLevel), sendThreads, Report.bytes(totalSizeInBytes),
          Report.bytes(batchSizeInBytes), lingerMillis, appThreads,
          rateLimit > 0 ? ", paced to " + rateLimit + "/s" : "", stripes > 0 ? ", " + stripes + " stripes" : "")
          + (recordBytes > 0 ? ", " + recordBytes + " B records" : "");
    };
  }
}
