package io.logproducer.otlp.encoding.internal;

import io.logproducer.spi.Batch;
import io.logproducer.spi.RecordEncoder;
import java.io.IOException;
import java.io.OutputStream;

/**
 * One OTLP/HTTP body encoding (protobuf or JSON): how records are encoded at {@code send} time and
 * how a batch of them is framed into an {@code ExportLogsServiceRequest} with the exporter's
 * resource and scope (or, with the scope taken from the records, with the resource around records
 * that each carry their own {@code ScopeLogs}). Implementations are immutable and thread-safe.
 */
public interface WireFormat {

  /** The per-record encoder. */
  RecordEncoder encoder();

  /** The request's {@code Content-Type}. */
  String contentType();

  /** Whether responses are expected in JSON (else protobuf) when the receiver does not say. */
  boolean isJson();

  /** Writes the whole request body for {@code batch}; O(1) work besides copying the records. */
  void writeRequest(Batch batch, OutputStream out) throws IOException;

  /**
   * The largest sum of encoded record bytes whose request body, framing included, is at most {@code
   * maxRequestSizeInBytes}; 0 or less if the framing alone does not fit.
   */
  int maxBatchSizeInBytes(int maxRequestSizeInBytes);
}
