package io.logproducer.benchmark.harness;

import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The performance suite's options ({@code run-suite.sh}'s arguments; {@code --help} lists them),
 * with the defaults of a full or a {@code --quick} run, and the class paths its child JVMs need.
 */
@Command(
    name = "PerformanceSuite",
    mixinStandardHelpOptions = true,
    description = {
      "The standard performance suite: measures, then writes docs/PERFORMANCE.md.",
      "A second default after ';' is --quick's."
    })
final class SuiteOptions {

  @Option(names = "--docs", paramLabel = "DIR", description = "default: the repository's docs")
  Path docs;

  @Option(names = "--quick", description = "short runs and fewer points (a smoke test)")
  boolean quick;

  @Option(names = "--skip-jmh", description = "no JMH benchmarks")
  boolean skipJmh;

  @Option(names = "--warmup", paramLabel = "S", description = "seconds per run (default 4; 1.5)")
  double warmup = -1;

  @Option(names = "--duration", paramLabel = "S", description = "measured s/run (default 6; 3)")
  double duration = -1;

  @Option(names = "--repeats", paramLabel = "N", description = "headline samples (default 3; 1)")
  int repeats = -1;

  @Option(names = "--passes", paramLabel = "N", description = "passes over a sweep (default 2; 1)")
  int sweepPasses = -1;

  /**
   * Waits for a quiet machine and repeats of disturbed runs happen only while the rest still fits;
   * {@code --quick} stays a few-minute smoke run.
   */
  @Option(names = "--budget-minutes", paramLabel = "M", description = "time budget (22; 4.5)")
  double budgetMinutes = -1;

  @Option(names = "--report-only", description = "the page from docs/perf-data, running nothing")
  boolean reportOnly;

  @Option(names = "--jmh-only", description = "rerun the JMH part only, then the page")
  boolean jmhOnly;

  @Option(names = "--long-runs", description = "only the long runs (long-run.tsv), then the page")
  boolean longRuns;

  @Option(names = "--run", paramLabel = "'k=v …'", description = "ad-hoc settings, no page")
  List<String> adhoc = new ArrayList<>();

  @Option(names = "--note", paramLabel = "TEXT", description = "this run's note in history.tsv")
  String note = "";

  /** This JVM's java binary, for the child JVMs. */
  final String java = ProcessHandle.current().info().command().orElse("java");

  String classpath;

  /**
   * @throws picocli.CommandLine.ParameterException for an unknown option or a malformed value
   */
  static SuiteOptions parse(String[] args) {
    SuiteOptions o = Cli.parse(new SuiteOptions(), args);
    o.docs = o.docs != null ? o.docs : repositoryRoot().resolve("docs");
    o.warmup = o.warmup >= 0 ? o.warmup : o.quick ? 1.5 : 4;
    o.duration = o.duration >= 0 ? o.duration : o.quick ? 3 : 6;
    o.repeats = o.repeats >= 0 ? o.repeats : o.quick ? 1 : 3;
    o.sweepPasses = o.sweepPasses >= 0 ? o.sweepPasses : o.quick ? 1 : 2;
    o.budgetMinutes = o.budgetMinutes >= 0 ? o.budgetMinutes : o.quick ? 4.5 : 22;
    o.classpath = currentClasspath();
    return o;
  }

  /**
   * The directory holding {@code mvnw} and {@code producer-benchmark}, searched upwards from the
   * working dir.
   */
  static Path repositoryRoot() {
    Path p = Path.of("").toAbsolutePath();
    for (Path q = p; q != null; q = q.getParent()) {
      if (Files.isDirectory(q.resolve("producer-benchmark"))
          && Files.exists(q.resolve("pom.xml"))) {
        return q;
      }
    }
    return p;
  }

  /** The classpath child JVMs need: this JVM's, or (under exec:java) the class loader's URLs. */
  static String currentClasspath() {
    String cp = System.getProperty("java.class.path", "");
    if (cp.contains("benchmarks.jar") || cp.contains("producer-benchmark")) {
      return cp;
    }
    List<String> entries = new ArrayList<>();
    ClassLoader cl = SuiteOptions.class.getClassLoader();
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

  /**
   * The class path of an Aliyun run: the jars of {@code target/aliyun-lib/} (next to {@code
   * benchmarks.jar}, or the module's when run from classes), then {@code classpath}. They come
   * first so that the Aliyun SDK's generated protobuf 2.5 classes find the protobuf-java runtime
   * they were generated for, whatever else the benchmark jar may bring one day.
   */
  static String aliyunClasspath(String classpath) throws IOException {
    Path dir = null;
    for (String e : classpath.split(File.pathSeparator)) {
      if (e.endsWith("benchmarks.jar")) {
        dir = Path.of(e).toAbsolutePath().getParent().resolve(PerformanceSuite.ALIYUN_LIB);
        break;
      }
    }
    if (dir == null) {
      dir =
          repositoryRoot()
              .resolve("producer-benchmark")
              .resolve("target")
              .resolve(PerformanceSuite.ALIYUN_LIB);
    }
    List<String> jars = new ArrayList<>();
    if (Files.isDirectory(dir)) {
      try (var files = Files.list(dir)) {
        files
            .filter(f -> f.toString().endsWith(".jar"))
            .map(Path::toString)
            .sorted()
            .forEach(jars::add);
      }
    }
    if (jars.stream().noneMatch(j -> j.contains("aliyun-log-producer"))) {
      throw new IOException(
          "the Aliyun producer's class path is missing ("
              + dir
              + "): build it with "
              + "./mvnw -q -DskipTests -f producer-benchmark/pom.xml package");
    }
    jars.add(classpath);
    return String.join(File.pathSeparator, jars);
  }
}
