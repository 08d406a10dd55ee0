package io.logproducer.benchmark.appenders;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@link AppenderSuite}'s command line.
 *
 * <ul>
 *   <li>{@code --quick}: 100,000 events per thread saturated, 2 s paced, 1 run per cell, without
 *       the {@code -inline} variants (under 5 minutes on 2 idle cores); the full run: 2,000,000
 *       events per thread, 8 s paced, 3 runs per cell;
 *   <li>{@code --only logback/otel,…}: these variants only ({@link AppenderVariant#id()});
 *   <li>{@code --regime saturated|paced}, {@code --threads 1|4|1,4}: these cells only;
 *   <li>{@code --runs N}: runs per cell;
 *   <li>{@code --profile}: JFR of the saturated 4-thread runs of our two default variants;
 *   <li>{@code --no-high-rate}: skip the 200,000 events/s runs;
 *   <li>{@code --out F}: the data file (default {@code docs/perf-data/appender-suite.tsv});
 *   <li>{@code --target D}: the module's build output (default {@code producer-benchmark/target}).
 * </ul>
 *
 * @param quick whether this is the quick run
 * @param variants the variants, in run order
 * @param regimes the regimes
 * @param threads the logging thread counts
 * @param runs runs per cell
 * @param eventsPerThread saturated: events per thread
 * @param pacedMillis paced: duration of the measured phase
 * @param warmupEvents events logged before measuring, shared by the threads
 * @param profile whether to record JFR profiles
 * @param highRate whether to run the 200,000 events/s cells
 * @param out the data file
 * @param target the build output
 * @param command the command line, for the data's meta line
 */
public record AppenderSuiteOptions(
    boolean quick,
    List<AppenderVariant> variants,
    List<Regime> regimes,
    List<Integer> threads,
    int runs,
    long eventsPerThread,
    long pacedMillis,
    long warmupEvents,
    boolean profile,
    boolean highRate,
    Path out,
    Path target,
    String command) {

  /** Paced: events per second of a single logging thread. */
  static final int PACED_RATE = 50_000;

  /** Paced with several logging threads: events per second of each. */
  static final int PACED_RATE_PER_THREAD = 25_000;

  /**
   * The paced rate in all: {@value #PACED_RATE}/s on 1 thread, {@value #PACED_RATE_PER_THREAD}/s on
   * each of several.
   *
   * @param threads the logging threads, at least 1
   * @return events per second in all
   */
  static int pacedRate(int threads) {
    return threads == 1 ? PACED_RATE : PACED_RATE_PER_THREAD * threads;
  }

  /** The high-rate cell: events per second from {@link #HIGH_RATE_THREADS} threads. */
  static final int HIGH_RATE = 200_000;

  static final int HIGH_RATE_THREADS = 4;

  /**
   * Parses the command line.
   *
   * @throws IllegalArgumentException naming the option that is unknown or malformed
   */
  static AppenderSuiteOptions parse(String[] args) {
    boolean quick = Arrays.asList(args).contains("--quick");
    List<AppenderVariant> variants = new ArrayList<>(List.of(AppenderVariant.values()));
    if (quick) {
      // under 5 minutes: without the explicit queueSize=0 variants (--only brings them back)
      variants.remove(AppenderVariant.LOGBACK_INLINE);
      variants.remove(AppenderVariant.LOG4J2_INLINE);
    }
    List<Regime> regimes = List.of(Regime.values());
    List<Integer> threads = List.of(1, 4);
    int runs = quick ? 1 : 3;
    boolean profile = false;
    boolean highRate = true;
    Path out = Path.of("docs/perf-data/appender-suite.tsv");
    Path target = Path.of("producer-benchmark/target");
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--quick" -> {
          // read above
        }
        case "--profile" -> profile = true;
        case "--no-high-rate" -> highRate = false;
        case "--only" -> variants = AppenderVariant.parseList(value(args, ++i, "--only"));
        case "--regime" -> {
          List<Regime> l = new ArrayList<>();
          for (String s : value(args, ++i, "--regime").split(",")) {
            l.add(Regime.byId(s.trim()));
          }
          regimes = l;
        }
        case "--threads" -> {
          List<Integer> l = new ArrayList<>();
          for (String s : value(args, ++i, "--threads").split(",")) {
            l.add(positive(s, "--threads"));
          }
          threads = l;
        }
        case "--runs" -> runs = positive(value(args, ++i, "--runs"), "--runs");
        case "--out" -> out = Path.of(value(args, ++i, "--out"));
        case "--target" -> target = Path.of(value(args, ++i, "--target"));
        default -> throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    return new AppenderSuiteOptions(
        quick,
        variants,
        regimes,
        threads,
        runs,
        quick ? 100_000 : 2_000_000,
        quick ? 2_000 : 8_000,
        quick ? 50_000 : 300_000,
        profile,
        highRate,
        out,
        target,
        "AppenderSuite " + String.join(" ", args));
  }

  private static String value(String[] args, int i, String option) {
    if (i >= args.length) {
      throw new IllegalArgumentException(option + " needs a value");
    }
    return args[i];
  }

  private static int positive(String s, String option) {
    try {
      int v = Integer.parseInt(s.trim());
      if (v < 1) {
        throw new IllegalArgumentException(option + " must be >= 1, was " + s);
      }
      return v;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(option + " must be an integer, was '" + s + "'", e);
    }
  }
}
