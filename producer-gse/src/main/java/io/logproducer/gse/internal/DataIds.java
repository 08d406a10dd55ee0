package io.logproducer.gse.internal;

import java.util.concurrent.ConcurrentHashMap;

/**
 * Resolves a record's dataid, its {@code destination} (a decimal string) or the exporter's default,
 * and the record's shard: one of the dataid's {@code stripes} shards, chosen by the calling thread,
 * so that many application threads sending to one dataid do not all contend for one open batch's
 * lock. A shard never spans dataids, so neither does a batch or its frame. libgse refuses dataids
 * {@code <= 0} and carries them as int32 ({@code output/gse/gse.go}), hence the range [1,
 * 2147483647].
 *
 * <p>Thread-safe. Parsed destinations are cached (up to {@value #MAX_CACHED} distinct strings) with
 * their shard keys, so that the per-record lookup neither parses nor allocates.
 */
public final class DataIds {

  /** Distinct destination strings cached. */
  public static final int MAX_CACHED = 4096;

  /** A shard: one stripe of one dataid. Immutable; equal keys for equal (dataid, stripe). */
  public static final class ShardKey {
    /** The dataid every record of this shard goes to. */
    public final int dataId;

    private final int stripe;

    ShardKey(int dataId, int stripe) {
      this.dataId = dataId;
      this.stripe = stripe;
    }

    /**
     * {@return the key of {@code stripe} of {@code dataId}, rebuilt from a disk spool}
     *
     * @throws IllegalArgumentException if the dataid is not in [1, 2147483647] or the stripe is
     *     negative
     */
    public static ShardKey of(int dataId, int stripe) {
      if (dataId <= 0 || stripe < 0) {
        throw new IllegalArgumentException(
            "not a GSE shard key: dataid " + dataId + " stripe " + stripe);
      }
      return new ShardKey(dataId, stripe);
    }

    /** {@return the stripe of the dataid this shard is, from 0} */
    public int stripe() {
      return stripe;
    }

    @Override
    public boolean equals(Object o) {
      if (!(o instanceof ShardKey)) {
        return false;
      }
      ShardKey k = (ShardKey) o;
      return k.dataId == dataId && k.stripe == stripe;
    }

    @Override
    public int hashCode() {
      return dataId * 31 + stripe;
    }

    @Override
    public String toString() {
      return "dataid " + dataId + " stripe " + stripe;
    }
  }

  /** A dataid and its shard keys. Immutable. */
  private static final class Entry {
    final int dataId;
    final ShardKey[] shards;

    Entry(int dataId, int stripes) {
      this.dataId = dataId;
      this.shards = new ShardKey[stripes];
      for (int i = 0; i < stripes; i++) {
        shards[i] = new ShardKey(dataId, i);
      }
    }
  }

  private final int stripes;
  private final Entry defaultEntry;
  private final ConcurrentHashMap<String, Entry> cache = new ConcurrentHashMap<>();

  /**
   * @param defaultDataId the dataid of records without a destination, or 0 for none
   * @param stripes shards per dataid, at least 1
   */
  public DataIds(int defaultDataId, int stripes) {
    if (stripes < 1) {
      throw new IllegalArgumentException("stripes must be >= 1, was " + stripes);
    }
    this.stripes = stripes;
    this.defaultEntry = defaultDataId > 0 ? new Entry(defaultDataId, stripes) : null;
  }

  /**
   * The dataid for a record with {@code destination}.
   *
   * @throws IllegalArgumentException if the destination is not a decimal integer in [1,
   *     2147483647], or it is null and there is no default dataid
   */
  public int of(String destination) {
    return entry(destination).dataId;
  }

  /**
   * The calling thread's shard for a record with {@code destination}.
   *
   * @throws IllegalArgumentException as {@link #of}
   */
  @SuppressWarnings("deprecation") // Thread.getId(): threadId() needs Java 19; this is Java 8 code
  public ShardKey shardKey(String destination) {
    ShardKey[] shards = entry(destination).shards;
    if (shards.length == 1) {
      return shards[0];
    }
    long id = Thread.currentThread().getId();
    return shards[(int) ((id & Long.MAX_VALUE) % shards.length)];
  }

  public int stripes() {
    return stripes;
  }

  private Entry entry(String destination) {
    if (destination == null) {
      if (defaultEntry == null) {
        throw new IllegalArgumentException(
            "the record has no destination (dataid) and the GSE exporter has no "
                + "default dataId: call GseExporterBuilder.setDataId(int) or LogRecord.Builder.setDestination(String)");
      }
      return defaultEntry;
    }
    Entry e = cache.get(destination);
    if (e != null) {
      return e;
    }
    int id = parse(destination);
    e = defaultEntry != null && defaultEntry.dataId == id ? defaultEntry : new Entry(id, stripes);
    if (cache.size() < MAX_CACHED) {
      Entry raced = cache.putIfAbsent(destination, e);
      if (raced != null) {
        e = raced;
      }
    }
    return e;
  }

  /**
   * @throws IllegalArgumentException unless {@code s} is a decimal integer in [1, 2147483647]
   */
  public static int parse(String s) {
    int n = s.length();
    if (n == 0 || n > 10) {
      throw invalid(s);
    }
    long v = 0;
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      if (c < '0' || c > '9') {
        throw invalid(s);
      }
      v = v * 10 + (c - '0');
    }
    if (v < 1 || v > Integer.MAX_VALUE) {
      throw invalid(s);
    }
    return (int) v;
  }

  private static IllegalArgumentException invalid(String s) {
    return new IllegalArgumentException(
        "destination (GSE dataid) must be a decimal integer in [1, 2147483647], was '" + s + "'");
  }
}
