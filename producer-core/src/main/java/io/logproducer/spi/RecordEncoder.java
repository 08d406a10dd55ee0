package io.logproducer.spi;

import io.logproducer.LogRecord;

/**
 * Encodes one record into its exporter's wire form (OTLP {@code LogRecord} protobuf, a GSE JSON
 * item, …) at {@code send} time, so the producer holds and budgets real bytes and sealing a batch
 * is O(1) framing.
 *
 * <p>Must be thread-safe and should not allocate: many application threads call it at once, each
 * with its own buffer.
 */
@FunctionalInterface
public interface RecordEncoder {
  /**
   * Appends the encoding of {@code record} to {@code out} (which the caller has reset). The bytes
   * must be self-contained so that any sequence of encoded records can be framed into one request
   * by {@link Exporter#writeRequest}.
   *
   * @param record the record, not null
   * @param out the calling thread's buffer, with its {@link EncodeBuffer#limit() limit} set to the
   *     largest record the producer accepts
   * @throws io.logproducer.RecordTooLargeException if the encoding outgrows {@code out}'s limit
   *     (thrown by {@code out}; the send is refused)
   * @throws IllegalArgumentException if the record cannot be encoded by this exporter (the send is
   *     refused)
   */
  void encode(LogRecord record, EncodeBuffer out);
}
