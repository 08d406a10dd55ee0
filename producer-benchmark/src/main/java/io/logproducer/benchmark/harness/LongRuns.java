package io.logproducer.benchmark.harness;

import io.logproducer.Compression;
import io.logproducer.benchmark.harness.RunSpec.Client;
import io.logproducer.benchmark.report.Report;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code run-suite.sh --long-runs}: what a whole run of the reference workload costs from the JVM's
 * start, measured apart from the suite (its own data file, {@value #FILE}, with its own date and
 * calibration, so that a day on which the machine runs slower does not mix with the suite's data).
 * In one sitting: building the records alone (section {@code longRunCalibration}), the steady state
 * (the suite's warm-up and duration; {@code longRunSteady}), and 20 M records (2 M a thread) from
 * the JVM's start without a warm-up and with the JVM's own heap sizing, as the quick start runs
 * ({@code longRun}); lz4 and zstd-1, {@code repeats} runs each ({@code --quick}: lz4 once, 2 M
 * records). Not thread-safe.
 */
final class LongRuns {

  /** The data file in {@code docs/perf-data/}. */
  static final String FILE = "long-run.tsv";

  /** Records in all of a long run: 20 M, as a quick start was measured from outside. */
  static final long RECORDS = 20_000_000;

  static final List<Compression> COMPRESSIONS = List.of(Compression.LZ4, Compression.ZSTD);

  /** The suite's way of running one spec into its data file. */
  interface Runner {
    void run(String section, RunSpec spec) throws IOException, InterruptedException;
  }

  private LongRuns() {}

  /**
   * Runs them all into {@code file} (replaced), whose first line says when and on what.
   *
   * @param sendThreads the suite's headline sendThreads
   */
  static void measure(
      Runner runner, SuiteOptions options, Map<String, String> machine, int sendThreads, Path file)
      throws IOException, InterruptedException {
    String when =
        DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'", Locale.ROOT)
            .format(ZonedDateTime.now(ZoneOffset.UTC));
    Files.writeString(
        file,
        "# measured "
            + when
            + "; "
            + machine.getOrDefault("CPU", "?")
            + ", "
            + machine.getOrDefault("Cores (available to the JVM)", "?")
            + " cores, "
            + machine.getOrDefault("JDK", "?")
            + "; command run-suite.sh --long-runs"
            + (options.quick ? " --quick" : "")
            + "\n",
        StandardCharsets.UTF_8);
    RunSpec steady =
        RunSpec.reference()
            .withTiming(options.warmup, options.duration)
            .withSendThreads(sendThreads);
    runner.run(
        "longRunCalibration",
        steady.withClient(Client.GENERATE).withLabel("building the records alone"));
    List<Compression> codecs = options.quick ? List.of(Compression.LZ4) : COMPRESSIONS;
    long perThread = options.quick ? 200_000 : RECORDS / steady.appThreads();
    String records = Report.count(perThread * steady.appThreads() / 1e6) + " M records";
    for (Compression c : codecs) {
      String name = "logproducer " + Report.compressionName(c, 0);
      RunSpec whole =
          steady
              .withCompression(c, 0)
              .withTiming(0, 0)
              .withHeap("default")
              .with("recordsPerThread", perThread)
              .withLabel(name + ", " + records + " from the JVM's start");
      for (int i = 0; i < options.repeats; i++) {
        runner.run(
            "longRunSteady", steady.withCompression(c, 0).withLabel(name + ", steady state"));
        runner.run("longRun", whole);
      }
    }
  }
}
