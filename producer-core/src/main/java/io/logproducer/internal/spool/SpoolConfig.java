package io.logproducer.internal.spool;

import java.nio.file.Path;
import java.util.function.LongSupplier;

/**
 * The settings of a {@link Spool}; built by {@link #builder(Path, String)}, validated by {@link
 * Builder#build()} (an {@link IllegalArgumentException} names the setting). Immutable.
 *
 * <p>Defaults and why: segments of 64 MiB (a 1 MiB batch wastes at most 1/64 of a segment when it
 * does not fit, and deleting a segment frees a useful amount); maxBytes 1 GiB; GROUP_COMMIT every
 * 200 ms (one fsync covers every batch of that window, as Vector's 500 ms flush but durable before
 * the watermark says so); checkpoint every 1000 ms (the replay bound after a crash); BLOCK for 0 ms
 * (the send threads must not wait on the disk by default: a full spool refuses at once); no maxAge;
 * 5 % free-disk guard (the Datadog Agent's 95 % ratio); retry a failed disk after 1 s, doubling to
 * 30 s.
 */
public final class SpoolConfig {
  final Path directory;
  final String kind;
  final long maxBytes;
  final long segmentBytes;
  final SpoolFullPolicy fullPolicy;
  final long maxBlockMillis;
  final SpoolDurability durability;
  final long commitIntervalMillis;
  final long checkpointIntervalMillis;
  final long maxAgeMillis;
  final double minFreeDiskShare;
  final long retryMinMillis;
  final long retryMaxMillis;
  final SpoolListener listener;
  final LongSupplier clock;

  /** Copies the builder's settings. */
  private SpoolConfig(Builder b) {
    directory = b.directory;
    kind = b.kind;
    maxBytes = b.maxBytes;
    segmentBytes = b.segmentBytes;
    fullPolicy = b.fullPolicy;
    maxBlockMillis = b.maxBlockMillis;
    durability = b.durability;
    commitIntervalMillis = b.commitIntervalMillis;
    checkpointIntervalMillis = b.checkpointIntervalMillis;
    maxAgeMillis = b.maxAgeMillis;
    minFreeDiskShare = b.minFreeDiskShare;
    retryMinMillis = b.retryMinMillis;
    retryMaxMillis = b.retryMaxMillis;
    listener = b.listener;
    clock = b.clock;
  }

  /** {@return a builder for a spool in {@code directory} owned by {@code kind} (e.g. "otlp")} */
  public static Builder builder(Path directory, String kind) {
    return new Builder(directory, kind);
  }

  /** {@return the spool directory} */
  public Path directory() {
    return directory;
  }

  /** {@return the largest entry (header + meta + payload) a segment can hold, bytes} */
  long maxEntryBytes() {
    return segmentBytes - SegmentFooter.bytesFor(1);
  }

  /** Builds a {@link SpoolConfig}; not thread-safe. */
  public static final class Builder {
    private final Path directory;
    private final String kind;
    private long maxBytes = 1L << 30;
    private long segmentBytes = 64L << 20;
    private SpoolFullPolicy fullPolicy = SpoolFullPolicy.BLOCK;
    private long maxBlockMillis;
    private SpoolDurability durability = SpoolDurability.GROUP_COMMIT;
    private long commitIntervalMillis = 200;
    private long checkpointIntervalMillis = 1000;
    private long maxAgeMillis = Long.MAX_VALUE;
    private double minFreeDiskShare = 0.05;
    private long retryMinMillis = 1000;
    private long retryMaxMillis = 30_000;
    private SpoolListener listener = SpoolListener.NONE;
    private LongSupplier clock = System::currentTimeMillis;

    /** A builder with the defaults for {@code directory} and {@code kind}. */
    private Builder(Path directory, String kind) {
      this.directory = directory;
      this.kind = kind;
    }

    /** Every byte the spool may hold on disk, files of all kinds included; default 1 GiB. */
    public Builder maxBytes(long bytes) {
      maxBytes = bytes;
      return this;
    }

    /** The size of a segment file (preallocated), 4 KiB..1 GiB; default 64 MiB. */
    public Builder segmentBytes(long bytes) {
      segmentBytes = bytes;
      return this;
    }

    /** The full policy and, for BLOCK, the longest wait in millis (default BLOCK, 0 ms). */
    public Builder fullPolicy(SpoolFullPolicy policy, long maxBlockMillis) {
      this.fullPolicy = policy;
      this.maxBlockMillis = maxBlockMillis;
      return this;
    }

    /** The durability policy and, for GROUP_COMMIT, the commit interval in millis (default 200). */
    public Builder durability(SpoolDurability policy, long commitIntervalMillis) {
      this.durability = policy;
      this.commitIntervalMillis = commitIntervalMillis;
      return this;
    }

    /** How often progress (acknowledgements) is checkpointed, millis; default 1000. */
    public Builder checkpointIntervalMillis(long millis) {
      checkpointIntervalMillis = millis;
      return this;
    }

    /** Entries older than this (by createdAtMillis) are expired when read; default unbounded. */
    public Builder maxAgeMillis(long millis) {
      maxAgeMillis = millis;
      return this;
    }

    /** Refuse to create a segment that would leave less than this share of the disk free (0..1). */
    public Builder minFreeDiskShare(double share) {
      minFreeDiskShare = share;
      return this;
    }

    /** The back-off before retrying a failed disk, from min doubling to max, millis. */
    public Builder retryBackoffMillis(long min, long max) {
      retryMinMillis = min;
      retryMaxMillis = max;
      return this;
    }

    /** The listener of discards and durability; default none. */
    public Builder listener(SpoolListener l) {
      listener = l;
      return this;
    }

    /** The wall clock for maxAge and back-offs, epoch millis; default the system's. */
    public Builder clock(LongSupplier c) {
      clock = c;
      return this;
    }

    /**
     * {@return the config}
     *
     * @throws IllegalArgumentException naming the first setting out of range
     */
    public SpoolConfig build() {
      require(directory != null, "directory must be set");
      require(kind != null && !kind.isEmpty() && kind.indexOf('\n') < 0, "kind: one line");
      require(segmentBytes >= 4096 && segmentBytes <= (1L << 30), "segmentBytes: 4 KiB..1 GiB");
      long floor = 2 * segmentBytes + Spool.FIXED_OVERHEAD_BYTES;
      require(
          maxBytes >= floor, "maxBytes must be at least 2 x segmentBytes + " + "8 KiB = " + floor);
      require(fullPolicy != null && maxBlockMillis >= 0, "fullPolicy / maxBlockMillis >= 0");
      require(
          durability != null && commitIntervalMillis > 0, "durability / commitIntervalMillis > 0");
      require(checkpointIntervalMillis > 0, "checkpointIntervalMillis > 0");
      require(maxAgeMillis > 0, "maxAgeMillis > 0");
      require(minFreeDiskShare >= 0 && minFreeDiskShare < 1, "minFreeDiskShare in [0, 1)");
      require(retryMinMillis >= 0 && retryMaxMillis >= retryMinMillis, "retryBackoffMillis");
      require(listener != null && clock != null, "listener / clock");
      return new SpoolConfig(this);
    }

    /** Throws {@link IllegalArgumentException} with {@code message} unless {@code ok}. */
    private static void require(boolean ok, String message) {
      if (!ok) {
        throw new IllegalArgumentException("spool: " + message);
      }
    }
  }
}
