package io.logproducer;

import java.nio.file.Path;

/**
 * The settings of a producer's disk spool ({@link ProducerConfig.Builder#setSpool}): where it
 * lives, how many bytes it may take on disk, what a stored batch survives, what happens when it is
 * full, and how much of the send capacity replaying a backlog may take. Immutable and thread-safe;
 * built with {@link #builder(Path)}. Each setter checks its value and throws {@link
 * IllegalArgumentException} naming the setting; {@link Builder#build()} checks the settings against
 * each other.
 *
 * <p>With a spool, every sealed batch is written to the spool as shipped (its compressed request
 * body) when it is first exported; a batch still undelivered at its {@code deliveryTimeoutMillis}
 * or at {@code close()} while durable in the spool completes with {@link
 * SendResult.Status#SPOOLED}, and this producer, or the next one on the same directory, delivers
 * it.
 */
public final class SpoolConfig {

  /** Bytes beyond two segments that {@code maxBytes} must leave for the spool's small files. */
  public static final long FIXED_OVERHEAD_BYTES = 1L << 20;

  /**
   * Bytes a segment must hold beyond a full batch's records and their growth ({@link
   * #minSegmentBytesFor}): the entry's 36-byte header, the stored meta (about 20 bytes plus the
   * shard key), the segment's footer (40 bytes for one entry), a codec's frame (under 30 bytes) and
   * the exporter's request framing (OTLP's resource and scope, a JSON array's brackets).
   */
  public static final int SEGMENT_ALLOWANCE_BYTES = 1024;

  /**
   * {@return the smallest {@code segmentBytes} that holds one request of {@code batchSizeInBytes}
   * bytes of records: {@code batchSizeInBytes + batchSizeInBytes / 32 + }{@link
   * #SEGMENT_ALLOWANCE_BYTES}} The 1/32 covers a codec that cannot shrink the body (lz4 grows
   * incompressible data by at most 1/255, zstd and gzip by less) and per-record framing (JSON's
   * separators). {@link ProducerConfig.Builder#build()} refuses a spool whose segments are smaller.
   * A single record larger than {@code batchSizeInBytes} travels alone and may still not fit; the
   * spool then refuses it (counted in {@code spoolBatchesNotWritten}, noted in {@code
   * lastSpoolError}) and it keeps its in-memory outcome.
   *
   * @param batchSizeInBytes the producer's {@code batchSizeInBytes}
   */
  public static long minSegmentBytesFor(int batchSizeInBytes) {
    return (long) batchSizeInBytes + batchSizeInBytes / 32 + SEGMENT_ALLOWANCE_BYTES;
  }

  /**
   * Refuses segments that cannot hold a full request of {@code batchSizeInBytes} ({@link
   * ProducerConfig.Builder#build()} calls it).
   *
   * @throws IllegalArgumentException naming both settings, the minimum and the largest batch size
   *     that fits
   */
  void checkHolds(int batchSizeInBytes) {
    if (segmentBytes >= minSegmentBytesFor(batchSizeInBytes)) {
      return;
    }
    throw new IllegalArgumentException(
        "spool segmentBytes ("
            + segmentBytes
            + ") must be at least "
            + minSegmentBytesFor(batchSizeInBytes)
            + " for batchSizeInBytes ("
            + batchSizeInBytes
            + "): a segment holds whole request bodies (batchSizeInBytes + 1/32 + "
            + SEGMENT_ALLOWANCE_BYTES
            + " bytes for the entry's header, meta, the segment's footer and framing); raise"
            + " segmentBytes or lower batchSizeInBytes to at most "
            + maxBatchSizeFor(segmentBytes));
  }

  /** {@return the largest batchSizeInBytes whose requests fit segments of {@code segment} bytes} */
  private static long maxBatchSizeFor(long segment) {
    long b = Math.max(0, (segment - SEGMENT_ALLOWANCE_BYTES) * 32 / 33);
    while (b < Integer.MAX_VALUE && minSegmentBytesFor((int) b + 1) <= segment) {
      b++;
    }
    while (b > 0 && minSegmentBytesFor((int) b) > segment) {
      b--;
    }
    return b;
  }

