package io.logproducer.benchmark.harness;

import io.logproducer.Compression;
import io.logproducer.benchmark.harness.RunSpec.Client;
import io.logproducer.benchmark.report.History;
import io.logproducer.benchmark.report.PerformanceReport;
import io.logproducer.benchmark.report.Report;
import io.logproducer.benchmark.report.SuiteData;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.IntStream;
import java.util.stream.LongStream;
import java.util.stream.Stream;

/**
 * The standard performance suite: the reference workload end to end, through the real producer,
 * through the OpenTelemetry Java SDK and through the Aliyun Log Java producer, to a sink in its own
 * JVM (OTLP/HTTP for the first two, SLS PutLogs for the Aliyun producer); the published sweeps; how
 * cost grows with the record size and the application threads; a JFR profile; the JMH
 * micro-benchmarks and {@code SendBenchmark}'s sweeps; then {@code docs/PERFORMANCE.md} with tables
 * and PNG charts.
 *
 * <pre>
 * producer-benchmark/run-suite.sh            # builds, then runs this (about 20 minutes on 2 cores)
 * java -cp producer-benchmark/target/benchmarks.jar io.logproducer.benchmark.harness.PerformanceSuite --help
 * </pre>
 *
 * <p>The options are {@link SuiteOptions}'s; {@code --run 'k=v …'} runs ad-hoc settings (keys of
 * {@link RunSpec#toMap()}) and writes no report; a full run adds a row to {@code
 * docs/perf-data/history.tsv} with its {@code --note}.
 *
 * <p><b>Method.</b> Every run is a fresh producer JVM ({@link HarnessMain}), so its CPU, GC and
 * allocation numbers are its own; it warms up with a first producer instance, then measures a
 * second one. One sink JVM per protocol serves the whole suite (both the same kind of server with
 * the same JVM options); each run's delivered count is checked against the records its sink counted
 * while the run's JVM lived.
 *
 * <p>The Aliyun runs get a class path of their own ({@link SuiteOptions#aliyunClasspath}): {@code
 * target/aliyun-lib/} (the Aliyun producer and what only it depends on: protobuf-java 2.5.0, guava
 * 27, httpclient 4.5, fastjson) in front of {@code benchmarks.jar}, which does not contain them.
 */
public final class PerformanceSuite {

  static final int[] SEND_THREADS = {1, 2, 4, 8, 16, 32};
  static final long[] TOTAL_SIZES = {
    25L * RunSpec.MIB, 50L * RunSpec.MIB, 100L * RunSpec.MIB, 200L * RunSpec.MIB
  };
  static final int[] BATCH_SIZES = {512 * 1024, RunSpec.MIB, 2 * RunSpec.MIB, 4 * RunSpec.MIB};
  public static final Compression[] COMPRESSIONS = {
    Compression.NONE, Compression.GZIP, Compression.LZ4, Compression.ZSTD
  };

  /**
   * How cost grows with the record: raw bytes per record ({@link SizedWorkload}); 0 is the
   * reference record itself (~580 B, the kit's {@code ReferenceWorkload}).
   */
  static final int[] RECORD_BYTES = {100, 0, 4 * 1024, 64 * 1024};

  static final int[] RECORD_BYTES_QUICK = {100, 0, 64 * 1024};

  /** How cost grows with the application: threads calling send (10 is the reference). */
  static final int[] APP_THREADS = {1, 2, 4, 10, 32, 64};

  static final int[] APP_THREADS_QUICK = {10, 64};

  /**
   * The tuned OpenTelemetry SDK: queue and export batch (chosen by a sweep during development, see
   * the report).
   */
  static final int OTEL_TUNED_QUEUE = 65_536;

  static final int OTEL_TUNED_BATCH = 8_192;

  /** The Aliyun Log Java producer: IO threads swept ({@code ioThreadCount}). */
  static final int[] ALIYUN_IO_THREADS = {1, 2, 4, 8};

  static final int[] ALIYUN_IO_THREADS_QUICK = {1, 4};

  /**
   * The Aliyun producer's settings for throughput, as its own performance test uses them: 3 MiB
   * batches of up to 40,960 logs (its maximum), linger 2 s, 100 MiB of buffer (its default), lz4
   * (its SDK's default compression).
   */
  static final int ALIYUN_BATCH_SIZE = 3 * RunSpec.MIB;

