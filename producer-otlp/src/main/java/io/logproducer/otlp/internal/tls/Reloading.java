package io.logproducer.otlp.internal.tls;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A value loaded from PEM sources and loaded again when one of its files changes (modification time
 * or size): what certificate rotation (cert-manager, SPIFFE helpers, a renewing cron job) needs
 * without a restart. {@link #get()} looks at the files at most once per {@value
 * #CHECK_INTERVAL_MILLIS} ms, from the thread that needs the value (a TLS handshake, so only when a
 * new connection is opened); a change that does not load (a key and a certificate written one after
 * the other and not matching yet, a half-written file) keeps the previous value, logs one WARN, and
 * is tried again at the next change. Thread-safe.
 *
 * @param <T> the loaded value
 */
abstract class Reloading<T> {

  /** Smallest interval between two looks at the files: {@value} ms. */
  static final long CHECK_INTERVAL_MILLIS = 1_000;

  private static final Logger log = LoggerFactory.getLogger(Reloading.class);

  private final List<PemSource> sources;
  private final String what;
  private volatile T value;
  private long[][] stamps; // guarded by this
  private long lastCheckNanos; // guarded by this
  private volatile long reloads;

  /**
   * Loads the value now.
   *
   * @param what what the value is, for log lines ("client certificate", "trusted certificates")
   * @param sources the sources it is loaded from
   * @throws IllegalArgumentException if it does not load
   */
  Reloading(String what, List<PemSource> sources) {
    this.what = what;
    this.sources = sources;
    this.stamps = stamps();
    this.value = load();
    this.lastCheckNanos = System.nanoTime();
  }

  /**
   * Loads the value from the sources.
   *
   * @throws IllegalArgumentException naming the source if it does not load
   */
  abstract T load();

  /** {@return the value for log lines (never key material)} */
  abstract String summary(T value);

  /** {@return the current value, loaded again first if a file changed} */
  final T get() {
    refresh();
    return value;
  }

  /**
   * Loads the value again if a file changed (looking at most once per {@value
   * #CHECK_INTERVAL_MILLIS} ms).
   *
   * @return whether a new value was loaded
   */
  final boolean refresh() {
    boolean files = false;
    for (PemSource s : sources) {
      files |= s.isFile();
    }
    if (!files) {
      return false;
    }
    synchronized (this) {
      long now = System.nanoTime();
      if (now - lastCheckNanos < TimeUnit.MILLISECONDS.toNanos(CHECK_INTERVAL_MILLIS)) {
        return false;
      }
      lastCheckNanos = now;
      long[][] current = stamps();
      if (sameStamps(current, stamps)) {
        return false;
      }
      stamps = current;
      try {
        T loaded = load();
        value = loaded;
        reloads++;
        log.info("reloaded the {} from {}: {}", what, sources, summary(loaded));
        return true;
      } catch (RuntimeException e) {
        log.warn(
            "the {} files changed but do not load, keeping the previous ones ({}): {}",
            what,
            summary(value),
            e.getMessage());
        return false;
      }
    }
  }

  /** {@return the value loaded last, without looking at the files} */
  final T current() {
    return value;
  }

  /** {@return how many times a change was loaded} */
  final long reloads() {
    return reloads;
  }

  private long[][] stamps() {
    long[][] s = new long[sources.size()][];
    for (int i = 0; i < s.length; i++) {
      s[i] = sources.get(i).stamp();
    }
    return s;
  }

  private static boolean sameStamps(long[][] a, long[][] b) {
    for (int i = 0; i < a.length; i++) {
      if (!PemSource.sameStamp(a[i], b[i])) {
        return false;
      }
    }
    return true;
  }
}
