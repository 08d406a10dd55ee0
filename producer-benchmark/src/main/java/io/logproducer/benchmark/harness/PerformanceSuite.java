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
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

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
 * java -cp producer-benchmark/target/benchmarks.jar io.logproducer.benchmark.harness.PerformanceSuite [options]
 *   --docs DIR        where PERFORMANCE.md and the charts go (default: ./docs of the repository)
 *   --quick           short runs and fewer points (a smoke test, under 5 minutes)
 *   --skip-jmh        no JMH benchmarks
 *   --warmup S        warm-up seconds per run (default 4)
 *   --duration S      measured seconds per run (default 6)
 *   --repeats N       samples of each headline configuration (default 3; the median is reported)
 *   --passes N        passes over each sweep (default 2; medians are reported)
 *   --budget-minutes M  time budget: waits for a quiet machine and repeats of disturbed runs only while the
 *                     rest still fits (default 22; 4.5 with --quick)
 *   --run 'k=v …'     run these settings only (keys of RunSpec.toMap()), print results, write no report
 *   --report-only     regenerate the report from docs/perf-data without running anything
 *   --jmh-only        rerun the JMH part only, then regenerate the report
 *   --note TEXT       what changed since the last full run: the note of this run's row in the history
 *                     (docs/perf-data/history.tsv, which every full run extends)
 * </pre>
 *
 * <p><b>Method.</b> Every run is a fresh producer JVM ({@link HarnessMain}), so its CPU, GC and
 * allocation numbers are its own; it warms up with a first producer instance, then measures a
 * second one. One sink JVM per protocol serves the whole suite (both the same kind of server with
 * the same JVM options); each run's delivered count is checked against the records its sink counted
 * while the run's JVM lived.
 *
 * <p>The Aliyun runs get a class path of their own ({@link #aliyunClasspath}): {@code
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

  private final SuiteOptions options;
  private final PrintStream out = System.out;
  private final List<Sample> samples = new ArrayList<>();
  private final Path dataDir;
  private SinkProcess sink;

  /**
   * The SLS PutLogs sink for the Aliyun runs; started with the OTLP sink when the plan has Aliyun
   * runs.
   */
  private SinkProcess slsSink;

  private int runNumber;
  private int plannedRuns;
  private final long suiteStart = System.nanoTime();

  /** Wall time of each child run, for the time budget. */
  private final List<Double> runSeconds = new ArrayList<>();

  /**
   * Times a fixed piece of work before and after each run: a slowed machine marks the run
   * disturbed.
   */
  private final SpeedProbe probe = new SpeedProbe();

  /**
   * A run during which other processes used more than this much CPU (% of one core) is "disturbed".
   */
  static final double DISTURBED_PERCENT = 25;

  /**
   * What the JMH part takes, seconds (for the time budget): the benchmarks, then SendBenchmark's
   * sweeps.
   */
  static final double JMH_SECONDS = 190 + 150;

  /** The same with {@code --quick}. */
  static final double JMH_SECONDS_QUICK = 55 + 35;

  private PerformanceSuite(SuiteOptions options) {
    this.options = options;
    this.dataDir = options.docs().resolve("perf-data");
  }

  public static void main(String[] args) throws Exception {
    SuiteOptions o = SuiteOptions.parse(args);
    new PerformanceSuite(o).run();
  }

  private void run() throws Exception {
    Files.createDirectories(dataDir);
    Path results = dataDir.resolve("results.tsv");
    Path jmhFile = dataDir.resolve("jmh.tsv");
    Path jfrFile = dataDir.resolve("profile.jfr");
    Map<String, String> machine = MachineInfo.collect();
    if (options.jmhOnly()) {
      JmhRunner runner = new JmhRunner(out, options.quick());
      JmhRunner.save(runner.runAll(), jmhFile);
      JmhRunner.saveSweeps(runner.runSendSweeps(), dataDir.resolve(JmhRunner.SWEEPS_FILE));
    }
    if (options.reportOnly() || options.jmhOnly()) {
      writePage(results, jmhFile, jfrFile);
      return;
    }
    if (!options.adhoc().isEmpty()) {
      runAdhoc();
      return;
    }
    if (options.longRuns()) {
      Path file = dataDir.resolve(LongRuns.FILE);
      sink = new SinkProcess(options.java(), options.classpath(), SINK_JVM_ARGS, 4);
      try {
        probe.warmUp();
        int sendThreads = Integer.parseInt(readMeta().getOrDefault("standardSendThreads", "8"));
        plannedRuns =
            1 + (options.quick() ? 2 : 2 * LongRuns.COMPRESSIONS.size() * options.repeats());
        LongRuns.measure(this::run, options, machine, sendThreads, file);
      } finally {
        sink.close();
      }
      out.println("wrote " + file);
      samples.clear();
      writePage(results, jmhFile, jfrFile);
      return;
    }
    Files.deleteIfExists(results);
    Files.deleteIfExists(jfrFile);
    Files.deleteIfExists(dataDir.resolve("profile.tsv"));
    printPlan(machine);
    String aliyunCp =
        SuiteOptions.aliyunClasspath(
            options.classpath()); // fails now rather than after the other runs
    sink = new SinkProcess(options.java(), options.classpath(), SINK_JVM_ARGS, 4);
    out.println("  sink: OtlpSinkMain at " + sink.endpoint() + " (pid " + sink.pid() + ")");
    Map<String, String> meta = new LinkedHashMap<>();
    try {
      startSlsSink();
      out.println(
          "  SLS sink (Aliyun runs): SlsReceiverMain at "
              + slsSink.endpoint()
              + " (pid "
              + slsSink.pid()
              + "); Aliyun class path: "
              + aliyunCp.split(File.pathSeparator).length
              + " entries");
      RunSpec base = RunSpec.reference().withTiming(options.warmup(), options.duration());
      probe.warmUp();

      measure(base, results, jfrFile, meta);
    } finally {
      sink.close();
      if (slsSink != null) {
        slsSink.close();
      }
    }
    finish(machine, meta, jmhFile, jfrFile);
  }

  /** Fills the page from the data already in {@code docs/perf-data/}, measuring nothing. */
  private void writePage(Path results, Path jmhFile, Path jfrFile) throws IOException {
    samples.addAll(Sample.readAll(results));
    PerformanceReport.load(options.docs(), samples, JmhRunner.load(jmhFile), jfrFile, readMeta())
        .write();
    out.println("wrote " + options.docs().resolve("PERFORMANCE.md"));
  }

  private void printPlan(Map<String, String> machine) {
    out.println("logproducer performance suite");
    machine.forEach((k, v) -> out.println("  " + k + ": " + v));
    out.printf(
        Locale.ROOT,
        "  runs: %.0f s warm-up + %.0f s measured each, %d sample(s) per headline setting%s%n",
        options.warmup(),
        options.duration(),
        options.repeats(),
        options.quick() ? " (quick)" : "");
    plannedRuns = plannedRuns();
    out.printf(
        Locale.ROOT,
        "  up to %d end-to-end runs (about %.0f minutes), then JMH; time budget %.0f minutes%n",
        plannedRuns,
        plannedRuns * (options.warmup() + options.duration() + 4) / 60,
        options.budgetMinutes());
  }

  /** The suite's end-to-end runs, in order; {@code meta} receives the settings the sweeps chose. */
  private void measure(RunSpec base, Path results, Path jfrFile, Map<String, String> meta)
      throws IOException, InterruptedException {
    section("calibration", "Workload generation alone (no client)");
    run("calibration", base.withClient(Client.GENERATE).withLabel("generate only"), results);

    RunSpec std = settingSweeps(base, results, meta);
    int bestBatch = base.batchSizeInBytes(); // the reference's 2 MiB: the published tables' setting
    RunSpec head = std.withBatchSize(bestBatch);
    section(
        "compression",
        "compression (sendThreads "
            + std.sendThreads()
            + ", batch "
            + Report.bytes(bestBatch)
            + ")");
    for (Compression c : COMPRESSIONS) {
      for (int i = 0;
          i < (c == Compression.NONE ? 1 : options.repeats());
          i++) { // the goals' codecs: medians
        run(
            "compression",
            head.withCompression(c, 0).withLabel("logproducer " + Report.compressionName(c, 0)),
            results);
      }
    }

    costGrowth(head, results);
    peers(base, results, meta);
    latencyAndProfile(head, results, jfrFile, meta);
    section("calibration", "Workload generation alone, again (machine stability check)");
    run("calibration", base.withClient(Client.GENERATE).withLabel("generate only (end)"), results);
  }

  /**
   * The sendThreads, batchSizeInBytes and totalSizeInBytes sweeps; {@return the headline settings
   * they chose}
   */
  private RunSpec settingSweeps(RunSpec base, Path results, Map<String, String> meta)
      throws IOException, InterruptedException {
    // Sweeps run in passes (every setting once, then again), so that drifts of the machine hit all
    // settings
    // alike; identical settings seen in an earlier sweep are reused, not rerun.
    section("sendThreads", "sendThreads sweep (lz4, total 100 MiB, batch 2 MiB)");
    int[] sendThreads = options.quick() ? new int[] {1, 4, 16} : SEND_THREADS;
    for (int pass = 0; pass < options.sweepPasses(); pass++) {
      for (int st : sendThreads) {
        run("sendThreads", base.withSendThreads(st).withLabel("sendThreads " + st), results);
      }
    }
    int bestThreads = Runs.pickUnblocked(sendThreads, samplesOf("sendThreads"));
    meta.put("standardSendThreads", Integer.toString(bestThreads));
    out.println(
        "  → standard sendThreads for the other sweeps (fewest with which send() never waited for buffer "
            + "space): "
            + bestThreads);
    RunSpec std = base.withSendThreads(bestThreads);

    section(
        "batchSize",
        "batchSizeInBytes sweep (lz4, sendThreads " + bestThreads + ", total 100 MiB)");
    int[] batches = options.quick() ? new int[] {RunSpec.MIB, 2 * RunSpec.MIB} : BATCH_SIZES;
    for (int pass = 0; pass < options.sweepPasses(); pass++) {
      for (int b : batches) {
        run("batchSize", std.withBatchSize(b).withLabel("batch " + Report.bytes(b)), results);
      }
    }
    int bestBatch = base.batchSizeInBytes(); // the reference's 2 MiB: the published tables' setting
    meta.put("standardBatchSize", Integer.toString(bestBatch));

    section(
        "totalSize", "totalSizeInBytes sweep (lz4, sendThreads " + bestThreads + ", batch 2 MiB)");
    long[] totals =
        options.quick() ? new long[] {25L * RunSpec.MIB, 100L * RunSpec.MIB} : TOTAL_SIZES;
    for (int pass = 0; pass < options.sweepPasses(); pass++) {
      for (long t : totals) {
        run("totalSize", std.withTotalSize(t).withLabel("total " + Report.bytes(t)), results);
      }
    }

    return std;
  }

  /** How cost grows: bigger records, then more application threads, at the headline settings. */
  private void costGrowth(RunSpec head, Path results) throws IOException, InterruptedException {
    int bestThreads = head.sendThreads();
    int bestBatch = head.batchSizeInBytes();
    // How cost grows: the headline settings (lz4) with bigger records, then with more application
    // threads; the
    // reference point of each (580 B, 10 threads) is the compression section's lz4 run, reused.
    section(
        "recordSize",
        "record-size sweep (lz4, sendThreads "
            + bestThreads
            + ", batch "
            + Report.bytes(bestBatch)
            + ")");
    int[] sizes = options.quick() ? RECORD_BYTES_QUICK : RECORD_BYTES;
    for (int pass = 0; pass < options.sweepPasses(); pass++) {
      for (int b : sizes) {
        run(
            "recordSize",
            head.withRecordBytes(b)
                .withLabel(b == 0 ? "reference records (~580 B)" : "records of " + Report.bytes(b)),
            results);
      }
    }
    section(
        "appThreads",
        "application-thread sweep (lz4, sendThreads "
            + bestThreads
            + ", batch "
            + Report.bytes(bestBatch)
            + ")");
    int[] apps = options.quick() ? APP_THREADS_QUICK : APP_THREADS;
    for (int pass = 0; pass < options.sweepPasses(); pass++) {
      for (int n : apps) {
        run(
            "appThreads",
            head.withAppThreads(n).withLabel(n + " application thread" + (n == 1 ? "" : "s")),
            results);
      }
    }
  }

  /** The OpenTelemetry SDK and the Aliyun producer, same workload. */
  private void peers(RunSpec base, Path results, Map<String, String> meta)
      throws IOException, InterruptedException {
    section("peers", "OpenTelemetry Java SDK, same workload, same sink");
    RunSpec otel = base.withClient(Client.OTEL);
    run(
        "peers",
        otel.withCompression(Compression.NONE, 0)
            .withOtel(false, 0, 0)
            .withLabel("OTel SDK defaults"),
        results);
    for (int i = 0; i < Math.max(1, options.repeats() - 1); i++) {
      run(
          "peers",
          otel.withCompression(Compression.NONE, 0)
              .withOtel(true, OTEL_TUNED_QUEUE, OTEL_TUNED_BATCH)
              .withLabel("OTel SDK tuned, none"),
          results);
    }
    run(
        "peers",
        otel.withCompression(Compression.GZIP, 0)
            .withOtel(true, OTEL_TUNED_QUEUE, OTEL_TUNED_BATCH)
            .withLabel("OTel SDK tuned, gzip"),
        results);

    section(
        "aliyun",
        "Aliyun Log Java producer, same workload, SLS PutLogs sink (lz4, IO threads swept)");
    RunSpec aliyun = aliyunBase(base);
    for (int io : aliyunIoThreads()) {
      run("aliyun", aliyun.withSendThreads(io).withLabel("Aliyun lz4, ioThreads " + io), results);
    }
    // its best IO-thread count gets as many samples as logproducer's headline settings
    int bestIo = bestAliyunIoThreads();
    meta.put("aliyunBestIoThreads", Integer.toString(bestIo));
    for (int i = 1; i < options.repeats(); i++) {
      run(
          "aliyun",
          aliyun.withSendThreads(bestIo).withLabel("Aliyun lz4, ioThreads " + bestIo),
          results);
    }
  }

  /** send() latency paced below the headline rate, and the JFR profile of the headline settings. */
  private void latencyAndProfile(RunSpec head, Path results, Path jfrFile, Map<String, String> meta)
      throws IOException, InterruptedException {
    section("latency", "send() latency with the budget not exhausted (paced)");
    double best = median("compression", s -> s.spec().compression() == Compression.LZ4);
    long paced = Math.max(10_000, Math.round(best * 0.5 / 10_000) * 10_000);
    meta.put("pacedRate", Long.toString(paced));
    run(
        "latency",
        head.withRateLimit(paced).withLabel("lz4 paced to " + Report.count(paced) + "/s"),
        results);
    long low = Math.max(10_000, Math.round(best * 0.1 / 10_000) * 10_000);
    run(
        "latency",
        head.withRateLimit(low).withLabel("lz4 paced to " + Report.count(low) + "/s"),
        results);

    section("profile", "JFR profile of the headline configuration (lz4)");
    run("profile", head.withJfr(true).withLabel("lz4, JFR profile"), results, jfrFile);
  }

  /**
   * Records when and where, runs JMH unless skipped, writes meta.properties, the history row and
   * the page.
   */
  private void finish(
      Map<String, String> machine, Map<String, String> meta, Path jmhFile, Path jfrFile)
      throws Exception {
    // when and where: the report shows these, never the machine it is regenerated on
    meta.put(
        "measured",
        java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'", Locale.ROOT)
            .format(java.time.ZonedDateTime.now(java.time.ZoneOffset.UTC)));
    machine.forEach((k, v) -> meta.put(SuiteData.MACHINE_PREFIX + k, v));

    List<JmhRunner.Row> jmh = JmhRunner.load(jmhFile);
    if (!options.skipJmh()) {
      section("jmh", "JMH micro-benchmarks");
      JmhRunner runner = new JmhRunner(out, options.quick());
      jmh = runner.runAll();
      JmhRunner.save(jmh, jmhFile);
      section("jmh", "JMH SendBenchmark sweeps (one @Param at a time)");
      JmhRunner.saveSweeps(runner.runSendSweeps(), dataDir.resolve(JmhRunner.SWEEPS_FILE));
    }
    meta.put(
        "suiteSeconds",
        Long.toString(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - suiteStart)));
    meta.put(
        "options",
        (options.quick() ? "--quick " : "")
            + "warmup "
            + options.warmup()
            + " s, duration "
            + options.duration()
            + " s, repeats "
            + options.repeats());
    writeMeta(meta);
    PerformanceReport report = PerformanceReport.load(options.docs(), samples, jmh, jfrFile, meta);
    if (!options.quick() && !options.skipJmh()) { // a full run: its headline joins the history
      History.append(dataDir.resolve(History.FILE), report.historyRow(options.note()));
      report = PerformanceReport.load(options.docs(), samples, jmh, null, meta);
    }
    report.write();
    out.printf(
        Locale.ROOT,
        "%nwrote %s (suite took %s)%n",
        options.docs().resolve("PERFORMANCE.md"),
        Report.nanos(System.nanoTime() - suiteStart));
  }

  /**
   * Runs the {@code --run} specs (each {@code key=value …} over the reference settings, keys as in
   * {@link RunSpec#toMap()}, e.g. {@code --run 'sendThreads=2 compression=zstd stripes=8'}) and
   * prints their summaries; writes no report. For experiments.
   */
  private void runAdhoc() throws Exception {
    plannedRuns = options.adhoc().size();
    sink = new SinkProcess(options.java(), options.classpath(), SINK_JVM_ARGS, 4);
    Path results = dataDir.resolve("adhoc.tsv");
    try {
      if (options.adhoc().stream()
          .anyMatch(r -> r.toUpperCase(Locale.ROOT).contains("CLIENT=ALIYUN"))) {
        SuiteOptions.aliyunClasspath(options.classpath());
        startSlsSink();
      }
      for (String run : options.adhoc()) {
        Map<String, String> m =
            RunSpec.reference().withTiming(options.warmup(), options.duration()).toMap();
        for (String kv : run.trim().split("\\s+")) {
          int eq = kv.indexOf('=');
          if (eq <= 0) {
            throw new IllegalArgumentException("--run expects key=value pairs, got '" + kv + "'");
          }
          m.put(kv.substring(0, eq), kv.substring(eq + 1));
        }
        m.putIfAbsent("label", run);
        if (!run.contains("label=")) {
          m.put("label", run);
        }
        RunSpec spec = RunSpec.fromMap(m);
        Path jfr = spec.jfr() ? dataDir.resolve("adhoc-" + (runNumber + 1) + ".jfr") : null;
        run("adhoc", spec, results, jfr);
        if (jfr != null) {
          out.println("        JFR: " + jfr);
        }
      }
    } finally {
      sink.close();
      if (slsSink != null) {
        slsSink.close();
      }
    }
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
        .withBatchCountThreshold(ALIYUN_BATCH_COUNT)
        .withLinger(2_000)
        .withTotalSize(100L * RunSpec.MIB);
  }

  /** The Aliyun producer's IO-thread counts swept: two with {@code --quick}. */
  private int[] aliyunIoThreads() {
    return options.quick() ? ALIYUN_IO_THREADS_QUICK : ALIYUN_IO_THREADS;
  }

  /** The IO-thread count with the highest median records/s in the Aliyun sweep. */
  private int bestAliyunIoThreads() {
    int best = aliyunIoThreads()[0];
    double rate = -1;
    for (int io : aliyunIoThreads()) {
      double r = median("aliyun", s -> s.spec().sendThreads() == io && s.result().verified());
      if (r > rate) {
        rate = r;
        best = io;
      }
    }
    return best;
  }

  private void startSlsSink() throws IOException {
    if (slsSink == null) {
      slsSink =
          new SinkProcess(
              options.java(), options.classpath(), SINK_JVM_ARGS, 4, SinkProcess.SLS_MAIN);
    }
  }

  /** End-to-end runs the plan will make (runs reused from an earlier sweep not counted). */
  private int plannedRuns() {
    int p = options.sweepPasses();
    int r = 2; // calibration at the start and at the end
    if (options.quick()) {
      r += p * (3 + 2 + 2) - p * 2; // the 2 MiB / 100 MiB points repeat the sendThreads sweep's
    } else {
      r += p * (6 + 4 + 4) - p * 2;
    }
    r += 1 + 3 * options.repeats(); // compression
    // how cost grows: record sizes and application threads, less the reference point of each
    // (reused)
    r +=
        options.quick()
            ? p * (RECORD_BYTES_QUICK.length - 1 + APP_THREADS_QUICK.length - 1)
            : p * (RECORD_BYTES.length - 1 + APP_THREADS.length - 1);
    r += 2 + Math.max(1, options.repeats() - 1); // peers
    r += aliyunIoThreads().length + options.repeats() - 1; // the Aliyun producer
    r += 2 + 1; // latency, profile
    return r;
  }

  private void writeMeta(Map<String, String> meta) throws IOException {
    List<String> lines = new ArrayList<>();
    meta.forEach((k, v) -> lines.add(k + "=" + v));
    Files.write(dataDir.resolve("meta.properties"), lines, StandardCharsets.UTF_8);
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
    if (Files.exists(f)) {
      for (String line : Files.readAllLines(f, StandardCharsets.UTF_8)) {
        int eq = line.indexOf('=');
        if (eq > 0) {
          m.put(line.substring(0, eq), line.substring(eq + 1));
        }
      }
    }
    return m;
  }

  private void section(String id, String title) {
    out.printf(
        Locale.ROOT, "%n== %s [%s elapsed]%n", title, Report.nanos(System.nanoTime() - suiteStart));
  }

  private List<Sample> samplesOf(String name) {
    return samples.stream().filter(s -> s.section().equals(name)).toList();
  }

  private double median(String section, java.util.function.Predicate<Sample> filter) {
    return Report.median(
        samples.stream()
            .filter(s -> s.section().equals(section))
            .filter(filter)
            .mapToDouble(s -> s.result().recordsPerSec())
            .toArray());
  }

  private void run(String section, RunSpec spec, Path results)
      throws IOException, InterruptedException {
    run(section, spec, results, null);
  }

  /**
   * Runs one spec in a child JVM and records the sample; or reuses a sample of the identical
   * settings that an earlier section measured and this section has not used yet. A run disturbed by
   * other processes (they used more than {@link #DISTURBED_PERCENT} % of a core meanwhile) is
   * repeated once when the time budget allows; the less disturbed of the two is kept.
   */
  private void run(String section, RunSpec spec, Path results, Path jfrFile)
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
      record(s, results);
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
    record(new Sample(section, spec, r), results);
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
                options.java(),
                aliyun ? SuiteOptions.aliyunClasspath(options.classpath()) : options.classpath(),
                !options.quick(),
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

  private void record(Sample s, Path results) throws IOException {
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
        ? options.warmup() + options.duration() + 4
        : runSeconds.stream().mapToDouble(Double::doubleValue).average().orElse(0);
  }

  /** Seconds left in the budget after the planned remainder (runs and JMH). */
  private double slackSeconds() {
    double elapsed = (System.nanoTime() - suiteStart) / 1e9;
    double remaining =
        Math.max(0, plannedRuns - runNumber) * averageRunSeconds()
            + (options.skipJmh() ? 0 : options.quick() ? JMH_SECONDS_QUICK : JMH_SECONDS);
    return options.budgetMinutes() * 60 - elapsed - remaining;
  }
}
