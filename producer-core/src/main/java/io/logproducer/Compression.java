package io.logproducer;

/**
 * Request body compression. The HTTP {@code Content-Encoding} token of each is given; receivers
 * differ in what they accept (OpenTelemetry Collector: all four, lz4 since v0.112.0 and LZ4 frame
 * format only; bk-collector: none and gzip only).
 */
public enum Compression {
  /** No compression; no Content-Encoding header. */
  NONE(null),
  /** gzip (RFC 1952), {@code Content-Encoding: gzip}. */
  GZIP("gzip"),
  /** LZ4 frame format, {@code Content-Encoding: lz4}. */
  LZ4("lz4"),
  /** Zstandard frame format (RFC 8878), {@code Content-Encoding: zstd}. */
  ZSTD("zstd");

  private final String contentEncoding;

  Compression(String contentEncoding) {
    this.contentEncoding = contentEncoding;
  }

  /**
   * The HTTP {@code Content-Encoding} token.
   *
   * @return the lower-case token ("gzip", "lz4", "zstd"), or null for {@link #NONE}
   */
  public String contentEncoding() {
    return contentEncoding;
  }

  /**
   * Parses "none", "gzip", "lz4" or "zstd" (case-insensitive, surrounding whitespace ignored);
   * "identity" is accepted for {@link #NONE}.
   *
   * @param name the name, e.g. from configuration or {@code OTEL_EXPORTER_OTLP_COMPRESSION}
   * @return the compression
   * @throws IllegalArgumentException for anything else, including null
   */
  public static Compression fromName(String name) {
    if (name != null) {
      switch (name.trim().toLowerCase(java.util.Locale.ROOT)) {
        case "none":
        case "identity":
          return NONE;
        case "gzip":
          return GZIP;
        case "lz4":
          return LZ4;
        case "zstd":
          return ZSTD;
        default:
          break;
      }
    }
    throw new IllegalArgumentException(
        "compression must be one of none, gzip, lz4, zstd, was '" + name + "'");
  }
}
