package io.logproducer.memory;

import io.logproducer.spi.EncodeBuffer;
import io.logproducer.spi.ExportResult;
import io.logproducer.testing.InMemoryExporter;

/**
 * The kit's {@link InMemoryExporter} as the memory tests use it: body-only encoding (a 4-byte
 * big-endian length and the body's UTF-8, so sizes are known), nothing kept per request, and the
 * shard is the record's destination.
 */
final class Exporters {

  private Exporters() {}

  /** {@return an exporter that accepts everything} */
  static InMemoryExporter accepting() {
    return InMemoryExporter.builder().setBodiesOnly(true).setRetaining(false).build();
  }

  /**
   * {@return an exporter that answers every export {@code retryable("down")}: the receiver that
   * never recovers}
   */
  static InMemoryExporter refusing() {
    InMemoryExporter e = accepting();
    e.respondWith(b -> ExportResult.retryable("down", null, -1));
    return e;
  }

  /**
   * {@return an accepting exporter whose records with a destination starting with {@code "ascii"}
   * are encoded through {@link EncodeBuffer#writeAscii} (their bodies must be ASCII), the others
   * through {@link EncodeBuffer#writeUtf8}} So both bulk writers meet the oversized-record guard.
   */
  static InMemoryExporter asciiOrUtf8() {
    return InMemoryExporter.builder()
        .setEncoder(
            (record, out) -> {
              String body = record.getBody() == null ? "" : record.getBody().asString();
              String destination = record.getDestination();
              if (destination != null && destination.startsWith("ascii")) {
                out.writeIntBigEndian(body.length());
                out.writeAscii(body);
              } else {
                out.writeIntBigEndian(EncodeBuffer.utf8Length(body));
                out.writeUtf8(body);
              }
            })
        .build();
  }
}
