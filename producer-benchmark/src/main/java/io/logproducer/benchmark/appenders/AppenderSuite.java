package io.logproducer.benchmark.appenders;

import io.logproducer.benchmark.harness.MachineInfo;
import io.logproducer.benchmark.harness.PerformanceSuite;
import io.logproducer.benchmark.harness.SinkProcess;
import io.logproducer.benchmark.harness.SinkStats;
import io.logproducer.benchmark.report.AppenderSuiteResults;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The appenders side by side, each in its own JVM against one receiver in its own JVM: {@code java
 * -cp producer-benchmark/target/benchmarks.jar io.logproducer.benchmark.appenders.AppenderSuite
 * [options]} from the repository root ({@code --help} lists the options). For every variant,
 * logging-thread count and regime (and the 200,000 events/s cell of our default appenders) it runs
 * {@link AppenderChild} with the variant's class path ({@link AppenderClasspath}), lets the sink
 * settle after the warm-up, starts the measured phase, and after the child stopped its framework
 * waits (bounded) until the receiver's count settles. Writes {@code
 * docs/perf-data/appender-suite.tsv} ({@link AppenderSuiteResults}); {@code run-suite.sh
 * --report-only} turns it into docs/PERFORMANCE.md's "Logging appenders".
 */
@Command(
    name = "AppenderSuite",
    mixinStandardHelpOptions = true,
    abbreviateSynopsis = true,
    sortOptions = false,
    showDefaultValues = true,
    description = "The logging appenders, each in its own JVM, against one receiver JVM.")
public final class AppenderSuite implements Callable<Integer> {

  private static final List<String> CHILD_JVM = List.of("-Xms1g", "-Xmx1g");
  private static final List<String> SINK_JVM = List.of("-Xms512m", "-Xmx512m");
  private static final long SETTLE_MILLIS = 60_000;

  /** Paced: events per second of a single logging thread, or of each of several. */
  static final int PACED_RATE = 50_000;

  static final int PACED_RATE_PER_THREAD = 25_000;

  /** The high-rate cell: events per second in all, from 4 threads. */
  static final int HIGH_RATE = 200_000;

  static final int HIGH_RATE_THREADS = 4;

  @Option(
      names = "--quick",
      description =
          "under 5 minutes: 100,000 events per thread saturated, 2 s paced, 1 run per cell, without"
              + " the -inline variants (the full run: 2,000,000 events, 8 s, 3 runs)")
  boolean quick;

  @Option(
      names = "--only",
      split = ",",
      converter = VariantById.class,
      showDefaultValue = CommandLine.Help.Visibility.NEVER,
      description = "these variants only, e.g. logback/otel,log4j2/raf (default: all)")
  List<AppenderVariant> only;

  @Option(names = "--regime", split = ",", description = "saturated|paced (both)")
  List<Regime> regimes = List.of(Regime.values());

  @Option(names = "--threads", split = ",", description = "logging thread counts")
  List<Integer> threads = List.of(1, 4);

  @Option(
      names = "--runs",
      showDefaultValue = CommandLine.Help.Visibility.NEVER,
      description = "runs per cell (default 3; --quick: 1)")
  Integer runs;

  @Option(
      names = "--profile",
      description = "JFR of the saturated 4-thread runs of our two default variants")
  boolean profile;

  @Option(names = "--no-high-rate", description = "skip the 200,000 events/s runs")
  boolean noHighRate;

  @Option(names = "--out", description = "the data file")
  Path out = Path.of("docs/perf-data/appender-suite.tsv");

  @Option(names = "--target", description = "the module's build output")
  Path target = Path.of("producer-benchmark/target");

  @Spec CommandSpec spec;

  private final List<AppenderSuiteResults.Run> results = new ArrayList<>();
  private final String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
  private AppenderClasspath classpath;
  private Path work;
  private SinkProcess otlp;
  private SinkProcess sls;

