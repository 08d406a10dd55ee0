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

/**
 * The performance suite's options ({@code run-suite.sh}'s arguments, with the defaults of a full or
 * a {@code --quick} run) and the class paths its child JVMs need. Immutable.
 */
record SuiteOptions(
    Path docs,
    boolean quick,
    boolean skipJmh,
    double warmup,
    double duration,
    int repeats,
    int sweepPasses,
    double budgetMinutes,
    boolean reportOnly,
    boolean jmhOnly,
    boolean longRuns,
    String java,
    String classpath,
    List<String> adhoc,
    String note) {

  static SuiteOptions parse(String[] args) throws IOException {
    Path docs = null;
    boolean quick = false;
    boolean skipJmh = false;
    boolean reportOnly = false;
    boolean jmhOnly = false;
    boolean longRuns = false;
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
        case "--long-runs" -> longRuns = true;
        case "--warmup" -> warmup = Double.parseDouble(args[++i]);
        case "--duration" -> duration = Double.parseDouble(args[++i]);
        case "--repeats" -> repeats = Integer.parseInt(args[++i]);
        case "--passes" -> passes = Integer.parseInt(args[++i]);
        case "--budget-minutes" -> budget = Double.parseDouble(args[++i]);
        case "--note" -> note = args[++i];
        case "-h", "--help" -> {
          System.out.println(
              "usage: PerformanceSuite [--docs DIR] [--quick] [--skip-jmh] [--warmup S] "
                  + "[--duration S] [--repeats N] [--passes N] [--budget-minutes M] [--report-only] [--jmh-only] [--long-runs] "
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
      // --quick stays a few-minute smoke run: no waiting for a quiet machine, no reruns beyond what
      // fits
      budget = quick ? 4.5 : 22;
    }
    String java = ProcessHandle.current().info().command().orElse("java");
    return new SuiteOptions(
        docs,
        quick,
        skipJmh,
        warmup,
        duration,
        repeats,
        passes,
        budget,
        reportOnly,
        jmhOnly,
        longRuns,
        java,
        currentClasspath(),
        adhoc,
        note);
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