  static final int ALIYUN_BATCH_COUNT = 40_960;

  /**
   * Where the Aliyun producer's own class path is copied, next to benchmarks.jar (see the module's
   * pom).
   */
  static final String ALIYUN_LIB = "aliyun-lib";

  /**
   * Given to every child JVM (sink, producer runs, JMH forks, the soak receiver): zstd-jni and
   * lz4-java load JNI libraries, which JDK 24+ warns about ("A restricted method in
   * java.lang.System has been called") unless native access is enabled. The children are started
   * with {@code -cp}, so the jar manifest's {@code Enable-Native-Access} does not apply to them.
   * Every JDK from 17 on accepts the option (17 introduced it with the foreign function API's
   * incubator) and the children run a JDK 17+ (this JVM's java binary), so it is always passed.
   */
  public static final String ENABLE_NATIVE_ACCESS = "--enable-native-access=ALL-UNNAMED";

  /**
   * The sink's JVM: heap touched up front so that page faults of fresh heap do not land in the
   * measurements (the nodelay property only matters for a JDK-HttpServer-based sink).
   */
  static final List<String> SINK_JVM_ARGS =
      List.of("-Xms2g", "-Xmx2g", "-XX:+AlwaysPreTouch", "-Dsun.net.httpserver.nodelay=true");

  /**
   * A run during which other processes used more than this much CPU (% of one core) is "disturbed".
   */
  static final double DISTURBED_PERCENT = 25;

  /**
   * What the JMH part takes, seconds (for the time budget): the benchmarks, then SendBenchmark's
   * sweeps; the second figure with {@code --quick}.
   */
  static final double JMH_SECONDS = 190 + 150, JMH_SECONDS_QUICK = 55 + 35;

  private final SuiteOptions options;
  private final PrintStream out = System.out;
  private final List<Sample> samples = new ArrayList<>();
  private final Path dataDir;

  /** Where the samples go: results.tsv, adhoc.tsv or long-run.tsv. */
  private Path results;

  private SinkProcess sink;

  /** The SLS PutLogs sink for the Aliyun runs, started when the plan has Aliyun runs. */
  private SinkProcess slsSink;

  private int runNumber;
  private int plannedRuns;
  private final long suiteStart = System.nanoTime();

  /** Wall time of each child run, for the time budget. */
  private final List<Double> runSeconds = new ArrayList<>();

  /** Times a fixed piece of work before and after each run: a slowed machine marks it disturbed. */
  private final SpeedProbe probe = new SpeedProbe();

  private PerformanceSuite(SuiteOptions options) {
    this.options = options;
    this.dataDir = options.docs.resolve("perf-data");
    this.results = dataDir.resolve("results.tsv");
  }

  public static void main(String[] args) throws Exception {
    new PerformanceSuite(SuiteOptions.parse(args)).run();
  }

  private interface Body {
    void run() throws Exception;
  }

  private void run() throws Exception {
    Files.createDirectories(dataDir);
    Map<String, String> machine = MachineInfo.collect();
    if (options.jmhOnly) {
      runJmh();
    }
    if (options.reportOnly || options.jmhOnly) {
      writePage();
    } else if (!options.adhoc.isEmpty()) {
      runAdhoc();
    } else if (options.longRuns) {
      results = dataDir.resolve(LongRuns.FILE);
      withSinks(
          false,
          () -> {
            probe.warmUp();
            int sendThreads = Integer.parseInt(readMeta().getOrDefault("standardSendThreads", "8"));
            plannedRuns =
                1 + (options.quick ? 2 : 2 * LongRuns.COMPRESSIONS.size() * options.repeats);
            LongRuns.measure(this::run, options, machine, sendThreads, results);
          });
      out.println("wrote " + results);
      results = dataDir.resolve("results.tsv");
      samples.clear();
      writePage();
    } else {
      Files.deleteIfExists(results);
      Files.deleteIfExists(jfrFile());
      Files.deleteIfExists(dataDir.resolve("profile.tsv"));
      printPlan(machine);
      // fails now rather than after the other runs
      String aliyunCp = SuiteOptions.aliyunClasspath(options.classpath);
      Map<String, String> meta = new LinkedHashMap<>();
      withSinks(
          true,
          () -> {
            out.printf(
                "  sink: OtlpSinkMain at %s (pid %d)%n  SLS sink (Aliyun runs): SlsReceiverMain at"
                    + " %s (pid %d); Aliyun class path: %d entries%n",
                sink.endpoint(),
                sink.pid(),
                slsSink.endpoint(),
                slsSink.pid(),
                aliyunCp.split(File.pathSeparator).length);
            probe.warmUp();
            measure(RunSpec.reference().withTiming(options.warmup, options.duration), meta);
          });
      finish(machine, meta);
    }
  }

