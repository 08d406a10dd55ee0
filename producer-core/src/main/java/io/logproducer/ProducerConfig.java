package io.logproducer;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Immutable producer settings. Build with {@link #builder()}; every setter validates at once and
 * throws {@link IllegalArgumentException} naming the parameter, its bounds and the rejected value,
 * e.g. "batchSizeInBytes must be in [1, 67108864], was 0". The settings, their types, units,
 * defaults and bounds are declared once in {@link ProducerConfigDef}, which the setters validate
 * with. Thread-safe.
 *
 * <p>Sizes are bytes of records as the exporter encodes them (OTLP protobuf, GSE JSON, …), before
 * compression. Times are milliseconds.
 */
public final class ProducerConfig {

  /** Default {@code totalSizeInBytes}: {@value} (100 MiB). */
  public static final long DEFAULT_TOTAL_SIZE_IN_BYTES = 100L * 1024 * 1024;

  /** Default {@code maxBlockMillis}: {@value}. */
  public static final long DEFAULT_MAX_BLOCK_MILLIS = 60_000L;

  /** Default {@code batchSizeInBytes}: {@value} (1 MiB). */
  public static final int DEFAULT_BATCH_SIZE_IN_BYTES = 1024 * 1024;

  /** Default {@code batchCountThreshold}: {@value}. */
  public static final int DEFAULT_BATCH_COUNT_THRESHOLD = 32_768;

  /** Default {@code lingerMillis}: {@value}. */
  public static final long DEFAULT_LINGER_MILLIS = 1_000L;

  /**
   * Default {@code sendThreads}: {@value}. Send threads keep requests in flight while earlier ones
   * wait for the receiver; in the benchmark sweep (docs/PERFORMANCE.md) 8 was the fewest with which
   * {@code send} never waited for buffer space, and 8 to 32 performed alike.
   */
  public static final int DEFAULT_SEND_THREADS = 8;

  /**
   * Default {@code retries}: {@value} (unbounded by count; {@code deliveryTimeoutMillis} bounds
   * them).
   */
  public static final int DEFAULT_RETRIES = Integer.MAX_VALUE;

  /** Default {@code initialRetryBackoffMillis}: {@value}. */
  public static final long DEFAULT_INITIAL_RETRY_BACKOFF_MILLIS = 100L;

  /** Default {@code maxRetryBackoffMillis}: {@value}. */
  public static final long DEFAULT_MAX_RETRY_BACKOFF_MILLIS = 5_000L;

  /** Default {@code deliveryTimeoutMillis}: {@value}. */
  public static final long DEFAULT_DELIVERY_TIMEOUT_MILLIS = 120_000L;

  /**
   * Default zstd {@code compressionLevel}: {@value} (fastest standard level; see
   * docs/PERFORMANCE.md).
   */
  public static final int DEFAULT_ZSTD_LEVEL = 1;

  /** Default gzip {@code compressionLevel}: {@value}. */
  public static final int DEFAULT_GZIP_LEVEL = 1;

  /**
   * Default {@code maxAttributesPerRecord}: {@value}, OpenTelemetry's {@code LogLimits} default.
   * The same number as the SDK, so a record keeps the same attributes whichever of the two shipped
   * it; far above what a log event usually carries (a handful to a few dozen), and it bounds what
   * one hostile event (an MDC of a million entries) costs the logging thread and the batch.
   */
  public static final int DEFAULT_MAX_ATTRIBUTES_PER_RECORD = 128;

  /**
   * Default {@code maxAttributeValueLength}: {@value} (unlimited), as OpenTelemetry's {@code
   * LogLimits}. A record's size is already bounded (a record larger than a batch may carry is
   * refused with {@link RecordTooLargeException}), and a limit would cut values that are long on
   * purpose, such as the appenders' {@code exception.stacktrace}.
   */
  public static final int DEFAULT_MAX_ATTRIBUTE_VALUE_LENGTH = Integer.MAX_VALUE;

  /** Default {@code shutdownHookTimeoutMillis}: {@value}. */
  public static final long DEFAULT_SHUTDOWN_HOOK_TIMEOUT_MILLIS = 5_000L;

  /**
   * Largest {@code batchSizeInBytes}: {@value} (64 MiB, the OTLP specification's recommended
   * request limit).
   */
  public static final int MAX_BATCH_SIZE_IN_BYTES = 64 * 1024 * 1024;

  private static final AtomicInteger CLIENT_IDS = new AtomicInteger();

  private final long totalSizeInBytes;
  private final long maxBlockMillis;
  private final int batchSizeInBytes;
  private final int batchCountThreshold;
  private final long lingerMillis;
  private final int sendThreads;
  private final int retries;
  private final long initialRetryBackoffMillis;
  private final long maxRetryBackoffMillis;
  private final long deliveryTimeoutMillis;
  private final int maxAttributesPerRecord;
  private final int maxAttributeValueLength;
  private final Compression compression;
  private final int compressionLevel;
  private final BufferFullPolicy bufferFullPolicy;
  private final String clientId;
  private final boolean jmxEnabled;
  private final boolean shutdownHookEnabled;
  private final long shutdownHookTimeoutMillis;
  private final SpoolConfig spool;

  private ProducerConfig(Builder b) {
    this.totalSizeInBytes = b.totalSizeInBytes;
    this.maxBlockMillis = b.maxBlockMillis;
    this.batchSizeInBytes = b.batchSizeInBytes;
    this.batchCountThreshold = b.batchCountThreshold;
    this.lingerMillis = b.lingerMillis;
    this.sendThreads = b.sendThreads;
    this.retries = b.retries;
    this.initialRetryBackoffMillis = b.initialRetryBackoffMillis;
    this.maxRetryBackoffMillis = b.maxRetryBackoffMillis;
    this.deliveryTimeoutMillis = b.deliveryTimeoutMillis;
    this.maxAttributesPerRecord = b.maxAttributesPerRecord;
    this.maxAttributeValueLength = b.maxAttributeValueLength;
    this.compression = b.compression;
    this.compressionLevel = b.compressionLevel;
    this.bufferFullPolicy = b.bufferFullPolicy;
    this.clientId = b.clientId != null ? b.clientId : defaultClientId();
    this.jmxEnabled = b.jmxEnabled;
    this.shutdownHookEnabled = b.shutdownHookEnabled;
    this.shutdownHookTimeoutMillis = b.shutdownHookTimeoutMillis;
    this.spool = b.spool;
  }

  /**
   * "logproducer-N", N counting producers of this class loader; with a suffix naming the class
   * loader when it is not the system class loader, so that two web applications in one server do
   * not both get "logproducer-1".
   */
  private static String defaultClientId() {
    String id = "logproducer-" + CLIENT_IDS.incrementAndGet();
    ClassLoader loader = ProducerConfig.class.getClassLoader();
    ClassLoader system;
    try {
      system = ClassLoader.getSystemClassLoader();
    } catch (SecurityException | IllegalStateException e) {
      system = null;
    }
    if (loader != null && loader != system) {
      id += "-" + Integer.toHexString(System.identityHashCode(loader));
    }
    return id;
  }

  /** {@return a builder holding the defaults} */
  public static Builder builder() {
    return new Builder();
  }

  /** {@return a configuration with every setting at its default} */
  public static ProducerConfig defaults() {
    return builder().build();
  }

  /**
   * {@return the hard bound, in bytes, on the heap the producer's batches hold (open, sealed, in
   * flight and retrying)} It counts records' chunks, charged whole, batch bookkeeping and pooled
   * chunks.
   */
  public long getTotalSizeInBytes() {
    return totalSizeInBytes;
  }

  /**
   * {@return how long {@code send} may wait for buffer space under {@link BufferFullPolicy#BLOCK},
   * in ms}
   */
  public long getMaxBlockMillis() {
    return maxBlockMillis;
  }

  /** {@return the size, in encoded record bytes, at which a batch is sealed} */
  public int getBatchSizeInBytes() {
    return batchSizeInBytes;
  }

  /** {@return the record count at which a batch is sealed} */
  public int getBatchCountThreshold() {
    return batchCountThreshold;
  }

  /** {@return the age, in ms after its first record was added, at which a batch is sealed} */
  public long getLingerMillis() {
    return lingerMillis;
  }

  /** {@return the number of threads that compress and ship sealed batches} */
  public int getSendThreads() {
    return sendThreads;
  }

  /**
   * {@return the most {@link io.logproducer.spi.Exporter#export} calls in flight at once: {@link
   * #getSendThreads()}, plus the spool's replay exports ({@link SpoolConfig#getReplayExports(int)})
   * when a spool is set} An exporter sizes its connection pool with it.
   */
  public int getMaxConcurrentExports() {
    return sendThreads + (spool == null ? 0 : spool.getReplayExports(sendThreads));
  }

  /** {@return the maximum number of re-sends of a batch after retryable failures} */
  public int getRetries() {
    return retries;
  }

  /**
   * {@return the backoff before the first retry, in ms} It doubles per retry, with ±20 % jitter.
   */
  public long getInitialRetryBackoffMillis() {
    return initialRetryBackoffMillis;
  }

  /** {@return the cap on the backoff between retries, in ms} */
  public long getMaxRetryBackoffMillis() {
    return maxRetryBackoffMillis;
  }

  /**
   * {@return the upper bound, in ms from a batch's creation, on its delivery including all retries}
   */
  public long getDeliveryTimeoutMillis() {
    return deliveryTimeoutMillis;
  }

  /**
   * {@return how many attributes a record keeps at {@code send}} The first ones, in order; the
   * others are dropped and counted in its {@code dropped_attributes_count}.
   */
  public int getMaxAttributesPerRecord() {
    return maxAttributesPerRecord;
  }

  /**
   * {@return the longest attribute value a record keeps at {@code send}, in chars of a string
   * (UTF-16 units) or bytes of a byte array; {@link Integer#MAX_VALUE} for no limit}
   */
  public int getMaxAttributeValueLength() {
    return maxAttributeValueLength;
  }

  /** {@return the request compression, or null for the exporter's default} */
  public Compression getCompression() {
    return compression;
  }

  /**
   * {@return the compression level for GZIP (1–9) and ZSTD (1–22); 0 means the codec's default} The
   * defaults are {@link #DEFAULT_GZIP_LEVEL} and {@link #DEFAULT_ZSTD_LEVEL}; LZ4 and NONE ignore
   * the level.
   */
  public int getCompressionLevel() {
    return compressionLevel;
  }

  /** {@return what {@code send} does when {@code totalSizeInBytes} is exhausted} */
  public BufferFullPolicy getBufferFullPolicy() {
    return bufferFullPolicy;
  }

  /** {@return the name of the producer's threads and of its JMX bean} */
  public String getClientId() {
    return clientId;
  }

  /** {@return whether the metrics are registered as a JMX MBean} */
  public boolean isJmxEnabled() {
    return jmxEnabled;
  }

  /**
   * {@return whether a JVM shutdown hook closes this producer if the application has not} So
   * buffered records are shipped, or reported, rather than lost silently at exit. The hook is
   * removed at {@code close}.
   */
  public boolean isShutdownHookEnabled() {
    return shutdownHookEnabled;
  }

  /** {@return the grace period, in ms, the shutdown hook gives {@code close}} */
  public long getShutdownHookTimeoutMillis() {
    return shutdownHookTimeoutMillis;
  }

  /**
   * {@return the disk spool's settings, or null when the producer has no spool (the default)} See
   * {@link Builder#setSpool(SpoolConfig)}.
   */
  public SpoolConfig getSpool() {
    return spool;
  }

  @Override
  public String toString() {
    return "ProducerConfig{clientId="
        + clientId
        + ", totalSizeInBytes="
        + totalSizeInBytes
        + ", maxBlockMillis="
        + maxBlockMillis
        + ", batchSizeInBytes="
        + batchSizeInBytes
        + ", batchCountThreshold="
        + batchCountThreshold
        + ", lingerMillis="
        + lingerMillis
        + ", sendThreads="
        + sendThreads
        + ", retries="
        + retries
        + ", initialRetryBackoffMillis="
        + initialRetryBackoffMillis
        + ", maxRetryBackoffMillis="
        + maxRetryBackoffMillis
        + ", deliveryTimeoutMillis="
        + deliveryTimeoutMillis
        + ", maxAttributesPerRecord="
        + maxAttributesPerRecord
        + ", maxAttributeValueLength="
        + maxAttributeValueLength
        + ", compression="
        + (compression == null ? "<the exporter's default>" : compression)
        + ", compressionLevel="
        + compressionLevel
        + ", bufferFullPolicy="
        + bufferFullPolicy
        + ", shutdownHookEnabled="
        + shutdownHookEnabled
        + ", shutdownHookTimeoutMillis="
        + shutdownHookTimeoutMillis
        + (spool == null ? "" : ", spool=" + spool)
        + "}";
  }

  /**
   * Checks that {@code level} fits {@code compression}: 0 always (the codec's default); gzip 1–9;
   * zstd 1–22; none for LZ4 and NONE, which have no levels.
   *
   * @param compression the compression in effect, or null when the exporter's default is not known
   *     yet (then only the range [0, 22] is checked)
   * @param level the configured {@code compressionLevel}
   * @throws IllegalArgumentException if the level does not fit; the message names both settings
   */
  public static void checkCompressionLevel(Compression compression, int level) {
    if (level == 0 || compression == null || compression == Compression.ZSTD) {
      return;
    }
    if (compression == Compression.GZIP) {
      if (level > 9) {
        throw new IllegalArgumentException(
            "compressionLevel for GZIP must be in [0, 9], was " + level);
      }
      return;
    }
    throw new IllegalArgumentException(
        "compressionLevel ("
            + level
            + ") applies only to GZIP and ZSTD; compression is "
            + compression
            + ", which has no levels: leave compressionLevel at 0");
  }

  /** Builds a {@link ProducerConfig}. Not thread-safe. */
  public static final class Builder {
    private long totalSizeInBytes = DEFAULT_TOTAL_SIZE_IN_BYTES;
    private long maxBlockMillis = DEFAULT_MAX_BLOCK_MILLIS;
    private int batchSizeInBytes = DEFAULT_BATCH_SIZE_IN_BYTES;
    private int batchCountThreshold = DEFAULT_BATCH_COUNT_THRESHOLD;
    private long lingerMillis = DEFAULT_LINGER_MILLIS;
    private int sendThreads = DEFAULT_SEND_THREADS;
    private int retries = DEFAULT_RETRIES;
    private long initialRetryBackoffMillis = DEFAULT_INITIAL_RETRY_BACKOFF_MILLIS;
    private long maxRetryBackoffMillis = DEFAULT_MAX_RETRY_BACKOFF_MILLIS;
    private long deliveryTimeoutMillis = DEFAULT_DELIVERY_TIMEOUT_MILLIS;
    private int maxAttributesPerRecord = DEFAULT_MAX_ATTRIBUTES_PER_RECORD;
    private int maxAttributeValueLength = DEFAULT_MAX_ATTRIBUTE_VALUE_LENGTH;
    private Compression compression;
    private int compressionLevel;
    private BufferFullPolicy bufferFullPolicy = BufferFullPolicy.BLOCK;
    private String clientId;
    private boolean jmxEnabled = true;
    private SpoolConfig spool;
    private boolean shutdownHookEnabled = true;
    private long shutdownHookTimeoutMillis = DEFAULT_SHUTDOWN_HOOK_TIMEOUT_MILLIS;

    private Builder() {}

    /**
     * The memory budget: the bound on the heap the producer's batches hold (see {@link
     * ProducerConfig#getTotalSizeInBytes()}).
     *
     * <p>It must be at least {@code batchSizeInBytes} ({@link #build()} refuses less). Records are
     * stored in chunks of a power of two of at most 64 KiB and 1/16 of the budget, charged whole,
     * plus each batch's bookkeeping, so a batch never holds the whole budget: with a budget of one
     * or a few batches, batches are sealed when the budget runs short rather than at {@code
     * batchSizeInBytes}, and ship smaller. Whenever senders wait for budget, the open batches (one
     * per shard, each holding at least one chunk) are sealed and shipped, without waiting for
     * {@code lingerMillis}, once they hold a quarter of the budget or more than the longest waiter
     * could get without them; so any budget the builder accepts serves every sender in time while
     * the receiver keeps up. The largest record accepted is the smaller of the exporter's maximum
     * batch size and {@code totalSizeInBytes} less min(half of it, 64 KiB + 1/64 of it); with a
     * budget of a few KiB a record must also leave room for its chunks and its batch's bookkeeping
     * (about 1 KiB), or {@code send} throws {@link RecordTooLargeException}.
     *
     * @param totalSizeInBytes bytes, in [1024, 2^40]; default {@value
     *     ProducerConfig#DEFAULT_TOTAL_SIZE_IN_BYTES}
     * @return this builder
     * @throws IllegalArgumentException if outside that range
     */
    public Builder setTotalSizeInBytes(long totalSizeInBytes) {
      this.totalSizeInBytes = ProducerConfigDef.TOTAL_SIZE_IN_BYTES.check(totalSizeInBytes);
      return this;
    }

    /**
     * How long {@code send} may wait for buffer space under {@link BufferFullPolicy#BLOCK} before
     * it throws {@link BufferExhaustedException} (the record is then not accepted).
     *
     * <p>A {@code send} waits only while {@code totalSizeInBytes} cannot take its record (with the
     * chunk or bookkeeping it needs), and at most this long in all, however often it must wait
     * again. Waiting senders are served in the order they started to wait (a {@code send} that must
     * wait again keeps its place); a {@code send} that finds the bytes it needs free takes them
     * without queueing. No waiting sender holds budget except the longest waiter, which gathers the
     * bytes released until it has all it needs, so waiters cannot hold the budget between them; and
     * while senders wait, open batches are sealed for them (see {@link
     * #setTotalSizeInBytes(long)}), so they wait only for batches that are being delivered. Called
     * on a producer thread (from a callback) {@code send} never waits; under {@link
     * BufferFullPolicy#DROP} it never waits either.
     *
     * @param maxBlockMillis milliseconds, in [0, 2^31-1]; default {@value
     *     ProducerConfig#DEFAULT_MAX_BLOCK_MILLIS}
     * @return this builder
     * @throws IllegalArgumentException if outside that range
     */
    public Builder setMaxBlockMillis(long maxBlockMillis) {
      this.maxBlockMillis = ProducerConfigDef.MAX_BLOCK_MILLIS.check(maxBlockMillis);
      return this;
    }

    /**
     * The size, in encoded record bytes, at which a batch is sealed; at most {@code
     * totalSizeInBytes}. A value above the exporter's maximum batch size (what one request may
     * carry, e.g. Kafka's {@code max.request.size} less framing) is lowered to it by the producer.
     *
     * @param batchSizeInBytes bytes, in [1, {@value ProducerConfig#MAX_BATCH_SIZE_IN_BYTES}];
     *     default {@value ProducerConfig#DEFAULT_BATCH_SIZE_IN_BYTES}
     * @return this builder
     * @throws IllegalArgumentException if outside that range
     */
    public Builder setBatchSizeInBytes(int batchSizeInBytes) {
      this.batchSizeInBytes = (int) ProducerConfigDef.BATCH_SIZE_IN_BYTES.check(batchSizeInBytes);
      return this;
    }

    /**
     * The record count at which a batch is sealed.
     *
     * @param batchCountThreshold records, in [1, 10000000]; default {@value
     *     ProducerConfig#DEFAULT_BATCH_COUNT_THRESHOLD}
     * @return this builder
     * @throws IllegalArgumentException if outside that range
     */
    public Builder setBatchCountThreshold(int batchCountThreshold) {
      this.batchCountThreshold =
          (int) ProducerConfigDef.BATCH_COUNT_THRESHOLD.check(batchCountThreshold);
      return this;
    }

    /**
     * How long after its first record a batch is sealed if neither size nor count sealed it first.
     *
     * @param lingerMillis milliseconds, in [0, 3600000]; default {@value
     *     ProducerConfig#DEFAULT_LINGER_MILLIS}
     * @return this builder
     * @throws IllegalArgumentException if outside that range
     */
    public Builder setLingerMillis(long lingerMillis) {
      this.lingerMillis = ProducerConfigDef.LINGER_MILLIS.check(lingerMillis);
      return this;
    }

    /**
     * The number of threads that compress and ship sealed batches, one request each at a time.
     *
     * @param sendThreads threads, in [1, 256]; default {@value ProducerConfig#DEFAULT_SEND_THREADS}
     * @return this builder
     * @throws IllegalArgumentException if outside that range
     */
    public Builder setSendThreads(int sendThreads) {
      this.sendThreads = (int) ProducerConfigDef.SEND_THREADS.check(sendThreads);
      return this;
    }

    /**
     * The maximum number of re-sends of a batch after retryable failures; {@code
     * deliveryTimeoutMillis} bounds them too.
     *
     * @param retries count, in [0, 2^31-1]; default {@value ProducerConfig#DEFAULT_RETRIES}
     * @return this builder
     * @throws IllegalArgumentException if outside that range
     */
    public Builder setRetries(int retries) {
      this.retries = (int) ProducerConfigDef.RETRIES.check(retries);
      return this;
    }

    /**
     * The backoff before the first retry; it doubles per retry up to {@code maxRetryBackoffMillis},
     * with ±20 % jitter.
     *
     * @param initialRetryBackoffMillis milliseconds, in [1, 3600000]; default {@value
     *     ProducerConfig#DEFAULT_INITIAL_RETRY_BACKOFF_MILLIS}
     * @return this builder
     * @throws IllegalArgumentException if outside that range
     */
    public Builder setInitialRetryBackoffMillis(long initialRetryBackoffMillis) {
      this.initialRetryBackoffMillis =
          ProducerConfigDef.INITIAL_RETRY_BACKOFF_MILLIS.check(initialRetryBackoffMillis);
      return this;
    }

    /**
     * The cap on the backoff between retries; at least {@code initialRetryBackoffMillis}.
     *
     * @param maxRetryBackoffMillis milliseconds, in [1, 3600000]; default {@value
     *     ProducerConfig#DEFAULT_MAX_RETRY_BACKOFF_MILLIS}
     * @return this builder
     * @throws IllegalArgumentException if outside that range
     */
    public Builder setMaxRetryBackoffMillis(long maxRetryBackoffMillis) {
      this.maxRetryBackoffMillis =
          ProducerConfigDef.MAX_RETRY_BACKOFF_MILLIS.check(maxRetryBackoffMillis);
      return this;
    }

    /**
     * The upper bound, from a batch's creation, on its delivery including all retries; at least
     * {@code lingerMillis} (and, checked by the producer, {@code lingerMillis} plus the exporter's
     * request timeout).
     *
     * @param deliveryTimeoutMillis milliseconds, in [1, 2^31-1]; default {@value
     *     ProducerConfig#DEFAULT_DELIVERY_TIMEOUT_MILLIS}
     * @return this builder
     * @throws IllegalArgumentException if outside that range
     */
    public Builder setDeliveryTimeoutMillis(long deliveryTimeoutMillis) {
      this.deliveryTimeoutMillis =
          ProducerConfigDef.DELIVERY_TIMEOUT_MILLIS.check(deliveryTimeoutMillis);
      return this;
    }

    /**
     * How many attributes a record keeps, as OpenTelemetry's {@code
     * LogLimits.maxNumberOfAttributes}: {@code send} keeps a record's first {@code
     * maxAttributesPerRecord} attributes (in their order) and drops the rest, adding them to the
     * record's {@code dropped_attributes_count}. A record within the limit is sent as it is, at no
     * cost (the count is known). The appenders stop copying the MDC / ThreadContext at this limit.
     *
     * @param maxAttributesPerRecord attributes, in [0, 2^31-1]; default {@value
     *     ProducerConfig#DEFAULT_MAX_ATTRIBUTES_PER_RECORD} (OpenTelemetry's: far above a usual
     *     event's attributes, and a bound on what one hostile event costs)
     * @return this builder
     * @throws IllegalArgumentException if outside that range
     */
    public Builder setMaxAttributesPerRecord(int maxAttributesPerRecord) {
      this.maxAttributesPerRecord =
          (int) ProducerConfigDef.MAX_ATTRIBUTES_PER_RECORD.check(maxAttributesPerRecord);
      return this;
    }

    /**
     * The longest attribute value a record keeps, as OpenTelemetry's {@code
     * LogLimits.maxAttributeValueLength}: {@code send} truncates a longer string attribute to this
     * many chars (UTF-16 units; one fewer rather than split a surrogate pair), strings inside
     * arrays and key/value lists too, and byte arrays to this many bytes. Other values, the body
     * and the keys are left as they are. A record whose values are all within it is sent as it is,
     * at no cost (the builder knows its longest value).
     *
     * @param maxAttributeValueLength chars, in [0, 2^31-1]; default {@value
     *     ProducerConfig#DEFAULT_MAX_ATTRIBUTE_VALUE_LENGTH} (no limit, as OpenTelemetry: a
     *     record's size is bounded anyway, and a limit cuts values long on purpose, such as stack
     *     traces)
     * @return this builder
     * @throws IllegalArgumentException if outside that range
     */
    public Builder setMaxAttributeValueLength(int maxAttributeValueLength) {
      this.maxAttributeValueLength =
          (int) ProducerConfigDef.MAX_ATTRIBUTE_VALUE_LENGTH.check(maxAttributeValueLength);
      return this;
    }

    /**
     * Request compression; the exporter must support it (checked by the producer).
     *
     * @param compression the compression; null (the default) leaves the choice to the exporter
     *     (OTLP: none unless configured)
     * @return this builder
     */
    public Builder setCompression(Compression compression) {
      this.compression = compression;
      return this;
    }

    /**
     * Compression level, for GZIP and ZSTD only.
     *
     * @param compressionLevel 0 (the default) for the codec's default level (gzip {@value
     *     ProducerConfig#DEFAULT_GZIP_LEVEL}, zstd {@value ProducerConfig#DEFAULT_ZSTD_LEVEL});
     *     else gzip 1–9, zstd 1–22
     * @return this builder
     * @throws IllegalArgumentException if outside [0, 22]; {@link #build()} also refuses a gzip
     *     level above 9 and any non-zero level with LZ4 or NONE (they have no levels), and the
     *     {@link Producer} constructor does the same when the compression is the exporter's default
     */
    public Builder setCompressionLevel(int compressionLevel) {
      this.compressionLevel = (int) ProducerConfigDef.COMPRESSION_LEVEL.check(compressionLevel);
      return this;
    }

    /**
     * What {@code send} does when {@code totalSizeInBytes} is exhausted.
     *
     * @param bufferFullPolicy the policy; default {@link BufferFullPolicy#BLOCK}
     * @return this builder
     * @throws IllegalArgumentException if null
     */
    public Builder setBufferFullPolicy(BufferFullPolicy bufferFullPolicy) {
      if (bufferFullPolicy == null) {
        throw new IllegalArgumentException("bufferFullPolicy must not be null");
      }
      this.bufferFullPolicy = bufferFullPolicy;
      return this;
    }

    /**
     * Names the producer's threads ({@code <clientId>-…}) and its JMX bean.
     *
     * @param clientId the name; default "logproducer-N", N counting producers, with a suffix naming
     *     the class loader when it is not the system class loader
     * @return this builder
     * @throws IllegalArgumentException if null or empty
     */
    public Builder setClientId(String clientId) {
      if (clientId == null || clientId.isEmpty()) {
        throw new IllegalArgumentException("clientId must not be empty");
      }
      this.clientId = clientId;
      return this;
    }

    /**
     * Gives the producer a disk spool: each sealed batch is written there, as shipped, when first
     * exported; a batch undelivered at its {@code deliveryTimeoutMillis} or at {@code close()}
     * while durable in the spool completes with {@link SendResult.Status#SPOOLED} and leaves
     * memory, and this producer or the next one on the same directory delivers it. The producer's
     * constructor opens (and locks) the directory; another owner makes it throw.
     *
     * @param spool the spool's settings, or null for none (the default)
     * @return this builder
     */
    public Builder setSpool(SpoolConfig spool) {
      this.spool = spool;
      return this;
    }

    /**
     * Whether to register the metrics as a JMX MBean ({@link ProducerMetricsMXBean}).
     *
     * @param jmxEnabled whether to register it; default true
     * @return this builder
     */
    public Builder setJmxEnabled(boolean jmxEnabled) {
      this.jmxEnabled = jmxEnabled;
      return this;
    }

    /**
     * Close the producer from a JVM shutdown hook if the application has not closed it; default
     * true. Turn it off when the application closes producers itself in its own shutdown order
     * (e.g. after its last log line). The logback and log4j2 appenders turn it off for their
     * producers and own the exit themselves (one stop, after the logging framework's, see
     * docs/appenders.md, "Lifecycle"); for them {@code false} turns their own exit hook off too.
     *
     * @param shutdownHookEnabled whether to install the hook; default true
     * @return this builder
     */
    public Builder setShutdownHookEnabled(boolean shutdownHookEnabled) {
      this.shutdownHookEnabled = shutdownHookEnabled;
      return this;
    }

    /**
     * Milliseconds, in [0, 3600000], the shutdown hook's {@code close} may wait for delivery (it
     * delays the JVM's exit by at most this plus one second); default {@value
     * ProducerConfig#DEFAULT_SHUTDOWN_HOOK_TIMEOUT_MILLIS}.
     *
     * @param shutdownHookTimeoutMillis milliseconds, in [0, 3600000]
     * @return this builder
     * @throws IllegalArgumentException if outside that range
     */
    public Builder setShutdownHookTimeoutMillis(long shutdownHookTimeoutMillis) {
      this.shutdownHookTimeoutMillis =
          ProducerConfigDef.SHUTDOWN_HOOK_TIMEOUT_MILLIS.check(shutdownHookTimeoutMillis);
      return this;
    }

    /**
     * Convenience for {@link #setLingerMillis(long)}.
     *
     * @param linger the linger time, truncated to whole milliseconds; not null
     * @return this builder
     * @throws IllegalArgumentException if {@code linger} is null or outside the range of {@link
     *     #setLingerMillis(long)}
     */
    public Builder setLinger(Duration linger) {
      return setLingerMillis(millis("linger", linger));
    }

    /**
     * Convenience for {@link #setDeliveryTimeoutMillis(long)}.
     *
     * @param timeout the delivery timeout, truncated to whole milliseconds; not null
     * @return this builder
     * @throws IllegalArgumentException if {@code timeout} is null or outside the range of {@link
     *     #setDeliveryTimeoutMillis(long)}
     */
    public Builder setDeliveryTimeout(Duration timeout) {
      return setDeliveryTimeoutMillis(millis("deliveryTimeout", timeout));
    }

    private static long millis(String name, Duration d) {
      if (d == null) {
        throw new IllegalArgumentException(name + " must not be null");
      }
      try {
        return d.toMillis();
      } catch (ArithmeticException e) {
        throw new IllegalArgumentException(name + " is too long: " + d, e);
      }
    }

    /**
     * Checks the settings against each other and creates the configuration. The builder can be
     * reused.
     *
     * @return a new immutable configuration
     * @throws IllegalArgumentException if batchSizeInBytes exceeds totalSizeInBytes,
     *     maxRetryBackoffMillis is below initialRetryBackoffMillis, deliveryTimeoutMillis is below
     *     lingerMillis (a batch would expire before it is sealed), compressionLevel does not fit
     *     the compression, or the spool's segmentBytes is below {@link
     *     SpoolConfig#minSegmentBytesFor} batchSizeInBytes (a full batch would never fit a
     *     segment); the message names both settings
     */
    public ProducerConfig build() {
      if (deliveryTimeoutMillis < lingerMillis) {
        throw new IllegalArgumentException(
            "deliveryTimeoutMillis ("
                + deliveryTimeoutMillis
                + ") must not be below lingerMillis ("
                + lingerMillis
                + "): batches would expire before they are sent");
      }
      if (batchSizeInBytes > totalSizeInBytes) {
        throw new IllegalArgumentException(
            "batchSizeInBytes ("
                + batchSizeInBytes
                + ") must not exceed totalSizeInBytes ("
                + totalSizeInBytes
                + ")");
      }
      if (maxRetryBackoffMillis < initialRetryBackoffMillis) {
        throw new IllegalArgumentException(
            "maxRetryBackoffMillis ("
                + maxRetryBackoffMillis
                + ") must not be below initialRetryBackoffMillis ("
                + initialRetryBackoffMillis
                + ")");
      }
      checkCompressionLevel(compression, compressionLevel);
      if (spool != null) {
        spool.checkHolds(batchSizeInBytes);
      }
      return new ProducerConfig(this);
    }
  }
}
