package io.logproducer.benchmark.soak;

import static io.logproducer.benchmark.soak.SoakMain.MIB;

import io.logproducer.Compression;
import io.logproducer.ProducerConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Help;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The soak's command line ({@code run-soak.sh}'s arguments) with its defaults; {@link #call()} runs
 * the soak. Bad options exit with 2 (picocli's usage error code).
 */
@Command(
    name = "run-soak.sh",
    mixinStandardHelpOptions = true,
    abbreviateSynopsis = true,
    sortOptions = false,
    showDefaultValues = true,
    description = "The soak (java -cp benchmarks.jar io.logproducer.benchmark.soak.SoakMain).",
    footer = "Exit code: 0 all criteria passed, 1 a criterion failed, 2 bad options.")
final class SoakOptions implements Callable<Integer> {

  @Option(names = "--minutes", description = "sending time")
  double minutes = 10;

  @Option(names = "--down-every-s", description = "the receiver goes down every S seconds")
  int downEveryS = 30;

  @Option(
      names = "--down-for-s",
      description = "... for S s, alternately refusing connections and answering 503 (0 = none)")
  int downForS = 10;

  @Option(names = "--threads", description = "application threads calling send")
  int threads = 10;

  @Option(names = "--rate", converter = Digits.class, description = "records/s in all (0 = max)")
  long rate = 100_000;

  @Option(names = "--total-size-bytes", converter = Digits.class, description = "totalSizeInBytes")
  long totalSizeBytes = 64 * MIB;

  @Option(names = "--out", description = "where SOAK.md and soak/ are written")
  Path out = Path.of("docs");

  @Option(names = "--max-block-ms", description = "maxBlockMillis (BLOCK policy)")
  long maxBlockMillis = 60_000;

  @Option(names = "--delivery-timeout-ms", description = "deliveryTimeoutMillis")
  long deliveryTimeoutMillis = 120_000;

  @Option(names = "--send-threads", description = "sendThreads")
  int sendThreads = ProducerConfig.DEFAULT_SEND_THREADS;

  @Option(names = "--compression", description = "none|gzip|lz4|zstd")
  Compression compression = Compression.LZ4;

  @Option(names = "--close-timeout-s", description = "Producer.close(timeout) at the end")
  long closeTimeoutSeconds = 60;

  @Option(
      names = "--warmup-s",
      showDefaultValue = Help.Visibility.NEVER,
      description = "excluded from the flatness checks (default min(60, duration/4))")
  double warmupSeconds = -1;

  // Why: G1's young-GC heap figures hold old-gen garbage until a mixed collection.
  @Option(
      names = "--full-gc-every-s",
      description =
          "System.gc() every S s, 5 s before an outage: the heap rule compares live heap"
              + " (0 = off: every GC counts)")
  int fullGcEverySeconds = 30;

  @Option(names = "--receiver-heap", description = "-Xmx of the receiver JVM")
  String receiverHeap = "768m";

  /** The command line as given, for the report. */
  final List<String> args = new ArrayList<>();

  @Spec CommandSpec spec;

  double durationSeconds() {
    return minutes * 60;
  }

  double warmup() {
    return warmupSeconds >= 0
        ? Math.min(warmupSeconds, durationSeconds() / 2)
        : Math.min(60, durationSeconds() / 4);
  }

  /** The length of the first and the last comparison window, seconds. */
  double window() {
    return Math.min(60, (durationSeconds() - warmup()) / 2);
  }

  /**
   * Whether the heap rule counts only the periodic full GCs: they are on and each window holds one
   * (a shorter run falls back to every GC).
   */
  boolean fullGcsOnly() {
    return fullGcEverySeconds > 0 && window() >= fullGcEverySeconds;
  }

  /** Validates the options and runs the soak: 0 pass, 1 fail. */
  @Override
  public Integer call() throws Exception {
    if (minutes <= 0
        || threads < 1
        || threads > 1000
        || rate < 0
        || downForS < 0
        || (downForS > 0 && downEveryS <= downForS)
        || closeTimeoutSeconds < 0) {
      throw new ParameterException(
          spec.commandLine(),
          "need --minutes > 0, --threads in [1, 1000], --rate >= 0, "
              + "--down-every-s > --down-for-s >= 0 (0 = no outages), --close-timeout-s >= 0");
    }
    return new SoakMain(this).run() ? 0 : 1;
  }

  /** A long that may be written with {@code _} or {@code ,} separators. */
  static final class Digits implements picocli.CommandLine.ITypeConverter<Long> {
    @Override
    public Long convert(String v) {
      return Long.parseLong(v.replace("_", "").replace(",", ""));
    }
  }
}