  /** Runs {@code body} with the OTLP sink (and the SLS sink if {@code sls}), then stops them. */
  private void withSinks(boolean sls, Body body) throws Exception {
    sink = new SinkProcess(options.java, options.classpath, SINK_JVM_ARGS, 4);
    try {
      if (sls) {
        startSlsSink();
      }
      body.run();
    } finally {
      sink.close();
      if (slsSink != null) {
        slsSink.close();
      }
    }
  }

  private Path jfrFile() {
    return dataDir.resolve("profile.jfr");
  }

  private Path jmhFile() {
    return dataDir.resolve("jmh.tsv");
  }

  /** Fills the page from the data already in {@code docs/perf-data/}, measuring nothing. */
  private void writePage() throws IOException {
    samples.addAll(Sample.readAll(results));
    PerformanceReport.load(options.docs, samples, JmhRunner.load(jmhFile()), jfrFile(), readMeta())
        .write();
    out.println("wrote " + options.docs.resolve("PERFORMANCE.md"));
  }

  /** The JMH benchmarks, then SendBenchmark's sweeps, each saved to perf-data. */
  private List<JmhRunner.Row> runJmh() throws Exception {
    section("JMH micro-benchmarks");
    JmhRunner runner = new JmhRunner(out, options.quick);
    List<JmhRunner.Row> jmh = runner.runAll();
    JmhRunner.save(jmh, jmhFile());
    section("JMH SendBenchmark sweeps (one @Param at a time)");
    JmhRunner.saveSweeps(runner.runSendSweeps(), dataDir.resolve(JmhRunner.SWEEPS_FILE));
    return jmh;
  }

  private void printPlan(Map<String, String> machine) {
    out.println("logproducer performance suite");
    machine.forEach((k, v) -> out.println("  " + k + ": " + v));
    plannedRuns = plannedRuns();
    out.printf(
        Locale.ROOT,
        "  runs: %.0f s warm-up + %.0f s measured each, %d sample(s) per headline setting%s%n"
            + "  up to %d end-to-end runs (about %.0f minutes), then JMH; time budget %.0f minutes%n",
        options.warmup,
        options.duration,
        options.repeats,
        options.quick ? " (quick)" : "",
        plannedRuns,
        plannedRuns * (options.warmup + options.duration + 4) / 60,
        options.budgetMinutes);
  }

  /** The suite's end-to-end runs, in order; {@code meta} receives the settings the sweeps chose. */
  private void measure(RunSpec base, Map<String, String> meta) throws Exception {
    section("Workload generation alone (no client)");
    run("calibration", base.withClient(Client.GENERATE).withLabel("generate only"));

    RunSpec std = settingSweeps(base, meta);
    int bestBatch = base.batchSizeInBytes(); // the reference's 2 MiB: the published tables' setting
    RunSpec head = std.withBatchSize(bestBatch);
    section(
        "compression (sendThreads %d, batch %s)"
            .formatted(std.sendThreads(), Report.bytes(bestBatch)));
    for (Compression c : COMPRESSIONS) { // the goals' codecs: medians
      RunSpec spec =
          head.withCompression(c, 0).withLabel("logproducer " + Report.compressionName(c, 0));
      repeat(c == Compression.NONE ? 1 : options.repeats, "compression", spec);
    }

    costGrowth(head);
    peers(base, meta);
    latencyAndProfile(head, meta);
    section("Workload generation alone, again (machine stability check)");
    run("calibration", base.withClient(Client.GENERATE).withLabel("generate only (end)"));
  }