  /**
   * Runs the suite and writes its data file; exits with 0, 1 (a sink could not start or the data
   * could not be written) or 2 (bad options).
   *
   * @param args the options ({@code --help})
   */
  public static void main(String[] args) {
    System.exit(
        new CommandLine(new AppenderSuite())
            .setCaseInsensitiveEnumValuesAllowed(true)
            .execute(args));
  }

  /** Runs the suite. */
  @Override
  public Integer call() throws Exception {
    if (threads.stream().anyMatch(t -> t < 1) || (runs != null && runs < 1)) {
      throw new ParameterException(spec.commandLine(), "--threads and --runs must be >= 1");
    }
    List<AppenderVariant> variants = only;
    if (variants == null) {
      // --quick: without the explicit queueSize=0 variants (--only brings them back)
      EnumSet<AppenderVariant> all = EnumSet.allOf(AppenderVariant.class);
      if (quick) {
        all.removeAll(EnumSet.of(AppenderVariant.LOGBACK_INLINE, AppenderVariant.LOG4J2_INLINE));
      }
      variants = List.copyOf(all);
    }
    classpath = new AppenderClasspath(target);
    work = target.resolve("appender-work").toAbsolutePath();
    long started = System.nanoTime();
    Files.createDirectories(work);
    String benchJar = target.resolve("benchmarks.jar").toString();
    otlp = new SinkProcess(java, benchJar, SINK_JVM, 4, SinkProcess.OTLP_MAIN);
    try {
      if (variants.contains(AppenderVariant.LOGBACK_ALIYUN)) {
        sls = new SinkProcess(java, benchJar, SINK_JVM, 4, SinkProcess.SLS_MAIN);
      }
      int reps = runs != null ? runs : quick ? 1 : 3;
      for (int rep = 1; rep <= reps; rep++) {
        for (AppenderVariant v : variants) {
          boolean ourDefault =
              v == AppenderVariant.LOGBACK_LOGPRODUCER || v == AppenderVariant.LOG4J2_LOGPRODUCER;
          for (Regime regime : regimes) {
            for (int n : threads) {
              boolean paced = regime == Regime.PACED;
              int rate = !paced ? 0 : n == 1 ? PACED_RATE : PACED_RATE_PER_THREAD * n;
              boolean jfr = profile && rep == 1 && !paced && n == 4 && ourDefault;
              cell(v, n, regime, rate, rep, jfr);
            }
          }
          if (!noHighRate && regimes.contains(Regime.PACED) && ourDefault) {
            cell(v, HIGH_RATE_THREADS, Regime.PACED, HIGH_RATE, rep, false);
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
        "%s UTC; %s, %s cores, %s %s"
            .formatted(
                ZonedDateTime.now(ZoneOffset.UTC)
                    .format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm")),
                m.getOrDefault("CPU", "?"),
                m.getOrDefault("Cores (available to the JVM)", "?"),
                System.getProperty("java.vm.name"),
                System.getProperty("java.vm.version"));
    String command =
        "AppenderSuite " + String.join(" ", spec.commandLine().getParseResult().originalArgs());
    AppenderSuiteResults.write(new AppenderSuiteResults.Data(measured, command, results), out);
    System.out.printf(
        Locale.ROOT,
        "%d runs in %.0f s -> %s%n",
        results.size(),
        (System.nanoTime() - started) / 1e9,
        out);
    return 0;
  }

  private void cell(AppenderVariant v, int threads, Regime regime, int rate, int rep, boolean jfr)
      throws Exception {
    boolean file = v.sink() == AppenderVariant.Sink.FILE;
    SinkProcess sink = v.sink() == AppenderVariant.Sink.SLS ? sls : otlp;
    String name = v.id().replace('/', '-') + "-" + regime.id() + "-t" + threads + "-r" + rate;
    Path jfrFile = jfr ? work.resolve(name + ".jfr") : null;
    ChildSpec spec =
        new ChildSpec(
            v,
            threads,
            regime,
            quick ? 100_000 : 2_000_000,
            rate / (double) threads,
            quick ? 2_000 : 8_000,
            (quick ? 50_000 : 300_000) / threads,
            file ? "http://127.0.0.1:1" : sink.endpoint(),
            work.resolve(name).toString(),
            jfrFile == null ? "" : jfrFile.toString());
    System.out.printf(Locale.ROOT, "%s run %d: ", name, rep);
    System.out.flush();
    AppenderSuiteResults.Run r = runChild(spec, file ? null : sink, rep);
    if (r == null) {
      return;
    }
    results.add(r);
    System.out.printf(
        Locale.ROOT,
        "logging %.0f ns/event, process %.0f ns/delivered, %.0f events/s, %.1f %% delivered%n",
        r.loggingCpuNs(),
        r.processCpuNs(),
        r.eventsPerSec(),
        100 * r.share());
    if (jfrFile != null && Files.exists(jfrFile)) {
      String framework = v.framework().name().toLowerCase(Locale.ROOT);
      Path profileOut =
          out.resolveSibling(AppenderSuiteResults.PROFILE_PREFIX + framework + ".tsv");
      AppenderSuiteResults.writeProfile(jfrFile, profileOut);
      System.out.println("  profile -> " + profileOut);
    }
  }

  private AppenderSuiteResults.Run runChild(ChildSpec spec, SinkProcess sink, int rep)
      throws Exception {
    Path dir = Path.of(spec.workDir());
    Files.createDirectories(dir);
    List<String> cmd = new ArrayList<>();
    cmd.addAll(List.of(java, PerformanceSuite.ENABLE_NATIVE_ACCESS));
    cmd.addAll(CHILD_JVM);
    cmd.addAll(List.of("-cp", classpath.of(spec.variant()), AppenderChild.class.getName()));
    cmd.addAll(spec.toArgs());
    Path log = dir.resolve("child.log");
    SinkStats before = sink == null ? null : sink.latest();
    Process p = new ProcessBuilder(cmd).redirectError(log.toFile()).start();
    BufferedReader stdout =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    long warmup = spec.warmupEventsPerThread() * spec.threads();
    if (readUntil(stdout, "warm") == null) {
      System.out.println("FAILED before the warm-up ended, see " + log);
      SinkProcess.awaitExit(p, 5);
      return null;
    }
    SinkStats atGo = sink == null ? null : settle(sink, before.records() + warmup);
    p.getOutputStream().write("go\n".getBytes(StandardCharsets.US_ASCII));
    p.getOutputStream().flush();
    String line = readUntil(stdout, ChildResult.PREFIX);
    SinkProcess.awaitExit(p, 120);
    if (line == null) {
      System.out.println("FAILED in the measured phase, see " + log);
      return null;
    }
    ChildResult c = ChildResult.parse(line);
    long logged = warmup + c.events();
    long delivered = c.fileLines();
    long deliveredMeasured = c.fileLines() - warmup;
    double receiverCpu = Double.NaN;
    if (sink != null) {
      SinkStats end = settle(sink, before.records() + logged);
      delivered = end.records() - before.records();
      deliveredMeasured = end.records() - atGo.records();
      receiverCpu = (end.cpuNanos() - atGo.cpuNanos()) / (double) Math.max(1, deliveredMeasured);
    }
    double perEvent = 1.0 / Math.max(1, c.events());
    double[] groups = new double[AppenderSuiteResults.GROUPS.size()];
    for (int i = 0; i < groups.length; i++) {
      groups[i] = c.groups()[i] * perEvent;
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

  /** {@code --only}'s values: {@link AppenderVariant#byId}. */
  static final class VariantById implements CommandLine.ITypeConverter<AppenderVariant> {
    @Override
    public AppenderVariant convert(String id) {
      return AppenderVariant.byId(id.trim());
    }
  }
}
