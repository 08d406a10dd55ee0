package io.logproducer.spi;

import io.logproducer.Compression;
import io.logproducer.ProducerConfig;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

/**
 * What an {@link Exporter} declares about its transport, as one immutable value the producer's
 * constructor reads once (through {@link Exporter#capabilities()}) to size batches, pick and check
 * the compression, and check the delivery timeout: the compression used when none is configured,
 * the compressions its receiver accepts, whether the transport compresses by itself, the most
 * record bytes one request may carry, and how long one export may take.
 *
 * <p>Built with {@link #builder(int)}; the builder validates every value, and {@link
 * Builder#build()} checks that the default compression is one of the supported ones. Immutable and
 * thread-safe.
 */
public final class ExporterCapabilities {

  private final Compression defaultCompression;
  private final Set<Compression> supportedCompressions;
  private final boolean compressesItself;
  private final int maxBatchSizeInBytes;
  private final long requestTimeoutMillis;

  private ExporterCapabilities(Builder b) {
    this.defaultCompression = b.defaultCompression;
    this.supportedCompressions =
        Collections.unmodifiableSet(EnumSet.copyOf(b.supportedCompressions));
    this.compressesItself = b.compressesItself;
    this.maxBatchSizeInBytes = b.maxBatchSizeInBytes;
    this.requestTimeoutMillis = b.requestTimeoutMillis;
  }

  /**
   * A builder with: default compression {@link Compression#NONE}, every compression supported, not
   * compressing itself, no request timeout declared (0).
   *
   * @param maxBatchSizeInBytes see {@link #maxBatchSizeInBytes()}, in bytes, at least 1
   * @return a new builder, not thread-safe
   * @throws IllegalArgumentException if {@code maxBatchSizeInBytes} is below 1
   */
  public static Builder builder(int maxBatchSizeInBytes) {
    return new Builder().setMaxBatchSizeInBytes(maxBatchSizeInBytes);
  }

  /**
   * {@return the compression used when {@link ProducerConfig#getCompression()} is null, not null}
   */
  public Compression defaultCompression() {
    return defaultCompression;
  }

  /**
   * {@return the compressions request bodies may be compressed with, unmodifiable, not empty} (A
   * GSE agent accepts none, for example.) The producer's constructor refuses a configured
   * compression outside it.
   */
  public Set<Compression> supportedCompressions() {
    return supportedCompressions;
  }

  /**
   * Whether requests may be compressed with {@code compression}.
   *
   * @param compression a compression; null is never supported
   * @return true if it is one of {@link #supportedCompressions()}
   */
  public boolean supports(Compression compression) {
    return compression != null && supportedCompressions.contains(compression);
  }

  /**
   * Whether the transport compresses requests itself, as the Kafka client compresses its record
   * batches. Then the producer does not compress request bodies: {@link Exporter#export} always
   * gets {@link Compression#NONE} bodies, and the exporter applies the configured compression
   * ({@link ProducerConfig#getCompression()}, or {@link #defaultCompression()} when null, with
   * {@link ProducerConfig#getCompressionLevel()}) in its transport, as read in {@link
   * Exporter#start}.
   *
   * @return true if the producer must leave request bodies uncompressed; default false
   */
  public boolean compressesItself() {
    return compressesItself;
  }

  /**
   * {@return the largest sum of encoded record bytes one request may carry, in bytes, at least 1}
   * For example the OTLP maximum request size minus framing, or Kafka's {@code max.request.size}
   * minus the message overhead. Batches are sealed below it; a larger record is refused at {@code
   * send}; a {@code batchSizeInBytes} above it is lowered to it (and logged once at INFO by the
   * producer's constructor).
   */
  public int maxBatchSizeInBytes() {
    return maxBatchSizeInBytes;
  }