  /**
   * The sendThreads, batchSizeInBytes and totalSizeInBytes sweeps; {@return the headline settings
   * they chose}
   */
  private RunSpec settingSweeps(RunSpec base, Map<String, String> meta) throws Exception {
    // Sweeps run in passes (every setting once, then again), so that drifts of the machine hit all
    // settings alike; identical settings seen in an earlier sweep are reused, not rerun.
    section("sendThreads sweep (lz4, total 100 MiB, batch 2 MiB)");
    int[] sendThreads = options.quick ? new int[] {1, 4, 16} : SEND_THREADS;
    sweep(
        "sendThreads",
        IntStream.of(sendThreads)
            .mapToObj(st -> base.withSendThreads(st).withLabel("sendThreads " + st)));
    int bestThreads = Runs.pickUnblocked(sendThreads, samplesOf("sendThreads"));
    meta.put("standardSendThreads", Integer.toString(bestThreads));
    out.println(
        "  → standard sendThreads for the other sweeps (fewest with which send() never waited for"
            + " buffer space): "
            + bestThreads);
    RunSpec std = base.withSendThreads(bestThreads);

    section("batchSizeInBytes sweep (lz4, sendThreads " + bestThreads + ", total 100 MiB)");
    int[] batches = options.quick ? new int[] {RunSpec.MIB, 2 * RunSpec.MIB} : BATCH_SIZES;
    sweep(
        "batchSize",
        IntStream.of(batches)
            .mapToObj(b -> std.withBatchSize(b).withLabel("batch " + Report.bytes(b))));
    // the reference's 2 MiB: the published tables' setting
    meta.put("standardBatchSize", Integer.toString(base.batchSizeInBytes()));

    section("totalSizeInBytes sweep (lz4, sendThreads " + bestThreads + ", batch 2 MiB)");
    long[] totals =
        options.quick ? new long[] {25L * RunSpec.MIB, 100L * RunSpec.MIB} : TOTAL_SIZES;
    sweep(
        "totalSize",
        LongStream.of(totals)
            .mapToObj(t -> std.withTotalSize(t).withLabel("total " + Report.bytes(t))));
    return std;
  }

  /**
   * How cost grows: the headline settings (lz4) with bigger records, then with more application
   * threads; the reference point of each (580 B, 10 threads) is the compression section's lz4 run,
   * reused.
   */
  private void costGrowth(RunSpec head) throws Exception {
    String at =
        "(lz4, sendThreads %d, batch %s)"
            .formatted(head.sendThreads(), Report.bytes(head.batchSizeInBytes()));
    section("record-size sweep " + at);
    sweep(
        "recordSize",
        IntStream.of(options.quick ? RECORD_BYTES_QUICK : RECORD_BYTES)
            .mapToObj(
                b ->
                    head.withRecordBytes(b)
                        .withLabel(
                            b == 0
                                ? "reference records (~580 B)"
                                : "records of " + Report.bytes(b))));
    section("application-thread sweep " + at);
    sweep(
        "appThreads",
        IntStream.of(options.quick ? APP_THREADS_QUICK : APP_THREADS)
            .mapToObj(
                n ->
                    head.withAppThreads(n)
                        .withLabel(n + " application thread" + (n == 1 ? "" : "s"))));
  }

  /** The OpenTelemetry SDK and the Aliyun producer, same workload. */
  private void peers(RunSpec base, Map<String, String> meta) throws Exception {
    section("OpenTelemetry Java SDK, same workload, same sink");
    RunSpec otel = base.withClient(Client.OTEL).withCompression(Compression.NONE, 0);
    RunSpec tuned = otel.withOtel(true, OTEL_TUNED_QUEUE, OTEL_TUNED_BATCH);
    run("peers", otel.withOtel(false, 0, 0).withLabel("OTel SDK defaults"));
    repeat(Math.max(1, options.repeats - 1), "peers", tuned.withLabel("OTel SDK tuned, none"));
    run("peers", tuned.withCompression(Compression.GZIP, 0).withLabel("OTel SDK tuned, gzip"));

    section("Aliyun Log Java producer, same workload, SLS PutLogs sink (lz4, IO threads swept)");
    RunSpec aliyun = aliyunBase(base);
    for (int io : aliyunIoThreads()) {
      run("aliyun", aliyun.withSendThreads(io).withLabel("Aliyun lz4, ioThreads " + io));
    }
    // its best IO-thread count (highest median records/s) gets as many samples as logproducer's
    // headline settings
    int bestIo =
        IntStream.of(aliyunIoThreads())
            .boxed()
            .max(
                Comparator.comparingDouble(
                    io ->
                        median(
                            "aliyun", s -> s.spec().sendThreads() == io && s.result().verified())))
            .orElseThrow();
    meta.put("aliyunBestIoThreads", Integer.toString(bestIo));
    repeat(
        options.repeats - 1,
        "aliyun",
        aliyun.withSendThreads(bestIo).withLabel("Aliyun lz4, ioThreads " + bestIo));
  }

