package io.logproducer;

/**
 * Thrown by {@code send} when a record's encoded size exceeds the largest batch the producer can
 * hold or ship (the smaller of the exporter's maximum batch size and {@code totalSizeInBytes}). The
 * record was not accepted.
 */
public class RecordTooLargeException extends ProducerException {
  private static final long serialVersionUID = 1L;

  /** The record's encoded size, or a lower bound of it, in bytes. */
  private final long recordSizeInBytes;

  /** The largest encoded record size accepted, in bytes. */
  private final long maxRecordSizeInBytes;

  /**
   * Creates the exception with a message stating both sizes.
   *
   * @param recordSizeInBytes the record's encoded size, in bytes
   * @param maxRecordSizeInBytes the largest size accepted, in bytes
   */
  public RecordTooLargeException(long recordSizeInBytes, long maxRecordSizeInBytes) {
    super(
        "record of "
            + recordSizeInBytes
            + " encoded bytes exceeds the largest allowed batch of "
            + maxRecordSizeInBytes
            + " bytes");
    this.recordSizeInBytes = recordSizeInBytes;
    this.maxRecordSizeInBytes = maxRecordSizeInBytes;
  }

  /**
   * Creates the exception with a message of the caller's own (e.g. when the limit was hit while
   * encoding).
   *
   * @param message the explanation
   * @param recordSizeInBytes the record's encoded size, or a lower bound of it, in bytes
   * @param maxRecordSizeInBytes the largest size accepted, in bytes
   */
  public RecordTooLargeException(
      String message, long recordSizeInBytes, long maxRecordSizeInBytes) {
    super(message);
    this.recordSizeInBytes = recordSizeInBytes;
    this.maxRecordSizeInBytes = maxRecordSizeInBytes;
  }

  /**
   * The record's encoded size.
   *
   * @return the size in bytes; a lower bound when encoding stopped at the limit
   */
  public long getRecordSizeInBytes() {
    return recordSizeInBytes;
  }

  /**
   * The largest encoded record size accepted.
   *
   * @return the limit in bytes
   */
  public long getMaxRecordSizeInBytes() {
    return maxRecordSizeInBytes;
  }
}
