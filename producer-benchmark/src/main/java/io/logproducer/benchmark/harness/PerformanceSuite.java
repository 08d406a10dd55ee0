package io.logproducer.benchmark.harness;

import io.logproducer.Compression;
import io.logproducer.benchmark.harness.RunSpec.Client;
import io.logproducer.benchmark.report.History;
import io.logproducer.benchmark.report.PerformanceReport;
import io.logproducer.benchmark.report.Report;
import io.logproducer.benchmark.report.SuiteData;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.net.URLDecoder;
import java.net.URLEncoder;
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
 * The standard performance suite: the reference workload end to end, through the real producer, through the
 * OpenTelemetry Java SDK and through the Aliyun Log Java producer, to a sink in its own JVM (OTLP/HTTP for the first
 * two, SLS PutLogs for the Aliyun producer); the published sweeps; how cost grows with the record size and the
 * application threads; a JFR profile; the JMH micro-benchmarks and {@code SendBenchmark}'s sweeps; then
 * {@code docs/PERFORMANCE.md} with tables and PNG charts.
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
 * <p><b>Method.</b> Every run is a fresh producer JVM ({@link HarnessMain}), so its CPU, GC and allocation numbers
 * are its own; it warms up with a first producer instance, then measures a second one. One sink JVM per protocol
 * serves the whole suite (both the same kind of server with the same JVM options); each run's delivered count is
 * checked against the records its sink counted while the run's JVM lived.
 *
 * <p>The Aliyun runs get a class path of their own ({@link #aliyunClasspath}): {@code target/aliyun-lib/} (the
 * Aliyun producer and what only it depends on: protobuf-java 2.5.0, guava 27, httpclient 4.5, fastjson) in front of
 * {@code benchmarks.jar}, which does not contain them.
 */
public final class PerformanceSuite {

  static final int[] SEND_THREADS = {1, 2, 4, 8, 16, 32};
  static final long[] TOTAL_SIZES = {25L * RunSpec.MIB, 50L * RunSpec.MIB, 100L * RunSpec.MIB, 200L * RunSpec.MIB};
  static final int[] BATCH_SIZES = {512 * 1024, RunSpec.MIB, 2 * RunSpec.MIB, 4 * RunSpec.MIB};
  public static final Compression[] COMPRESSIONS = {Compression.NONE, Compression.GZIP, Compression.LZ4, Compression.ZSTD};
  /**
   * How cost grows with the record: raw bytes per record ({@link SizedWorkload}); 0 is the reference record itself
   * (~580 B, {@code io.logproducer.examples.Workload}).
   */
  static final int[] RECORD_BYTES = {100, 0, 4 * 1024, 64 * 1024};
  static final int[] RECORD_BYTES_QUICK = {100, 0, 64 * 1024};
  /** How cost grows with the application: threads calling send (10 is the reference). */
  static final int[] APP_THREADS = {1, 2, 4, 10, 32, 64};
  static final int[] APP_THREADS_QUICK = {10, 64};
  /** The tuned OpenTelemetry SDK: queue and export batch (chosen by a sweep during development, see the report). */
  static final int OTEL_TUNED_QUEUE = 65_536;
  static final int OTEL_TUNED_BATCH = 8_192;
  /** The Aliyun Log Java producer: IO threads swept ({@code ioThreadCount}). */
  static final int[] ALIYUN_IO_THREADS = {1, 2, 4, 8};
  static final int[] ALIYUN_IO_THREADS_QUICK = {1, 4};
  /**
   * The Aliyun producer's settings for throughput, as its own performance test uses them: 3 MiB batches of up to
   * 40,960 logs (its maximum), linger 2 s, 100 MiB of buffer (its default), lz4 (its SDK's default compression).
   */
  static final int ALIYUN_BATCH_SIZE = 3 * RunSpec.MIB;
  static final int ALIYUN_BATCH_COUNT = 40_960;
  /** Where the Aliyun producer's own class path is copied, next to benchmarks.jar (see the module's pom). */
  static final String ALIYUN_LIB = "aliyun-lib";
  /**
   * Given to every child JVM (sink, producer runs, JMH forks, the soak receiver): zstd-jni and lz4-java load JNI
   * libraries, which JDK 24+ warns about ("A restricted method in java.lang.System has been called") unless native
   * access is enabled. The children are started with {@code -cp}, so the jar manifest's
   * {@code Enable-Native-Access} does not apply to them. Every JDK from 17 on accepts the option (17 introduced it
   * with the foreign function API's incubator) and the children run a JDK 17+ (this JVM's java binary), so it is
   * always passed.
   */
  public static final String ENABLE_NATIVE_ACCESS = "--enable-native-access=ALL-UNNAMED";
  /**
   * The sink's JVM: heap touched up front so that page faults of fresh heap do not land in the measurements (the
   * nodelay property only matters for a JDK-HttpServer-based sink).
   */
  static final List<String> SINK_JVM_ARGS = List.of("-Xms2g", "-Xmx2g", "-XX:+AlwaysPreTouch",
      "-Dsun.net.httpserver.nodelay=true");

  private final Options options;
  private final PrintStream out = System.out;
  private final List<Sample> samples = new ArrayList<>();
  private final Path dataDir;
  private SinkProcess sink;
  /** The SLS PutLogs sink for the Aliyun runs; started with the OTLP sink when the plan has Aliyun runs. */
  private SinkProcess slsSink;
  private int runNumber;
  private int plannedRuns;
  private final long suiteStart = System.nanoTime();
  /** Wall time of each child run, for the time budget. */
  private final List<Double> runSeconds = new ArrayList<>();
  /** Times a fixed piece of work before and after each run: a slowed machine marks the run disturbed. */
  private final SpeedProbe probe = new SpeedProbe();
  /** A run during which other processes used more than this much CPU (% of one core) is "disturbed". */
  static final double DISTURBED_PERCENT = 25;
  /** What the JMH part takes, seconds (for the time budget): the benchmarks, then SendBenchmark's sweeps. */
  static final double JMH_SECONDS = 190 + 150;
  /** The same with {@code --quick}. */
  static final double JMH_SECONDS_QUICK = 55 + 35;

  /** One run of the suite: which section asked for it, what ran, what it measured. */
  public record Sample(String section, RunSpec spec, RunResult result) {

    String toTsv() {
      List<String> s = new ArrayList<>();
      spec.toMap().forEach((k, v) -> s.add(k + "=" + URLEncoder.encode(v, StandardCharsets.UTF_8)));
      return section + "\t" + String.join(" ", s) + "\t" + result.format();
    }

    static Sample fromTsv(String line) {
      String[] f = line.split("\t", 3);
      Map<String, String> m = new LinkedHashMap<>();
      for (String kv : f[1].split(" ")) {
        int eq = kv.indexOf('=');
        m.put(kv.substring(0, eq), URLDecoder.decode(kv.substring(eq + 1), StandardCharsets.UTF_8));
      }
      return new Sample(f[0], RunSpec.fromMap(m), RunResult.parse(f[2]));
    }
  }

  record Options(Path docs, boolean quick, boolean skipJmh, double warmup, double duration, int repeats,
      int sweepPasses, double budgetMinutes, boolean reportOnly, boolean jmhOnly, String java, String classpath,
      List<String> adhoc, String note) {
  }

  private PerformanceSuite(Options options) {
    this.options = options;
    this.dataDir = options.docs().resolve("perf-data");
  }

  public static void main(String[] args) throws Exception {
    Options o = parse(args);
    new PerformanceSuite(o).run();
  }

  static Options parse(String[] args) throws IOException {
    Path docs = null;
    boolean quick = false;
    boolean skipJmh = false;
    boolean reportOnly = false;
    boolean jmhOnly = false;
    double warmup = -1;
    double duration = -1;
    int repeats = -1;
    int passes = -1;
    double budget = -1;
    List<String> adhoc = new ArrayList<>();
    String note = "";
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--run" -> adhoc.add(args[++i]);
        case "--docs" -> docs = Path.of(args[++i]);
        case "--quick" -> quick = true;
        case "--skip-jmh" -> skipJmh = true;
        case "--report-only" -> reportOnly = true;
        case "--jmh-only" -> jmhOnly = true;
        case "--warmup" -> warmup = Double.parseDouble(args[++i]);
        case "--duration" -> duration = Double.parseDouble(args[++i]);
        case "--repeats" -> repeats = Integer.parseInt(args[++i]);
        case "--passes" -> passes = Integer.parseInt(args[++i]);
        case "--budget-minutes" -> budget = Double.parseDouble(args[++i]);
        case "--note" -> note = args[++i];
        case "-h", "--help" -> {
          System.out.println("usage: PerformanceSuite [--docs DIR] [--quick] [--skip-jmh] [--warmup S] "
              + "[--duration S] [--repeats N] [--passes N] [--budget-minutes M] [--report-only] [--jmh-only] "
              + "[--note TEXT] [--run 'key=value …']…");
          System.exit(0);
        }
        default -> throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    if (docs == null) {
      docs = repositoryRoot().resolve("docs");
    }
    if (warmup < 0) {
      warmup = quick ? 1.5 : 4;
    }
    if (duration < 0) {
      duration = quick ? 3 : 6;
    }
    if (repeats < 0) {
      repeats = quick ? 1 : 3;
    }
    if (passes < 0) {
      passes = quick ? 1 : 2;
    }
    if (budget < 0) {
      // --quick stays a few-minute smoke run: no waiting for a quiet machine, no reruns beyond what fits
      budget = quick ? 4.5 : 22;
    }
    String java = ProcessHandle.current().info().command().orElse("java");
    return new Options(docs, quick, skipJmh, warmup, duration, repeats, passes, budget, reportOnly, jmhOnly, java,
        classpath(), adhoc, note);
  }

  /** The directory holding {@code mvnw} and {@code producer-benchmark}, searched upwards from the working dir. */
  static Path repositoryRoot() {
    Path p = Path.of("").toAbsolutePath();
    for (Path q = p; q != null; q = q.getParent()) {
      if (Files.isDirectory(q.resolve("producer-benchmark")) && Files.exists(q.resolve("pom.xml"))) {
        return q;
      }
    }
    return p;
  }

  /** The classpath child JVMs need: this JVM's, or (under exec:java) the class loader's URLs. */
  static String classpath() {
    String cp = System.getProperty("java.class.path", "");
    if (cp.contains("benchmarks.jar") || cp.contains("producer-benchmark")) {
      return cp;
    }
    List<String> entries = new ArrayList<>();
    ClassLoader cl = PerformanceSuite.class.getClassLoader();
    while (cl != null) {
      if (cl instanceof URLClassLoader u) {
        for (URL url : u.getURLs()) {
          try {
            entries.add(Path.of(url.toURI()).toString());
          } catch (URISyntaxException | IllegalArgumentException e) {
            // skip
          }
        }
      }
      cl = cl.getParent();
    }
    if (entries.isEmpty()) {
      return cp;
    }
    String joined = String.join(File.pathSeparator, entries);
    System.setProperty("java.class.path", joined); // JMH forks with this
    return joined;
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
      samples.addAll(readSamples(results));
      PerformanceReport.load(options.docs(), samples, JmhRunner.load(jmhFile), jfrFile, readMeta()).write();
      out.println("wrote " + options.docs().resolve("PERFORMANCE.md"));
      return;
    }
    if (!options.adhoc().isEmpty()) {
      runAdhoc();
      return;
    }
    Files.deleteIfExists(results);
    Files.deleteIfExists(jfrFile);
    Files.deleteIfExists(dataDir.resolve("profile.tsv"));
    out.println("logproducer performance suite");
    machine.forEach((k, v) -> out.println("  " + k + ": " + v));
    out.printf(Locale.ROOT, "  runs: %.0f s warm-up + %.0f s measured each, %d sample(s) per headline setting%s%n",
        options.warmup(), options.duration(), options.repeats(), options.quick() ? " (quick)" : "");
    plannedRuns = plannedRuns();
    out.printf(Locale.ROOT, "  up to %d end-to-end runs (about %.0f minutes), then JMH; time budget %.0f minutes%n",
        plannedRuns, plannedRuns * (options.warmup() + options.duration() + 4) / 60, options.budgetMinutes());

    String aliyunCp = aliyunClasspath(options.classpath()); // fails now rather than after the other runs
    sink = new SinkProcess(options.java(), options.classpath(),
        SINK_JVM_ARGS, 4);
    out.println("  sink: OtlpReceiverMain at " + sink.endpoint() + " (pid " + sink.pid() + ")");
    Map<String, String> meta = new LinkedHashMap<>();
    try {
      startSlsSink();
      out.println("  SLS sink (Aliyun runs): SlsReceiverMain at " + slsSink.endpoint() + " (pid " + slsSink.pid()
          + "); Aliyun class path: " + aliyunCp.split(File.pathSeparator).length + " entries");
      RunSpec base = RunSpec.reference().withTiming(options.warmup(), options.duration());
      probe.warmUp();

      section("calibration", "Workload generation alone (no client)");
      run("calibration", base.withClient(Client.GENERATE).withLabel("generate only"), results);

      // Sweeps run in passes (every setting once, then again), so that drifts of the machine hit all settings
      // alike; identical settings seen in an earlier sweep are reused, not rerun.
      section("sendThreads", "sendThreads sweep (lz4, total 100 MiB, batch 2 MiB)");
      int[] sendThreads = options.quick() ? new int[] {1, 4, 16} : SEND_THREADS;
      for (int pass = 0; pass < options.sweepPasses(); pass++) {
        for (int st : sendThreads) {
          run("sendThreads", base.withSendThreads(st).withLabel("sendThreads " + st), results);
        }
      }
      int bestThreads = pickUnblocked(sendThreads, samplesOf("sendThreads"));
      meta.put("standardSendThreads", Integer.toString(bestThreads));
      out.println("  → standard sendThreads for the other sweeps (fewest with which send() never waited for buffer "
          + "space): " + bestThreads);
      RunSpec std = base.withSendThreads(bestThreads);

      section("batchSize", "batchSizeInBytes sweep (lz4, sendThreads " + bestThreads + ", total 100 MiB)");
      int[] batches = options.quick() ? new int[] {RunSpec.MIB, 2 * RunSpec.MIB} : BATCH_SIZES;
      for (int pass = 0; pass < options.sweepPasses(); pass++) {
        for (int b : batches) {
          run("batchSize", std.withBatchSize(b).withLabel("batch " + Report.bytes(b)), results);
        }
      }
      int bestBatch = base.batchSizeInBytes(); // the reference's 2 MiB: the published tables' setting
      meta.put("standardBatchSize", Integer.toString(bestBatch));

      section("totalSize", "totalSizeInBytes sweep (lz4, sendThreads " + bestThreads + ", batch 2 MiB)");
      long[] totals = options.quick() ? new long[] {25L * RunSpec.MIB, 100L * RunSpec.MIB} : TOTAL_SIZES;
      for (int pass = 0; pass < options.sweepPasses(); pass++) {
        for (long t : totals) {
          run("totalSize", std.withTotalSize(t).withLabel("total " + Report.bytes(t)), results);
        }
      }

      RunSpec head = std.withBatchSize(bestBatch);
      section("compression", "compression (sendThreads " + bestThreads + ", batch " + Report.bytes(bestBatch) + ")");
      for (Compression c : COMPRESSIONS) {
        for (int i = 0; i < (c == Compression.NONE ? 1 : options.repeats()); i++) { // the goals' codecs: medians
          run("compression", head.withCompression(c, 0).withLabel("logproducer " + Report.compressionName(c, 0)),
              results);
        }
      }

      // How cost grows: the headline settings (lz4) with bigger records, then with more application threads; the
      // reference point of each (580 B, 10 threads) is the compression section's lz4 run, reused.
      section("recordSize", "record-size sweep (lz4, sendThreads " + bestThreads + ", batch "
          + Report.bytes(bestBatch) + ")");
      int[] sizes = options.quick() ? RECORD_BYTES_QUICK : RECORD_BYTES;
      for (int pass = 0; pass < options.sweepPasses(); pass++) {
        for (int b : sizes) {
          run("recordSize", head.withRecordBytes(b).withLabel(b == 0 ? "reference records (~580 B)"
              : "records of " + Report.bytes(b)), results);
        }
      }
      section("appThreads", "application-thread sweep (lz4, sendThreads " + bestThreads + ", batch "
          + Report.bytes(bestBatch) + ")");
      int[] apps = options.quick() ? APP_THREADS_QUICK : APP_THREADS;
      for (int pass = 0; pass < options.sweepPasses(); pass++) {
        for (int n : apps) {
          run("appThreads", head.withAppThreads(n).withLabel(n + " application thread" + (n == 1 ? "" : "s")),
              results);
        }
      }

      section("peers", "OpenTelemetry Java SDK, same workload, same sink");
      RunSpec otel = base.withClient(Client.OTEL);
      run("peers", otel.withCompression(Compression.NONE, 0).withOtel(false, 0, 0).withLabel("OTel SDK defaults"),
          results);
      for (int i = 0; i < Math.max(1, options.repeats() - 1); i++) {
        run("peers", otel.withCompression(Compression.NONE, 0).withOtel(true, OTEL_TUNED_QUEUE, OTEL_TUNED_BATCH)
            .withLabel("OTel SDK tuned, none"), results);
      }
      run("peers", otel.withCompression(Compression.GZIP, 0).withOtel(true, OTEL_TUNED_QUEUE, OTEL_TUNED_BATCH)
          .withLabel("OTel SDK tuned, gzip"), results);

      section("aliyun", "Aliyun Log Java producer, same workload, SLS PutLogs sink (lz4, IO threads swept)");
      RunSpec aliyun = aliyunBase(base);
      for (int io : aliyunIoThreads()) {
        run("aliyun", aliyun.withSendThreads(io).withLabel("Aliyun lz4, ioThreads " + io), results);
      }
      // its best IO-thread count gets as many samples as logproducer's headline settings
      int bestIo = bestAliyunIoThreads();
      meta.put("aliyunBestIoThreads", Integer.toString(bestIo));
      for (int i = 1; i < options.repeats(); i++) {
        run("aliyun", aliyun.withSendThreads(bestIo).withLabel("Aliyun lz4, ioThreads " + bestIo), results);
      }

      section("latency", "send() latency with the budget not exhausted (paced)");
      double best = median("compression", s -> s.spec().compression() == Compression.LZ4);
      long paced = Math.max(10_000, Math.round(best * 0.5 / 10_000) * 10_000);
      meta.put("pacedRate", Long.toString(paced));
      run("latency", head.withRateLimit(paced).withLabel("lz4 paced to " + Report.count(paced) + "/s"), results);
      long low = Math.max(10_000, Math.round(best * 0.1 / 10_000) * 10_000);
      run("latency", head.withRateLimit(low).withLabel("lz4 paced to " + Report.count(low) + "/s"), results);

      section("profile", "JFR profile of the headline configuration (lz4)");
      run("profile", head.withJfr(true).withLabel("lz4, JFR profile"), results, jfrFile);

      section("calibration", "Workload generation alone, again (machine stability check)");
      run("calibration", base.withClient(Client.GENERATE).withLabel("generate only (end)"), results);
    } finally {
      sink.close();
      if (slsSink != null) {
        slsSink.close();
      }
    }
    // when and where: the report shows these, never the machine it is regenerated on
    meta.put("measured", java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'", Locale.ROOT)
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
    meta.put("suiteSeconds", Long.toString(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - suiteStart)));
    meta.put("options", (options.quick() ? "--quick " : "") + "warmup " + options.warmup() + " s, duration "
        + options.duration() + " s, repeats " + options.repeats());
    writeMeta(meta);
    PerformanceReport report = PerformanceReport.load(options.docs(), samples, jmh, jfrFile, meta);
    if (!options.quick() && !options.skipJmh()) { // a full run: its headline joins the history
      History.append(dataDir.resolve(History.FILE), report.historyRow(options.note()));
      report = PerformanceReport.load(options.docs(), samples, jmh, null, meta);
    }
    report.write();
    out.printf(Locale.ROOT, "%nwrote %s (suite took %s)%n", options.docs().resolve("PERFORMANCE.md"),
        Report.nanos(System.nanoTime() - suiteStart));
  }

  /**
   * Runs the {@code --run} specs (each {@code key=value …} over the reference settings, keys as in
   * {@link RunSpec#toMap()}, e.g. {@code --run 'sendThreads=2 compression=zstd stripes=8'}) and prints their
   * summaries; writes no report. For experiments.
   */
  private void runAdhoc() throws Exception {
    plannedRuns = options.adhoc().size();
    sink = new SinkProcess(options.java(), options.classpath(),
        SINK_JVM_ARGS, 4);
    Path results = dataDir.resolve("adhoc.tsv");
    try {
      if (options.adhoc().stream().anyMatch(r -> r.toUpperCase(Locale.ROOT).contains("CLIENT=ALIYUN"))) {
        aliyunClasspath(options.classpath());
        startSlsSink();
      }
      for (String run : options.adhoc()) {
        Map<String, String> m = RunSpec.reference().withTiming(options.warmup(), options.duration()).toMap();
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
   * The Aliyun runs' settings over {@code base} (the reference workload and timing): lz4, 3 MiB / 40,960-log batches,
   * linger 2 s, 100 MiB buffer; {@code sendThreads} is its {@code ioThreadCount}.
   */
  public static RunSpec aliyunBase(RunSpec base) {
    return base.withClient(Client.ALIYUN).withCompression(Compression.LZ4, 0).withBatchSize(ALIYUN_BATCH_SIZE)
        .withBatchCountThreshold(ALIYUN_BATCH_COUNT).withLinger(2_000).withTotalSize(100L * RunSpec.MIB);
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
      slsSink = new SinkProcess(options.java(), options.classpath(), SINK_JVM_ARGS, 4, SinkProcess.SLS_MAIN);
    }
  }

  /**
   * The class path of an Aliyun run: the jars of {@code target/aliyun-lib/} (next to {@code benchmarks.jar}, or the
   * module's when run from classes), then {@code classpath}. They come first so that the Aliyun SDK's generated
   * protobuf 2.5 classes find the protobuf-java runtime they were generated for, whatever else the benchmark jar may
   * bring one day.
   */
  static String aliyunClasspath(String classpath) throws IOException {
    Path dir = null;
    for (String e : classpath.split(File.pathSeparator)) {
      if (e.endsWith("benchmarks.jar")) {
        dir = Path.of(e).toAbsolutePath().getParent().resolve(ALIYUN_LIB);
        break;
      }
    }
    if (dir == null) {
      dir = repositoryRoot().resolve("producer-benchmark").resolve("target").resolve(ALIYUN_LIB);
    }
    List<String> jars = new ArrayList<>();
    if (Files.isDirectory(dir)) {
      try (var files = Files.list(dir)) {
        files.filter(f -> f.toString().endsWith(".jar")).map(Path::toString).sorted().forEach(jars::add);
      }
    }
    if (jars.stream().noneMatch(j -> j.contains("aliyun-log-producer"))) {
      throw new IOException("the Aliyun producer's class path is missing (" + dir + "): build it with "
          + "./mvnw -q -DskipTests -f producer-benchmark/pom.xml package");
    }
    jars.add(classpath);
    return String.join(File.pathSeparator, jars);
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
    // how cost grows: record sizes and application threads, less the reference point of each (reused)
    r += options.quick() ? p * (RECORD_BYTES_QUICK.length - 1 + APP_THREADS_QUICK.length - 1)
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

  /** {@code key=value} lines of {@code meta.properties}, in file order; empty when the file does not exist. */
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

  /** The samples of a {@code results.tsv}, in file order. */
  public static List<Sample> readSamples(Path results) throws IOException {
    List<Sample> l = new ArrayList<>();
    for (String line : Files.readAllLines(results, StandardCharsets.UTF_8)) {
      if (!line.isBlank()) {
        l.add(Sample.fromTsv(line));
      }
    }
    return l;
  }

  private void section(String id, String title) {
    out.printf(Locale.ROOT, "%n== %s [%s elapsed]%n", title, Report.nanos(System.nanoTime() - suiteStart));
  }

  private List<Sample> samplesOf(String name) {
    return samples.stream().filter(s -> s.section().equals(name)).toList();
  }

  /**
   * The fewest send threads with which the application threads never waited for buffer space (in every pass):
   * send threads exist to keep requests in flight while earlier ones wait for the receiver; once {@code send} never
   * blocks, more of them only add runnable threads (and connections). Falls back to the largest setting.
   */
  public static int pickUnblocked(int[] sendThreads, List<Sample> sweep) {
    for (int st : sendThreads) {
      List<Sample> l = sweep.stream().filter(s -> s.spec().sendThreads() == st).toList();
      boolean never = !l.isEmpty() && l.stream().allMatch(s -> s.result().getLong("sendBlockedNanos")
          < 0.005 * s.spec().appThreads() * s.result().seconds() * 1e9);
      if (never) {
        return st;
      }
    }
    return sendThreads[sendThreads.length - 1];
  }

  private double median(String section, java.util.function.Predicate<Sample> filter) {
    return Report.median(samples.stream().filter(s -> s.section().equals(section)).filter(filter)
        .mapToDouble(s -> s.result().recordsPerSec()).toArray());
  }

  private void run(String section, RunSpec spec, Path results) throws IOException, InterruptedException {
    run(section, spec, results, null);
  }

  /**
   * Runs one spec in a child JVM and records the sample; or reuses a sample of the identical settings that an
   * earlier section measured and this section has not used yet. A run disturbed by other processes (they used more
   * than {@link #DISTURBED_PERCENT} % of a core meanwhile) is repeated once when the time budget allows; the less
   * disturbed of the two is kept.
   */
  private void run(String section, RunSpec spec, Path results, Path jfrFile) throws IOException, InterruptedException {
    String key = specKey(spec);
    long have = samples.stream().filter(x -> x.section().equals(section) && specKey(x.spec()).equals(key)).count();
    Sample reusable = jfrFile != null ? null : samples.stream()
        .filter(x -> !x.section().equals(section) && specKey(x.spec()).equals(key) && !x.result().has("reusedFrom"))
        .skip(have).findFirst().orElse(null);
    if (reusable != null) {
      Sample s = new Sample(section, spec, reusable.result().with("reusedFrom", reusable.section()));
      record(s, results);
      out.printf(Locale.ROOT, "[--/%d] %s — same settings as a %s run: reused%n        → %s%n", plannedRuns,
          spec.label(), reusable.section(), summary(spec, reusable.result()));
      return;
    }
    runNumber++;
    out.printf(Locale.ROOT, "[%2d/%d] %s — %s%n", runNumber, plannedRuns, spec.label(), spec.describe());
    RunResult r = probedRun(spec, jfrFile);
    double others = othersPercent(r);
    double slowdown = r.getDouble("machineSlowdown");
    if (disturbance(r) > 1 && spec.client() != Client.GENERATE) {
      String why = others > DISTURBED_PERCENT
          ? String.format(Locale.ROOT, "other processes used %.0f%% of a core during the run", others)
          : String.format(Locale.ROOT, "the machine ran %.0f%% slower than its fastest (speed probe)",
              100 * (slowdown - 1));
      if (slackSeconds() > averageRunSeconds() + 15) {
        out.printf(Locale.ROOT, "        disturbed: %s; once more%n", why);
        RunResult again = probedRun(spec, jfrFile);
        if (disturbance(again) < disturbance(r)) {
          r = again;
        }
        r = r.with("rerun", true);
      } else {
        out.printf(Locale.ROOT, "        disturbed: %s (no time left to repeat)%n", why);
      }
    }
    record(new Sample(section, spec, r), results);
  }

  /** One child run after waiting for a quiet machine, with the machine's speed probed before and after it. */
  private RunResult probedRun(RunSpec spec, Path jfrFile) throws IOException, InterruptedException {
    waitForQuietMachine();
    double before = waitForFullSpeed();
    long t0 = System.nanoTime();
    RunResult r = runChild(spec, jfrFile);
    runSeconds.add((System.nanoTime() - t0) / 1e9);
    double after = probe.measure();
    r = r.with("machineSlowdown", String.format(Locale.ROOT, "%.3f", probe.slowdown(before, after)));
    out.println("        → " + summary(spec, r));
    return r;
  }

  /**
   * Probes the machine's speed and, while it is slowed (see {@link SpeedProbe}), waits and probes again: up to 30 s,
   * and only as long as the time budget has slack.
   *
   * @return the last probe, ns per record
   */
  private double waitForFullSpeed() throws InterruptedException {
    double maxWait = Math.min(30, slackSeconds() - 10);
    long deadline = System.nanoTime() + (long) (Math.max(0, maxWait) * 1e9);
    double ns = probe.measure();
    boolean told = false;
    while (ns > SpeedProbe.SLOW * probe.fastest() && System.nanoTime() < deadline) {
      if (!told) {
        out.printf(Locale.ROOT, "        waiting for the machine to run at full speed (speed probe %.2f× the "
            + "fastest)…%n", ns / probe.fastest());
        told = true;
      }
      Thread.sleep(1000);
      ns = probe.measure();
    }
    if (told) {
      out.printf(Locale.ROOT, "        (speed probe %.2f× the fastest, running)%n", ns / probe.fastest());
    }
    return ns;
  }

  /**
   * How disturbed a run was, 1 at either threshold: other processes' CPU against {@link #DISTURBED_PERCENT}, the
   * machine's slowdown (see {@link SpeedProbe}) against {@link SpeedProbe#SLOW}; the larger.
   */
  public static double disturbance(RunResult r) {
    double slow = r.has("machineSlowdown") ? (r.getDouble("machineSlowdown") - 1) / (SpeedProbe.SLOW - 1) : 0;
    return Math.max(othersPercent(r) / DISTURBED_PERCENT, slow);
  }

  private void record(Sample s, Path results) throws IOException {
    samples.add(s);
    Files.writeString(results, s.toTsv() + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE,
        StandardOpenOption.APPEND);
  }

  /** The settings that define a measurement (label and profiling excluded). */
  public static String specKey(RunSpec spec) {
    Map<String, String> m = new LinkedHashMap<>(spec.toMap());
    m.remove("label");
    m.remove("jfr");
    return m.toString();
  }

  /**
   * CPU other processes used during a run's measured phase, % of one core; 0 when unknown (no whole-machine figure,
   * or a run too short for two sink reports, whose CPU would otherwise count as someone else's).
   */
  public static double othersPercent(RunResult r) {
    if (!r.has("machineBusyPercent") || (r.has("sinkRecords") && !r.has("sinkCpuPercent"))) {
      return 0;
    }
    return r.getDouble("machineBusyPercent") - r.cpuPercent() - r.getDouble("sinkCpuPercent");
  }

  private double averageRunSeconds() {
    return runSeconds.isEmpty() ? options.warmup() + options.duration() + 4
        : runSeconds.stream().mapToDouble(Double::doubleValue).average().orElse(0);
  }

  /** Seconds left in the budget after the planned remainder (runs and JMH). */
  private double slackSeconds() {
    double elapsed = (System.nanoTime() - suiteStart) / 1e9;
    double remaining = Math.max(0, plannedRuns - runNumber) * averageRunSeconds()
        + (options.skipJmh() ? 0 : options.quick() ? JMH_SECONDS_QUICK : JMH_SECONDS);
    return options.budgetMinutes() * 60 - elapsed - remaining;
  }

  static String summary(RunSpec spec, RunResult r) {
    LatencyHistogram h = r.latency();
    StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%s records/s, %s raw MB/s, %s wire MB/s, CPU %s",
        Report.count(r.recordsPerSec()), Report.f1(r.rawMbPerSec()), Report.f1(r.wireMbPerSec()),
        Report.pct(r.cpuPercent())));
    if (h.count() > 0) {
      sb.append(", send p50/p99/p999 ").append(Report.nanos(h.percentile(50))).append('/')
          .append(Report.nanos(h.percentile(99))).append('/').append(Report.nanos(h.percentile(99.9)));
    }
    if (spec.client() != Client.GENERATE) {
      sb.append(r.verified() ? ", sink ✓ " : ", sink MISMATCH ").append(Report.count(r.getLong("sinkRecords")));
      long lost = r.getLong("emitted") - r.delivered();
      if (lost > 0) {
        sb.append(String.format(Locale.ROOT, ", NOT DELIVERED %s of %s (%.1f%%)", Report.count(lost),
            Report.count(r.getLong("emitted")), r.lossPercent()));
      }
    }
    if (r.getLong("totalSizeInBytes") > 0 && r.getLong("peakBufferedBytes") > r.getLong("totalSizeInBytes")) {
      sb.append(", PEAK BUFFERED ABOVE totalSizeInBytes");
    }
    if (r.has("sysNanos") && r.delivered() > 0) {
      sb.append(String.format(Locale.ROOT, ", %.2f µs/record (sys %.0f%%), %.1f ctx switches/1000 records",
          r.cpuMicrosPerRecord(), 100.0 * r.getLong("sysNanos") / Math.max(1, r.getLong("cpuNanos")),
          1000.0 * (r.getLong("ctxVoluntary") + r.getLong("ctxInvoluntary")) / r.delivered()));
    }
    if (r.has("sinkCpuPercent")) {
      sb.append(", sink CPU ").append(Report.pct(r.getDouble("sinkCpuPercent")));
    }
    if (r.has("machineBusyPercent")) {
      sb.append(", machine ").append(Report.pct(r.getDouble("machineBusyPercent")));
    }
    if (r.has("machineSlowdown")) {
      sb.append(", speed probe ").append(r.get("machineSlowdown")).append("× the fastest");
    }
    return sb.toString();
  }

  /**
   * Waits while other processes keep more than a third of a core busy, so that runs are comparable: up to 30 s, and
   * only as long as the time budget has slack.
   */
  private void waitForQuietMachine() throws InterruptedException {
    double maxWait = Math.min(30, slackSeconds() - 10);
    long deadline = System.nanoTime() + (long) (Math.max(0, maxWait) * 1e9);
    boolean told = false;
    while (true) {
      long[] a = MachineInfo.cpuJiffies();
      Thread.sleep(500);
      long[] b = MachineInfo.cpuJiffies();
      double busy = MachineInfo.busyPercent(a, b);
      // the idle sink uses ~1 %; anything above is someone else
      if (Double.isNaN(busy) || busy < 35 || System.nanoTime() > deadline) {
        if (told) {
          out.printf(Locale.ROOT, "        (machine busy at %.0f%%, running anyway)%n", busy);
        }
        return;
      }
      if (!told) {
        out.printf(Locale.ROOT, "        waiting for other processes to quiet down (machine busy at %.0f%% of a core)…%n",
            busy);
        told = true;
      }
    }
  }

  private RunResult runChild(RunSpec spec, Path jfrFile) throws IOException, InterruptedException {
    boolean aliyun = spec.client() == Client.ALIYUN;
    if (aliyun) {
      startSlsSink();
    }
    SinkProcess sink = aliyun ? slsSink : this.sink;
    SinkStats before = sink.latest();
    List<String> cmd = new ArrayList<>(List.of(options.java(), ENABLE_NATIVE_ACCESS, "-Xms4g", "-Xmx4g"));
    if (!options.quick()) {
      // heap touched up front, so that its page faults do not land in the measurements; --quick (a smoke test)
      // saves the second or two this takes per run
      cmd.add("-XX:+AlwaysPreTouch");
    }
    cmd.addAll(List.of("-cp", aliyun ? aliyunClasspath(options.classpath()) : options.classpath(),
        HarnessMain.class.getName(), "--endpoint", sink.endpoint()));
    if (jfrFile != null) {
      cmd.add("--jfrFile");
      cmd.add(jfrFile.toAbsolutePath().toString());
    }
    cmd.addAll(spec.toArgs());
    Path log = dataDir.resolve("logs").resolve(String.format(Locale.ROOT, "run-%02d.log", runNumber));
    Files.createDirectories(log.getParent());
    Process p = new ProcessBuilder(cmd).redirectError(log.toFile()).start();
    RunResult result = null;
    long measureStart = 0;
    long measureEnd = 0;
    long[] jiffiesStart = null;
    long[] jiffiesEnd = null;
    boolean console = System.console() != null;
    try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = in.readLine()) != null) {
        if (line.startsWith("PHASE measure")) {
          measureStart = System.nanoTime();
          jiffiesStart = MachineInfo.cpuJiffies();
        } else if (line.startsWith("PROGRESS")) {
          RunResult pr = RunResult.parse(line.substring("PROGRESS ".length()));
          String text = String.format(Locale.ROOT, "        %-7s %5ss  %,12.0f records/s%s", pr.get("phase"),
              pr.get("t"), pr.getDouble("rate"), pr.getLong("buffered") < 0 ? ""
                  : String.format(Locale.ROOT, "  buffered %6.1f MB", pr.getLong("buffered") / 1e6));
          if (console) {
            out.print("\r" + text);
            out.flush();
          } else if (pr.get("phase").equals("measure")) {
            out.println(text);
          }
        } else if (line.startsWith("RESULT")) {
          measureEnd = System.nanoTime();
          jiffiesEnd = MachineInfo.cpuJiffies();
          result = RunResult.parse(line);
        }
      }
    }
    if (console) {
      out.print("\r" + " ".repeat(80) + "\r");
    }
    if (!p.waitFor(60, TimeUnit.SECONDS)) {
      p.destroyForcibly();
    }
    if (result == null) {
      List<String> tail = Files.readAllLines(log, StandardCharsets.UTF_8);
      throw new IOException("run '" + spec.label() + "' produced no result (exit " + p.exitValue() + "); "
          + "log " + log + ":\n  " + String.join("\n  ", tail.subList(Math.max(0, tail.size() - 20), tail.size())));
    }
    if (spec.client() == Client.GENERATE) {
      return result;
    }
    long expected = before.records() + result.getLong("warmupDelivered") + result.delivered();
    SinkStats after = sink.awaitRecords(expected, 5_000);
    result = result.with("sinkRecords", after.records() - before.records() - result.getLong("warmupDelivered"))
        .with("sinkWireBytes", after.wireBytes() - before.wireBytes())
        .with("sinkBad", after.bad() - before.bad());
    if (result.getLong("wireBytes") < 0) {
      // The client does not count request bytes (OTel): the sink's, apportioned to the measured phase's records.
      long all = result.delivered() + result.getLong("warmupDelivered");
      result = result.with("wireBytes", all == 0 ? 0
          : Math.round((after.wireBytes() - before.wireBytes()) * (double) result.delivered() / all))
          .with("wireBytesFromSink", true);
    }
    List<SinkStats> window = sink.between(measureStart, measureEnd);
    if (window.size() >= 2) {
      SinkStats a = window.get(0);
      SinkStats b = window.get(window.size() - 1);
      long records = b.records() - a.records();
      double seconds = (b.readAtNanos() - a.readAtNanos()) / 1e9;
      if (records > 0) {
        result = result.with("sinkCpuNanosPerRecord", String.format(Locale.ROOT, "%.1f",
            (b.cpuNanos() - a.cpuNanos()) / (double) records));
      }
      if (seconds > 0) {
        result = result.with("sinkCpuPercent", String.format(Locale.ROOT, "%.1f",
            100.0 * (b.cpuNanos() - a.cpuNanos()) / 1e9 / seconds));
      }
    }
    double machineBusy = MachineInfo.busyPercent(jiffiesStart, jiffiesEnd);
    if (!Double.isNaN(machineBusy)) {
      result = result.with("machineBusyPercent", String.format(Locale.ROOT, "%.1f", machineBusy));
    }
    return result;
  }

}
