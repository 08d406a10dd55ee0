package io.logproducer.benchmark.soak;

import static io.logproducer.benchmark.soak.SoakMain.MIB;

import io.logproducer.Compression;
import io.logproducer.ProducerConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The soak's command-line options ({@code run-soak.sh}'s arguments) with their defaults. Mutable
 * while parsed.
 */
final class SoakOptions {
  double minutes = 10;
  int downEveryS = 30;
  int downForS = 10;
  int threads = 10;
  long rate = 100_000;
  long totalSizeBytes = 64 * MIB;
  Path out = Path.of("docs");
  long maxBlockMillis = 60_000;
  long deliveryTimeoutMillis = 120_000;
  int sendThreads = ProducerConfig.DEFAULT_SEND_THREADS;
  Compression compression = Compression.LZ4;
  long closeTimeoutSeconds = 60;
  int fullGcEverySeconds = 30;
  double warmupSeconds = -1;
  String receiverHeap = "768m";
  final List<String> args = new ArrayList<>();

  double durationSeconds() {
    return minutes * 60;
  }

  double warmup() {
    return warmupSeconds >= 0
        ? Math.min(warmupSeconds, durationSeconds() / 2)
        : Math.min(60, durationSeconds() / 4);
  }

  /** The length of the first and the last comparison window. */
  /**
   * Whether the heap rule counts only the periodic full GCs: they are on and each window holds one
   * (a shorter run falls back to every GC).
   */
  boolean fullGcsOnly() {
    return fullGcEverySeconds > 0 && window() >= fullGcEverySeconds;
  }

  double window() {
    return Math.min(60, (durationSeconds() - warmup()) / 2);
  }

  static SoakOptions parse(String[] argv) {
    SoakOptions o = new SoakOptions();
    o.args.addAll(Arrays.asList(argv));
    for (int i = 0; i < argv.length; i++) {
      String k = argv[i];
      if (k.equals("--help") || k.equals("-h")) {
        throw new HelpException();
      }
      if (i + 1 >= argv.length) {
        throw new IllegalArgumentException(k + " needs a value");
      }
      String v = argv[++i];
      switch (k) {
        case "--minutes" -> o.minutes = Double.parseDouble(v);
        case "--down-every-s" -> o.downEveryS = Integer.parseInt(v);
        case "--down-for-s" -> o.downForS = Integer.parseInt(v);
        case "--threads" -> o.threads = Integer.parseInt(v);
        case "--rate" -> o.rate = Long.parseLong(v.replace("_", "").replace(",", ""));
        case "--total-size-bytes" ->
            o.totalSizeBytes = Long.parseLong(v.replace("_", "").replace(",", ""));
        case "--out" -> o.out = Path.of(v);
        case "--max-block-ms" -> o.maxBlockMillis = Long.parseLong(v);
        case "--delivery-timeout-ms" -> o.deliveryTimeoutMillis = Long.parseLong(v);
        case "--send-threads" -> o.sendThreads = Integer.parseInt(v);
        case "--compression" -> o.compression = Compression.valueOf(v.toUpperCase(Locale.ROOT));
        case "--close-timeout-s" -> o.closeTimeoutSeconds = Long.parseLong(v);
        case "--full-gc-every-s" -> o.fullGcEverySeconds = Integer.parseInt(v);
        case "--warmup-s" -> o.warmupSeconds = Double.parseDouble(v);
        case "--receiver-heap" -> o.receiverHeap = v;
        default -> throw new IllegalArgumentException("unknown option " + k);
      }
    }
    if (o.minutes <= 0
        || o.threads < 1
        || o.threads > 1000
        || o.rate < 0
        || o.downForS < 0
        || (o.downForS > 0 && o.downEveryS <= o.downForS)
        || o.closeTimeoutSeconds < 0) {
      throw new IllegalArgumentException(
          "need --minutes > 0, --threads in [1, 1000], --rate >= 0, "
              + "--down-every-s > --down-for-s >= 0 (0 = no outages), --close-timeout-s >= 0");
    }
    return o;
  }

  static final class HelpException extends RuntimeException {
    HelpException() {
      super(null, null, false, false);
    }
  }

  static final String USAGE =
      """
      usage: producer-benchmark/run-soak.sh [options]   (java -cp benchmarks.jar io.logproducer.benchmark.soak.SoakMain)
        --minutes N               sending time (default 10)
        --down-every-s S          the receiver goes down every S seconds (default 30)
        --down-for-s S            ... for S seconds, alternately refusing connections and answering 503
                                  with Retry-After: 1 (default 10; 0 = no outages)
        --threads T               application threads calling send (default 10)
        --rate R                  records/s in total (default 100000; 0 = as fast as possible)
        --total-size-bytes B      ProducerConfig.totalSizeInBytes (default 67108864 = 64 MiB)
        --out DIR                 where SOAK.md and soak/ are written (default docs)
        --max-block-ms M          ProducerConfig.maxBlockMillis, BLOCK policy (default 60000)
        --delivery-timeout-ms M   ProducerConfig.deliveryTimeoutMillis (default 120000)
        --send-threads S          ProducerConfig.sendThreads (default 8)
        --compression C           none|gzip|lz4|zstd (default lz4)
        --close-timeout-s S       Producer.close(timeout) at the end (default 60)
        --warmup-s S              excluded from the flatness checks (default min(60, duration/4))
        --full-gc-every-s S       System.gc() every S s, 5 s before an outage starts, so the heap rule compares
                                  live heap (a full GC) rather than G1's young-GC figures, which include old-gen
                                  garbage until a mixed collection (default 30; 0 = off: every GC counts)
        --receiver-heap SIZE      -Xmx of the receiver JVM (default 768m)
      Exit code: 0 all criteria passed, 1 a criterion failed, 2 bad options.
      """;
}
