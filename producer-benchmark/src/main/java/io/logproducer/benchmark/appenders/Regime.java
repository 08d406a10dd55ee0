package io.logproducer.benchmark.appenders;

/**
 * How the logging threads log: as fast as they can, or at a fixed rate.
 *
 * <ul>
 *   <li>{@link #SATURATED}: a tight loop of a fixed number of events per thread.
 *   <li>{@link #PACED}: a fixed total rate shared evenly by the threads, for a fixed duration; each
 *       thread follows a deadline schedule ({@link Pacer}).
 * </ul>
 */
public enum Regime {
  SATURATED,
  PACED;

  /** {@return the name used in options and in the data, e.g. {@code paced}} */
  public String id() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
