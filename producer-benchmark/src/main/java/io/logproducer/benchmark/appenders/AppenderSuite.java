package io.logproducer.benchmark.appenders;

import io.logproducer.benchmark.harness.MachineInfo;
import io.logproducer.benchmark.harness.PerformanceSuite;
import io.logproducer.benchmark.harness.SinkProcess;
import io.logproducer.benchmark.harness.SinkStats;
import io.logproducer.benchmark.report.AppenderSuiteResults;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The appenders side by side, each in its own JVM against one receiver in its own JVM: {@code java
 * -cp producer-benchmark/target/benchmarks.jar io.logproducer.benchmark.appenders.AppenderSuite
 * [options]} from the repository root (options: {@link AppenderSuiteOptions}). For every variant,
 * logging-thread count and regime (and the 200,000 events/s cell of our default appenders) it runs
 * {@link AppenderChild} with the variant's class path ({@link AppenderClasspath}), lets the sink
 * settle after the warm-up, starts the measured phase, and after the child stopped its framework
 * waits (bounded) until the receiver's count settles. Writes {@code
 * docs/perf-data/appender-suite.tsv} ({@link AppenderSuiteResults}); {@code run-suite.sh
 * --report-only} turns it into docs/PERFORMANCE.md's "Logging appenders".
 */
public final class AppenderSuite {

  private static final List<String> CHILD_JVM = List.of("-Xms1g", "-Xmx1g");
  private static final List<String> SINK_JVM = List.of("-Xms512m", "-Xmx512m");
  private static final long SETTLE_MILLIS = 60_000;

  private final AppenderSuiteOptions options;
  private final AppenderClasspath classpath;
  private final String java;
  private final Path work;
  private final List<AppenderSuiteResults.Run> runs = new ArrayList<>();
  private SinkProcess otlp;
  private SinkProcess sls;

  private AppenderSuite(AppenderSuiteOptions options) {
    this.options = options;
    this.classpath = new AppenderClasspath(options.target());
    this.java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    this.work = options.target().resolve("appender-work").toAbsolutePath();
  }

  /**
   * Runs the suite and writes its data file.
   *
   * @param args {@link AppenderSuiteOptions}
   * @throws Exception when a sink cannot start or the data cannot be written
   */
  public static void main(String[] args) throws Exception {
    new AppenderSuite(AppenderSuiteOptions.parse(args)).run();
  }

  private void run() throws Exception {
    long started = System.nanoTime();
    Files.createDirectories(work);
    String benchJar = options.target().resolve("benchmarks.jar").toString();
    otlp = new SinkProcess(java, benchJar, SINK_JVM, 4, SinkProcess.OTLP_MAIN);
    try {
      if (options.variants().contains(AppenderVariant.LOGBACK_ALIYUN)) {
        sls = new SinkProcess(java, benchJar, SINK_JVM, 4, SinkProcess.SLS_MAIN);
      }
      for (int rep = 1; rep <= options.runs(); rep++) {
        for (AppenderVariant v : options.variants()) {
          for (Regime regime : options.regimes()) {
            for (int threads : options.threads()) {
              int rate = regime == Regime.PACED ? AppenderSuiteOptions.pacedRate(threads) : 0;
              boolean profile =
                  options.profile()
                      && rep == 1
                      && regime == Regime.SATURATED
                      && threads == 4
                      && (v == AppenderVariant.LOGBACK_LOGPRODUCER
                          || v == AppenderVariant.LOG4J2_LOGPRODUCER);
              cell(v, threads, regime, rate, rep, profile);
            }
          }
          if (options.highRate()
              && options.regimes().contains(Regime.PACED)
              && (v == AppenderVariant.LOGBACK_LOGPRODUCER
                  || v == AppenderVariant.LOG4J2_LOGPRODUCER)) {
            cell(
                v,
                AppenderSuiteOptions.HIGH_RATE_THREADS,
                Regime.PACED,
                AppenderSuiteOptions.HIGH_RATE,
                rep,
                false);
          }
        }
      }
    } finally {
      otlp.close();
      if (sls != null) {
        sls.close();
      }
    }
    Map<String, String> m = MachineInfo.collect();
    String measured =
        ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm"))
            + " UTC; "
            + m.getOrDefault("CPU", "?")
            + ", "
            + m.getOrDefault("Cores (available to the JVM)", "?")
            + " cores, "
            + System.getProperty("java.vm.name")
            + " "
            + System.getProperty("java.vm.version");
    AppenderSuiteResults.write(
        new AppenderSuiteResults.Data(measured, options.command(), runs), options.out());
    System.out.printf(
        Locale.ROOT,
        "%d runs in %.0f s -> %s%n",
        runs.size(),
        (System.nanoTime() - started) / 1e9,
        options.out());
  }