  /** send() latency paced below the headline rate, and the JFR profile of the headline settings. */
  private void latencyAndProfile(RunSpec head, Map<String, String> meta) throws Exception {
    section("send() latency with the budget not exhausted (paced)");
    double best = median("compression", s -> s.spec().compression() == Compression.LZ4);
    long paced = Math.max(10_000, Math.round(best * 0.5 / 10_000) * 10_000);
    meta.put("pacedRate", Long.toString(paced));
    long low = Math.max(10_000, Math.round(best * 0.1 / 10_000) * 10_000);
    for (long rate : new long[] {paced, low}) {
      run(
          "latency",
          head.withRateLimit(rate).withLabel("lz4 paced to " + Report.count(rate) + "/s"));
    }
    section("JFR profile of the headline configuration (lz4)");
    run("profile", head.withJfr(true).withLabel("lz4, JFR profile"), jfrFile());
  }

  /**
   * Records when and where, runs JMH unless skipped, writes meta.properties, the history row and
   * the page.
   */
  private void finish(Map<String, String> machine, Map<String, String> meta) throws Exception {
    // when and where: the report shows these, never the machine it is regenerated on
    meta.put(
        "measured",
        DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'", Locale.ROOT)
            .format(ZonedDateTime.now(ZoneOffset.UTC)));
    machine.forEach((k, v) -> meta.put(SuiteData.MACHINE_PREFIX + k, v));
    List<JmhRunner.Row> jmh = options.skipJmh ? JmhRunner.load(jmhFile()) : runJmh();
    meta.put(
        "suiteSeconds",
        Long.toString(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - suiteStart)));
    meta.put(
        "options",
        (options.quick ? "--quick " : "")
            + "warmup %s s, duration %s s, repeats %d"
                .formatted(options.warmup, options.duration, options.repeats));
    Files.write(
        dataDir.resolve("meta.properties"),
        meta.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toList(),
        StandardCharsets.UTF_8);
    PerformanceReport report = PerformanceReport.load(options.docs, samples, jmh, jfrFile(), meta);
    if (!options.quick && !options.skipJmh) { // a full run: its headline joins the history
      History.append(dataDir.resolve(History.FILE), report.historyRow(options.note));
      report = PerformanceReport.load(options.docs, samples, jmh, null, meta);
    }
    report.write();
    out.printf(
        Locale.ROOT,
        "%nwrote %s (suite took %s)%n",
        options.docs.resolve("PERFORMANCE.md"),
        Report.nanos(System.nanoTime() - suiteStart));
  }

  /**
   * Runs the {@code --run} specs (each {@code key=value …} over the reference settings, keys as in
   * {@link RunSpec#toMap()}, e.g. {@code --run 'sendThreads=2 compression=zstd stripes=8'}) and
   * prints their summaries; writes no report. For experiments.
   */
  private void runAdhoc() throws Exception {
    plannedRuns = options.adhoc.size();
    results = dataDir.resolve("adhoc.tsv");
    boolean aliyun =
        options.adhoc.stream().anyMatch(r -> r.toUpperCase(Locale.ROOT).contains("CLIENT=ALIYUN"));
    if (aliyun) {
      SuiteOptions.aliyunClasspath(options.classpath);
    }
    withSinks(
        aliyun,
        () -> {
          for (String run : options.adhoc) {
            Map<String, String> m =
                RunSpec.reference().withTiming(options.warmup, options.duration).toMap();
            m.put("label", run);
            for (String kv : run.trim().split("\\s+")) {
              int eq = kv.indexOf('=');
              if (eq <= 0) {
                throw new IllegalArgumentException(
                    "--run expects key=value pairs, got '" + kv + "'");
              }
              m.put(kv.substring(0, eq), kv.substring(eq + 1));
            }
            RunSpec spec = RunSpec.fromMap(m);
            Path jfr = spec.jfr() ? dataDir.resolve("adhoc-" + (runNumber + 1) + ".jfr") : null;
            run("adhoc", spec, jfr);
            if (jfr != null) {
              out.println("        JFR: " + jfr);
            }
          }
        });
  }

  /**
   * The Aliyun runs' settings over {@code base} (the reference workload and timing): lz4, 3 MiB /
   * 40,960-log batches, linger 2 s, 100 MiB buffer; {@code sendThreads} is its {@code
   * ioThreadCount}.
   */
  public static RunSpec aliyunBase(RunSpec base) {
    return base.withClient(Client.ALIYUN)
        .withCompression(Compression.LZ4, 0)
        .withBatchSize(ALIYUN_BATCH_SIZE)
        .withTotalSize(100L * RunSpec.MIB)
        .with("batchCountThreshold", ALIYUN_BATCH_COUNT, "lingerMillis", 2_000L);
  }

  /** The Aliyun producer's IO-thread counts swept: two with {@code --quick}. */
  private int[] aliyunIoThreads() {
    return options.quick ? ALIYUN_IO_THREADS_QUICK : ALIYUN_IO_THREADS;
  }

  private void startSlsSink() throws IOException {
    if (slsSink == null) {
      slsSink =
          new SinkProcess(options.java, options.classpath, SINK_JVM_ARGS, 4, SinkProcess.SLS_MAIN);
    }
  }

  /** End-to-end runs the plan will make (runs reused from an earlier sweep not counted). */
  private int plannedRuns() {
    int p = options.sweepPasses;
    int r = 2; // calibration at the start and at the end
    // the sweeps, less the 2 MiB / 100 MiB points that repeat the sendThreads sweep's
    r += options.quick ? p * (3 + 2 + 2) - p * 2 : p * (6 + 4 + 4) - p * 2;
    r += 1 + 3 * options.repeats; // compression
    // how cost grows: record sizes and application threads, less the reference point of each
    // (reused)
    r +=
        options.quick
            ? p * (RECORD_BYTES_QUICK.length - 1 + APP_THREADS_QUICK.length - 1)
            : p * (RECORD_BYTES.length - 1 + APP_THREADS.length - 1);
    r += 2 + Math.max(1, options.repeats - 1); // peers
    r += aliyunIoThreads().length + options.repeats - 1; // the Aliyun producer
    r += 2 + 1; // latency, profile
    return r;
  }

  private Map<String, String> readMeta() throws IOException {
    return readMeta(dataDir.resolve("meta.properties"));
  }

  /**
   * {@code key=value} lines of {@code meta.properties}, in file order; empty when the file does not
   * exist.
   */
  public static Map<String, String> readMeta(Path f) throws IOException {
    Map<String, String> m = new LinkedHashMap<>();
    for (String line :
        Files.exists(f) ? Files.readAllLines(f, StandardCharsets.UTF_8) : List.<String>of()) {
      int eq = line.indexOf('=');
      if (eq > 0) {
        m.put(line.substring(0, eq), line.substring(eq + 1));
      }
    }
    return m;
  }

  private void section(String title) {
    out.printf(
        Locale.ROOT, "%n== %s [%s elapsed]%n", title, Report.nanos(System.nanoTime() - suiteStart));
  }

  private List<Sample> samplesOf(String name) {
    return samples.stream().filter(s -> s.section().equals(name)).toList();
  }

  private double median(String section, Predicate<Sample> filter) {
    return Report.median(
        samplesOf(section).stream()
            .filter(filter)
            .mapToDouble(s -> s.result().recordsPerSec())
            .toArray());
  }

  /** {@link SuiteOptions#sweepPasses} passes over {@code points}. */
  private void sweep(String section, Stream<RunSpec> points) throws Exception {
    List<RunSpec> list = points.toList();
    for (int pass = 0; pass < options.sweepPasses; pass++) {
      for (RunSpec spec : list) {
        run(section, spec);
      }
    }
  }

  private void repeat(int times, String section, RunSpec spec) throws Exception {
    for (int i = 0; i < times; i++) {
      run(section, spec);
    }
  }

  void run(String section, RunSpec spec) throws IOException, InterruptedException {
    run(section, spec, null);
  }

  /**
   * Runs one spec in a child JVM and records the sample; or reuses a sample of the identical
   * settings that an earlier section measured and this section has not used yet. A run disturbed by
   * other processes (they used more than {@link #DISTURBED_PERCENT} % of a core meanwhile) is
   * repeated once when the time budget allows; the less disturbed of the two is kept.
   */
  private void run(String section, RunSpec spec, Path jfrFile)
      throws IOException, InterruptedException {
    String key = Runs.specKey(spec);
    long have =
        samples.stream()
            .filter(x -> x.section().equals(section) && Runs.specKey(x.spec()).equals(key))
            .count();
    Sample reusable =
        jfrFile != null
            ? null
            : samples.stream()
                .filter(
                    x ->
                        !x.section().equals(section)
                            && Runs.specKey(x.spec()).equals(key)
                            && !x.result().has("reusedFrom"))
                .skip(have)
                .findFirst()
                .orElse(null);
    if (reusable != null) {
      Sample s =
          new Sample(section, spec, reusable.result().with("reusedFrom", reusable.section()));
      record(s);
      out.printf(
          Locale.ROOT,
          "[--/%d] %s — same settings as a %s run: reused%n        → %s%n",
          plannedRuns,
          spec.label(),
          reusable.section(),
          ChildRun.summary(spec, reusable.result()));
      return;
    }
    runNumber++;
    out.printf(
        Locale.ROOT, "[%2d/%d] %s — %s%n", runNumber, plannedRuns, spec.label(), spec.describe());
    RunResult r = probedRun(spec, jfrFile);
    double others = Runs.othersPercent(r);
    double slowdown = r.getDouble("machineSlowdown");
    if (Runs.disturbance(r) > 1 && spec.client() != Client.GENERATE) {
      String why =
          others > DISTURBED_PERCENT
              ? String.format(
                  Locale.ROOT, "other processes used %.0f%% of a core during the run", others)
              : String.format(
                  Locale.ROOT,
                  "the machine ran %.0f%% slower than its fastest (speed probe)",
                  100 * (slowdown - 1));
      if (slackSeconds() > averageRunSeconds() + 15) {
        out.printf(Locale.ROOT, "        disturbed: %s; once more%n", why);
        RunResult again = probedRun(spec, jfrFile);
        if (Runs.disturbance(again) < Runs.disturbance(r)) {
          r = again;
        }
        r = r.with("rerun", true);
      } else {
        out.printf(Locale.ROOT, "        disturbed: %s (no time left to repeat)%n", why);
      }
    }
    record(new Sample(section, spec, r));
  }

  /**
   * One child run after waiting for a quiet machine, with the machine's speed probed before and
   * after it.
   */
  private RunResult probedRun(RunSpec spec, Path jfrFile) throws IOException, InterruptedException {
    double maxWait = Math.min(30, slackSeconds() - 10);
    ChildRun.awaitQuietMachine(maxWait, out);
    double before = ChildRun.awaitFullSpeed(probe, maxWait, out);
    long t0 = System.nanoTime();
    boolean aliyun = spec.client() == Client.ALIYUN;
    if (aliyun) {
      startSlsSink();
    }
    Path log =
        dataDir.resolve("logs").resolve(String.format(Locale.ROOT, "run-%02d.log", runNumber));
    RunResult r =
        new ChildRun(
                options.java,
                aliyun ? SuiteOptions.aliyunClasspath(options.classpath) : options.classpath,
                !options.quick,
                aliyun ? slsSink : sink,
                out)
            .run(spec, jfrFile, log);
    runSeconds.add((System.nanoTime() - t0) / 1e9);
    double after = probe.measure();
    r =
        r.with(
            "machineSlowdown", String.format(Locale.ROOT, "%.3f", probe.slowdown(before, after)));
    out.println("        → " + ChildRun.summary(spec, r));
    return r;
  }

  private void record(Sample s) throws IOException {
    samples.add(s);
    Files.writeString(
        results,
        s.toTsv() + "\n",
        StandardCharsets.UTF_8,
        StandardOpenOption.CREATE,
        StandardOpenOption.APPEND);
  }

  private double averageRunSeconds() {
    return runSeconds.isEmpty()
        ? options.warmup + options.duration + 4
        : runSeconds.stream().mapToDouble(Double::doubleValue).average().orElse(0);
  }

  /** Seconds left in the budget after the planned remainder (runs and JMH). */
  private double slackSeconds() {
    double elapsed = (System.nanoTime() - suiteStart) / 1e9;
    double remaining =
        Math.max(0, plannedRuns - runNumber) * averageRunSeconds()
            + (options.skipJmh ? 0 : options.quick ? JMH_SECONDS_QUICK : JMH_SECONDS);
    return options.budgetMinutes * 60 - elapsed - remaining;
  }
}