  private final Path directory;
  private final long maxBytes;
  private final long segmentBytes;
  private final SpoolDurability durability;
  private final long groupCommitMillis;
  private final SpoolFullPolicy fullPolicy;
  private final long maxBlockMillis;
  private final long maxAgeMillis;
  private final double minFreeDiskShare;
  private final double replayShare;
  private final SpoolListener listener;

  private SpoolConfig(Builder b) {
    directory = b.directory;
    maxBytes = b.maxBytes;
    segmentBytes = b.segmentBytes;
    durability = b.durability;
    groupCommitMillis = b.groupCommitMillis;
    fullPolicy = b.fullPolicy;
    maxBlockMillis = b.maxBlockMillis;
    maxAgeMillis = b.maxAgeMillis;
    minFreeDiskShare = b.minFreeDiskShare;
    replayShare = b.replayShare;
    listener = b.listener;
  }

  /**
   * {@return a builder for a spool in {@code directory}, with the defaults}
   *
   * @param directory the spool's directory (created when absent); one producer at a time owns it
   * @throws IllegalArgumentException if {@code directory} is null
   */
  public static Builder builder(Path directory) {
    return new Builder(directory);
  }

  /** {@return the spool directory} */
  public Path getDirectory() {
    return directory;
  }

  /** {@return every byte the spool may take on disk (segments, checkpoint, lock, meta), bytes} */
  public long getMaxBytes() {
    return maxBytes;
  }

  /** {@return the size of one segment file, preallocated, bytes} */
  public long getSegmentBytes() {
    return segmentBytes;
  }

  /** {@return what a stored batch survives} */
  public SpoolDurability getDurability() {
    return durability;
  }

  /** {@return the group-commit interval of {@link SpoolDurability#GROUP_COMMIT}, millis} */
  public long getGroupCommitMillis() {
    return groupCommitMillis;
  }

  /** {@return what happens when the spool is full} */
  public SpoolFullPolicy getFullPolicy() {
    return fullPolicy;
  }

  /** {@return how long {@link SpoolFullPolicy#BLOCK} waits for room, millis} */
  public long getMaxBlockMillis() {
    return maxBlockMillis;
  }

  /** {@return the age past which a stored batch is expired (counted), millis} */
  public long getMaxAgeMillis() {
    return maxAgeMillis;
  }

  /** {@return the share of the file system the spool leaves free (0 ≤ share &lt; 1)} */
  public double getMinFreeDiskShare() {
    return minFreeDiskShare;
  }

  /**
   * {@return the share of the send threads' concurrent exports replay may use (0 &lt; share ≤ 1)}:
   * replay keeps at most {@code max(1, floor(replayShare × sendThreads))} exports in flight
   */
  public double getReplayShare() {
    return replayShare;
  }

  /**
   * {@return how many replay exports may be in flight at once beside {@code sendThreads} send
   * threads: {@code max(1, floor(replayShare × sendThreads))}}
   *
   * @param sendThreads the producer's {@code sendThreads}, at least 1
   */
  public int getReplayExports(int sendThreads) {
    return Math.max(1, (int) Math.floor(replayShare * sendThreads + 1e-9));
  }

  /** {@return the listener told of each stored batch leaving the spool, or null for none} */
  public SpoolListener getListener() {
    return listener;
  }

  @Override
  public String toString() {
    return "SpoolConfig{directory="
        + directory
        + ", maxBytes="
        + maxBytes
        + ", segmentBytes="
        + segmentBytes
        + ", durability="
        + durability
        + (durability == SpoolDurability.GROUP_COMMIT ? "/" + groupCommitMillis + "ms" : "")
        + ", fullPolicy="
        + fullPolicy
        + (fullPolicy == SpoolFullPolicy.BLOCK ? "/" + maxBlockMillis + "ms" : "")
        + ", maxAgeMillis="
        + maxAgeMillis
        + ", minFreeDiskShare="
        + minFreeDiskShare
        + ", replayShare="
        + replayShare
        + (listener == null ? "" : ", listener=" + listener.getClass().getName())
        + '}';
  }