  private void cell(AppenderVariant v, int threads, Regime regime, int rate, int rep, boolean jfr)
      throws Exception {
    SinkProcess sink = v.sink() == AppenderVariant.Sink.SLS ? sls : otlp;
    String name = v.id().replace('/', '-') + "-" + regime.id() + "-t" + threads + "-r" + rate;
    Path jfrFile = jfr ? work.resolve(name + ".jfr") : null;
    ChildSpec spec =
        new ChildSpec(
            v,
            threads,
            regime,
            options.eventsPerThread(),
            rate / (double) threads,
            options.pacedMillis(),
            options.warmupEvents() / threads,
            v.sink() == AppenderVariant.Sink.FILE ? "http://127.0.0.1:1" : sink.endpoint(),
            work.resolve(name).toString(),
            jfrFile == null ? "" : jfrFile.toString());
    System.out.printf(Locale.ROOT, "%s run %d: ", name, rep);
    System.out.flush();
    AppenderSuiteResults.Run r =
        runChild(spec, v.sink() == AppenderVariant.Sink.FILE ? null : sink, rep);
    if (r == null) {
      return;
    }
    runs.add(r);
    System.out.printf(
        Locale.ROOT,
        "logging %.0f ns/event, process %.0f ns/delivered, %.0f events/s, %.1f %% delivered%n",
        r.loggingCpuNs(),
        r.processCpuNs(),
        r.eventsPerSec(),
        100 * r.share());
    if (jfrFile != null && Files.exists(jfrFile)) {
      Path out =
          options
              .out()
              .resolveSibling(
                  AppenderSuiteResults.PROFILE_PREFIX
                      + v.framework().name().toLowerCase(Locale.ROOT)
                      + ".tsv");
      AppenderSuiteResults.writeProfile(jfrFile, out);
      System.out.println("  profile -> " + out);
    }
  }

  private AppenderSuiteResults.Run runChild(ChildSpec spec, SinkProcess sink, int rep)
      throws Exception {
    Path dir = Path.of(spec.workDir());
    Files.createDirectories(dir);
    List<String> cmd = new ArrayList<>();
    cmd.add(java);
    cmd.add(PerformanceSuite.ENABLE_NATIVE_ACCESS);
    cmd.addAll(CHILD_JVM);
    cmd.add("-cp");
    cmd.add(classpath.of(spec.variant()));
    cmd.add(AppenderChild.class.getName());
    cmd.addAll(spec.toArgs());
    Path log = dir.resolve("child.log");
    SinkStats before = sink == null ? null : sink.latest();
    Process p = new ProcessBuilder(cmd).redirectError(log.toFile()).start();
    BufferedReader out =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    long warmup = spec.warmupEventsPerThread() * spec.threads();
    String line = readUntil(out, "warm");
    if (line == null) {
      System.out.println("FAILED before the warm-up ended, see " + log);
      SinkProcess.awaitExit(p, 5);
      return null;
    }
    SinkStats atGo = sink == null ? null : settle(sink, before.records() + warmup);
    OutputStream in = p.getOutputStream();
    in.write("go\n".getBytes(StandardCharsets.US_ASCII));
    in.flush();
    line = readUntil(out, ChildResult.PREFIX);
    SinkProcess.awaitExit(p, 120);
    if (line == null) {
      System.out.println("FAILED in the measured phase, see " + log);
      return null;
    }
    ChildResult c = ChildResult.parse(line);
    long logged = warmup + c.events();
    long delivered;
    long deliveredMeasured;
    double receiverCpu = Double.NaN;
    if (sink == null) {
      delivered = c.fileLines();
      deliveredMeasured = c.fileLines() - warmup;
    } else {
      SinkStats end = settle(sink, before.records() + logged);
      delivered = end.records() - before.records();
      deliveredMeasured = end.records() - atGo.records();
      receiverCpu = (end.cpuNanos() - atGo.cpuNanos()) / (double) Math.max(1, deliveredMeasured);
    }
    double perEvent = 1.0 / Math.max(1, c.events());
    double[] groups = new double[AppenderSuiteResults.GROUPS.size()];
    for (int i = 0; i < groups.length; i++) {
      groups[i] = c.groups().getOrDefault(AppenderSuiteResults.GROUPS.get(i), 0L) * perEvent;
    }
    return new AppenderSuiteResults.Run(
        spec.variant().id(),
        spec.threads(),
        spec.regime().id(),
        (int) Math.round(spec.ratePerThread() * spec.threads()),
        rep,
        logged,
        delivered,
        (c.loggingCpuNanos() - c.pacingNanos()) * perEvent,
        c.pacingNanos() * perEvent,
        c.allocatedBytes() * perEvent,
        (c.processCpuNanos() - c.pacingNanos()) / (double) Math.max(1, deliveredMeasured),
        receiverCpu,
        deliveredMeasured / (c.windowNanos() / 1e9),
        groups,
        c.stopCpuNanos() * perEvent);
  }

  /** Reads lines until one starts with {@code prefix} (returned), or null at the end. */
  private static String readUntil(BufferedReader out, String prefix) throws IOException {
    String line;
    while ((line = out.readLine()) != null) {
      if (line.startsWith(prefix)) {
        return line;
      }
    }
    return null;
  }

  /**
   * Waits until the sink counted {@code target} records, or its count stayed the same for 3 reports
   * (a variant that dropped), at most {@link #SETTLE_MILLIS}; returns the last report.
   */
  private static SinkStats settle(SinkProcess sink, long target) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(SETTLE_MILLIS);
    SinkStats s = sink.firstAfter(System.nanoTime(), 3000);
    int same = 0;
    while (s != null && s.records() < target && same < 3 && System.nanoTime() < deadline) {
      SinkStats next = sink.firstAfter(s.readAtNanos() + 1, 3000);
      if (next == null) {
        break;
      }
      same = next.records() == s.records() ? same + 1 : 0;
      s = next;
    }
    return s != null ? s : sink.latest();
  }
}
