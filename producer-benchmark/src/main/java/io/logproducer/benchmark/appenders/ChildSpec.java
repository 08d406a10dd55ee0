package io.logproducer.benchmark.appenders;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What one child JVM runs ({@link AppenderChild}), passed on its command line.
 *
 * @param variant the appender
 * @param threads logging threads, >= 1
 * @param regime saturated or paced
 * @param eventsPerThread saturated: events each thread logs in the measured phase
 * @param ratePerThread paced: events per second of each thread
 * @param durationMillis paced: how long the measured phase lasts
 * @param warmupEventsPerThread events each thread logs before the measured phase (not counted)
 * @param endpoint the sink's base URL ({@code http://127.0.0.1:port}); unused for file variants
 * @param workDir where the child writes its framework configuration and, for file variants, the log
 *     file
 * @param jfrFile where to dump a JFR recording of the measured phase, or "" for none
 */
public record ChildSpec(
    AppenderVariant variant,
    int threads,
    Regime regime,
    long eventsPerThread,
    double ratePerThread,
    long durationMillis,
    long warmupEventsPerThread,
    String endpoint,
    String workDir,
    String jfrFile) {

  /** {@return the events the measured phase logs in all, as planned} */
  public long plannedEvents() {
    return regime == Regime.SATURATED
        ? eventsPerThread * threads
        : (long) (ratePerThread * durationMillis / 1000.0) * threads;
  }

  /** {@return this spec as command-line arguments, read back by {@link #parse}} */
  public List<String> toArgs() {
    List<String> a = new ArrayList<>();
    add(a, "variant", variant.id());
    add(a, "threads", Integer.toString(threads));
    add(a, "regime", regime.id());
    add(a, "eventsPerThread", Long.toString(eventsPerThread));
    add(a, "ratePerThread", Double.toString(ratePerThread));
    add(a, "durationMillis", Long.toString(durationMillis));
    add(a, "warmupEventsPerThread", Long.toString(warmupEventsPerThread));
    add(a, "endpoint", endpoint);
    add(a, "workDir", workDir);
    add(a, "jfrFile", jfrFile);
    return a;
  }

  private static void add(List<String> a, String k, String v) {
    a.add("--" + k);
    a.add(v);
  }

  /**
   * Reads {@link #toArgs()}'s output.
   *
   * @throws IllegalArgumentException naming the option that is missing or malformed
   */
  public static ChildSpec parse(String[] args) {
    Map<String, String> m = new HashMap<>();
    for (int i = 0; i + 1 < args.length; i += 2) {
      if (!args[i].startsWith("--")) {
        throw new IllegalArgumentException("expected --option, got " + args[i]);
      }
      m.put(args[i].substring(2), args[i + 1]);
    }
    try {
      return new ChildSpec(
          AppenderVariant.byId(get(m, "variant")),
          Integer.parseInt(get(m, "threads")),
          Regime.byId(get(m, "regime")),
          Long.parseLong(get(m, "eventsPerThread")),
          Double.parseDouble(get(m, "ratePerThread")),
          Long.parseLong(get(m, "durationMillis")),
          Long.parseLong(get(m, "warmupEventsPerThread")),
          get(m, "endpoint"),
          get(m, "workDir"),
          m.getOrDefault("jfrFile", ""));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("malformed child option: " + e.getMessage(), e);
    }
  }

  private static String get(Map<String, String> m, String k) {
    String v = m.get(k);
    if (v == null) {
      throw new IllegalArgumentException("missing child option --" + k);
    }
    return v;
  }
}