  /** Builds a {@link SpoolConfig}; not thread-safe. */
  public static final class Builder {
    private final Path directory;
    private long maxBytes = 1L << 30;
    private long segmentBytes = 64L << 20;
    private SpoolDurability durability = SpoolDurability.GROUP_COMMIT;
    private long groupCommitMillis = 200;
    private SpoolFullPolicy fullPolicy = SpoolFullPolicy.DROP_NEWEST;
    private long maxBlockMillis;
    private long maxAgeMillis = 7L * 24 * 3600 * 1000;
    private double minFreeDiskShare = 0.05;
    private double replayShare = 0.5;
    private SpoolListener listener;

    private Builder(Path directory) {
      if (directory == null) {
        throw new IllegalArgumentException("spool directory must not be null");
      }
      this.directory = directory;
    }

    /**
     * Every byte the spool may take on disk: segment files as preallocated, the checkpoint, the
     * lock and meta files. Default 1 GiB: at a 10:1 compression it holds minutes to hours of a busy
     * service's logs, and is small next to today's disks.
     *
     * @param bytes at least {@code 2 × segmentBytes + }{@link #FIXED_OVERHEAD_BYTES} (checked by
     *     {@link #build()})
     * @return this builder
     * @throws IllegalArgumentException ("maxBytes …") if not positive
     */
    public Builder setMaxBytes(long bytes) {
      require(bytes > 0, "maxBytes must be positive: " + bytes);
      this.maxBytes = bytes;
      return this;
    }

    /**
     * The size of one segment file. Default 64 MiB: a 1 MiB batch wastes at most 1/64 of a segment
     * when it does not fit, and deleting a delivered segment frees a useful amount at once.
     *
     * @param bytes 4 KiB to 1 GiB, and at least {@link #minSegmentBytesFor
     *     minSegmentBytesFor(batchSizeInBytes)}, so that a whole request body fits (checked by
     *     {@link ProducerConfig.Builder#build()}: 1,082,368 bytes for the default 1 MiB batches; 64
     *     KiB segments take batches up to 62,558 bytes)
     * @return this builder
     * @throws IllegalArgumentException ("segmentBytes …") if out of range
     */
    public Builder setSegmentBytes(long bytes) {
      require(bytes >= 4096 && bytes <= (1L << 30), "segmentBytes must be 4 KiB..1 GiB: " + bytes);
      this.segmentBytes = bytes;
      return this;
    }

    /**
     * What a stored batch survives. Default {@link SpoolDurability#GROUP_COMMIT} every 200 ms:
     * power-loss safe within 200 ms for one fsync per interval, where an fsync per batch would cost
     * throughput and no fsync would lose the page cache at a power cut.
     *
     * @param durability the policy, not null
     * @return this builder
     * @throws IllegalArgumentException ("durability …") if null
     */
    public Builder setDurability(SpoolDurability durability) {
      require(durability != null, "durability must not be null");
      this.durability = durability;
      return this;
    }

    /**
     * The group-commit interval of {@link SpoolDurability#GROUP_COMMIT}. Default 200 ms: short
     * enough that a batch is durable long before a typical {@code deliveryTimeoutMillis}, long
     * enough for one fsync to cover many batches.
     *
     * @param millis 1 to 60 000
     * @return this builder
     * @throws IllegalArgumentException ("groupCommitMillis …") if out of range
     */
    public Builder setGroupCommitMillis(long millis) {
      require(millis >= 1 && millis <= 60_000, "groupCommitMillis must be 1..60000: " + millis);
      this.groupCommitMillis = millis;
      return this;
    }