  /**
   * {@return how long one {@link Exporter#export} call may take at most, in ms, or 0 if the
   * exporter does not say} The producer refuses a {@code deliveryTimeoutMillis} below {@code
   * lingerMillis} plus this, as Kafka refuses {@code delivery.timeout.ms} below {@code linger.ms +
   * request.timeout.ms}: a batch would never get a whole attempt. Default 0.
   */
  public long requestTimeoutMillis() {
    return requestTimeoutMillis;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof ExporterCapabilities)) {
      return false;
    }
    ExporterCapabilities c = (ExporterCapabilities) o;
    return defaultCompression == c.defaultCompression
        && supportedCompressions.equals(c.supportedCompressions)
        && compressesItself == c.compressesItself
        && maxBatchSizeInBytes == c.maxBatchSizeInBytes
        && requestTimeoutMillis == c.requestTimeoutMillis;
  }

  @Override
  public int hashCode() {
    int h = defaultCompression.hashCode();
    h = 31 * h + supportedCompressions.hashCode();
    h = 31 * h + (compressesItself ? 1 : 0);
    h = 31 * h + maxBatchSizeInBytes;
    return 31 * h + Long.hashCode(requestTimeoutMillis);
  }

  /**
   * {@return the values, e.g. for a log line, in the form {@code
   * ExporterCapabilities{defaultCompression=...}}}
   */
  @Override
  public String toString() {
    return "ExporterCapabilities{defaultCompression="
        + defaultCompression
        + ", supportedCompressions="
        + supportedCompressions
        + ", compressesItself="
        + compressesItself
        + ", maxBatchSizeInBytes="
        + maxBatchSizeInBytes
        + ", requestTimeoutMillis="
        + requestTimeoutMillis
        + "}";
  }

  /**
   * Builds an {@link ExporterCapabilities}; each setter validates its value and names the parameter
   * in its exception. Not thread-safe.
   */
  public static final class Builder {

    private Compression defaultCompression = Compression.NONE;
    private Set<Compression> supportedCompressions = EnumSet.allOf(Compression.class);
    private boolean compressesItself;
    private int maxBatchSizeInBytes;
    private long requestTimeoutMillis;

    private Builder() {}

    /**
     * Sets {@link ExporterCapabilities#defaultCompression()}; default {@link Compression#NONE}.
     *
     * @param compression not null
     * @return this builder
     * @throws IllegalArgumentException if {@code compression} is null
     */
    public Builder setDefaultCompression(Compression compression) {
      if (compression == null) {
        throw new IllegalArgumentException("defaultCompression must not be null");
      }
      this.defaultCompression = compression;
      return this;
    }

    /**
     * Sets {@link ExporterCapabilities#supportedCompressions()}; default all of {@link
     * Compression}.
     *
     * @param first a supported compression, not null
     * @param rest more supported compressions, none null
     * @return this builder
     * @throws IllegalArgumentException if a compression is null
     */
    public Builder setSupportedCompressions(Compression first, Compression... rest) {
      if (first == null || rest == null) {
        throw new IllegalArgumentException("supportedCompressions must not contain null");
      }
      EnumSet<Compression> set = EnumSet.of(first);
      for (Compression c : rest) {
        if (c == null) {
          throw new IllegalArgumentException("supportedCompressions must not contain null");
        }
        set.add(c);
      }
      this.supportedCompressions = set;
      return this;
    }

    /**
     * Sets {@link ExporterCapabilities#compressesItself()}; default false.
     *
     * @param compressesItself true if the transport compresses requests itself
     * @return this builder
     */
    public Builder setCompressesItself(boolean compressesItself) {
      this.compressesItself = compressesItself;
      return this;
    }

    /**
     * Sets {@link ExporterCapabilities#maxBatchSizeInBytes()}.
     *
     * @param maxBatchSizeInBytes bytes, at least 1
     * @return this builder
     * @throws IllegalArgumentException if {@code maxBatchSizeInBytes} is below 1
     */
    public Builder setMaxBatchSizeInBytes(int maxBatchSizeInBytes) {
      if (maxBatchSizeInBytes < 1) {
        throw new IllegalArgumentException(
            "maxBatchSizeInBytes must be at least 1, was " + maxBatchSizeInBytes);
      }
      this.maxBatchSizeInBytes = maxBatchSizeInBytes;
      return this;
    }

    /**
     * Sets {@link ExporterCapabilities#requestTimeoutMillis()}; default 0 (not declared).
     *
     * @param requestTimeoutMillis ms, at least 0
     * @return this builder
     * @throws IllegalArgumentException if {@code requestTimeoutMillis} is negative
     */
    public Builder setRequestTimeoutMillis(long requestTimeoutMillis) {
      if (requestTimeoutMillis < 0) {
        throw new IllegalArgumentException(
            "requestTimeoutMillis must be at least 0, was " + requestTimeoutMillis);
      }
      this.requestTimeoutMillis = requestTimeoutMillis;
      return this;
    }

    /**
     * {@return the capabilities, immutable}
     *
     * @throws IllegalArgumentException if the default compression is not one of the supported
     *     compressions
     */
    public ExporterCapabilities build() {
      if (!supportedCompressions.contains(defaultCompression)) {
        throw new IllegalArgumentException(
            "defaultCompression "
                + defaultCompression
                + " must be one of supportedCompressions "
                + supportedCompressions);
      }
      return new ExporterCapabilities(this);
    }
  }
}