    /**
     * What happens when storing a batch would pass {@code maxBytes}. Default {@link
     * SpoolFullPolicy#DROP_NEWEST}: every SPOOLED promise already made is kept, and a batch that
     * finds no room keeps today's in-memory outcome, which the application sees.
     *
     * @param policy the policy, not null
     * @param maxBlockMillis for {@link SpoolFullPolicy#BLOCK}, the longest a send thread waits for
     *     room, 0 to 60 000 millis; ignored otherwise
     * @return this builder
     * @throws IllegalArgumentException ("fullPolicy …" / "maxBlockMillis …") if null or out of
     *     range
     */
    public Builder setFullPolicy(SpoolFullPolicy policy, long maxBlockMillis) {
      require(policy != null, "fullPolicy must not be null");
      require(
          maxBlockMillis >= 0 && maxBlockMillis <= 60_000,
          "maxBlockMillis must be 0..60000: " + maxBlockMillis);
      this.fullPolicy = policy;
      this.maxBlockMillis = maxBlockMillis;
      return this;
    }

    /**
     * The age (from the batch's creation) past which a stored batch is expired instead of sent,
     * counted in the metrics. Default 7 days: a spool left behind for a week is rarely worth
     * replaying, and a bound keeps a forgotten directory from replaying forever.
     *
     * @param millis positive; {@link Long#MAX_VALUE} for no bound
     * @return this builder
     * @throws IllegalArgumentException ("maxAgeMillis …") if not positive
     */
    public Builder setMaxAgeMillis(long millis) {
      require(millis > 0, "maxAgeMillis must be positive: " + millis);
      this.maxAgeMillis = millis;
      return this;
    }

    /**
     * The share of the file system the spool leaves free: it creates no segment that would leave
     * less. Default 0.05 (as the Datadog Agent's 95 % ratio): the application and the OS keep room.
     *
     * @param share 0 (no guard) up to, not including, 1
     * @return this builder
     * @throws IllegalArgumentException ("minFreeDiskShare …") if out of range
     */
    public Builder setMinFreeDiskShare(double share) {
      require(share >= 0 && share < 1, "minFreeDiskShare must be in [0, 1): " + share);
      this.minFreeDiskShare = share;
      return this;
    }

    /**
     * How much of the send capacity replaying a backlog may take: replay keeps at most {@code
     * max(1, floor(share × sendThreads))} exports in flight (one thread each, one body each in
     * memory), beside the {@code sendThreads} exports of new traffic. Per shard it sends one stored
     * batch at a time, in the order stored, so order per shard is kept; batches of different shards
     * pass each other. Default 0.5: a backlog drains about half as fast as the send threads
     * together can send (4 exports with the default 8 send threads), while the receiver keeps at
     * least as much capacity for new traffic, which should not wait behind a long outage's backlog.
     *
     * @param share more than 0, at most 1
     * @return this builder
     * @throws IllegalArgumentException ("replayShare …") if out of range
     */
    public Builder setReplayShare(double share) {
      require(share > 0 && share <= 1, "replayShare must be in (0, 1]: " + share);
      this.replayShare = share;
      return this;
    }

    /**
     * The listener told of each stored batch leaving the spool (delivered by replay, expired,
     * dropped, corrupt, refused). Default none: the spool's metrics count every event anyway.
     *
     * @param listener thread-safe and quick (see {@link SpoolListener}); null for none
     * @return this builder
     */
    public Builder setListener(SpoolListener listener) {
      this.listener = listener;
      return this;
    }

    /**
     * {@return the settings}
     *
     * @throws IllegalArgumentException ("maxBytes …") if {@code maxBytes} is below {@code 2 ×
     *     segmentBytes + FIXED_OVERHEAD_BYTES}
     */
    public SpoolConfig build() {
      long floor = 2 * segmentBytes + FIXED_OVERHEAD_BYTES;
      require(
          maxBytes >= floor,
          "maxBytes ("
              + maxBytes
              + ") must be at least 2 x segmentBytes + "
              + FIXED_OVERHEAD_BYTES
              + " = "
              + floor);
      return new SpoolConfig(this);
    }

    private static void require(boolean ok, String message) {
      if (!ok) {
        throw new IllegalArgumentException("spool: " + message);
      }
    }
  }
}
