package io.logproducer.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.Compression;
import io.logproducer.LogRecord;
import io.logproducer.Producer;
import io.logproducer.ProducerConfig;
import java.io.OutputStream;
import java.util.EnumSet;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ExporterCapabilitiesTest {

  @Test
  void defaultsAreNoCompressionAllSupportedNotSelfCompressingNoTimeout() {
    ExporterCapabilities c = ExporterCapabilities.builder(1000).build();
    assertEquals(Compression.NONE, c.defaultCompression());
    assertEquals(EnumSet.allOf(Compression.class), c.supportedCompressions());
    for (Compression compression : Compression.values()) {
      assertTrue(c.supports(compression), compression.name());
    }
    assertFalse(c.supports(null));
    assertFalse(c.compressesItself());
    assertEquals(1000, c.maxBatchSizeInBytes());
    assertEquals(0, c.requestTimeoutMillis());
    assertEquals(
        "ExporterCapabilities{defaultCompression=NONE, supportedCompressions=[NONE, GZIP, LZ4, ZSTD], "
            + "compressesItself=false, maxBatchSizeInBytes=1000, requestTimeoutMillis=0}",
        c.toString());
  }

  @Test
  void everyValueSetIsKept() {
    ExporterCapabilities c =
        ExporterCapabilities.builder(1)
            .setDefaultCompression(Compression.ZSTD)
            .setSupportedCompressions(Compression.ZSTD, Compression.GZIP)
            .setCompressesItself(true)
            .setMaxBatchSizeInBytes(Integer.MAX_VALUE)
            .setRequestTimeoutMillis(40_000L)
            .build();
    assertEquals(Compression.ZSTD, c.defaultCompression());
    assertEquals(EnumSet.of(Compression.GZIP, Compression.ZSTD), c.supportedCompressions());
    assertTrue(c.supports(Compression.GZIP));
    assertFalse(c.supports(Compression.NONE));
    assertFalse(c.supports(Compression.LZ4));
    assertTrue(c.compressesItself());
    assertEquals(Integer.MAX_VALUE, c.maxBatchSizeInBytes());
    assertEquals(40_000L, c.requestTimeoutMillis());
  }

  @Test
  void invalidValuesAreRefusedNamingTheParameterAndBound() {
    assertMessage(
        "maxBatchSizeInBytes must be at least 1, was 0", () -> ExporterCapabilities.builder(0));
    assertMessage(
        "maxBatchSizeInBytes must be at least 1, was -5",
        () -> ExporterCapabilities.builder(10).setMaxBatchSizeInBytes(-5));
    assertMessage(
        "requestTimeoutMillis must be at least 0, was -1",
        () -> ExporterCapabilities.builder(10).setRequestTimeoutMillis(-1));
    assertMessage(
        "defaultCompression must not be null",
        () -> ExporterCapabilities.builder(10).setDefaultCompression(null));
    assertMessage(
        "supportedCompressions must not contain null",
        () -> ExporterCapabilities.builder(10).setSupportedCompressions(null));
    assertMessage(
        "supportedCompressions must not contain null",
        () ->
            ExporterCapabilities.builder(10)
                .setSupportedCompressions(Compression.NONE, Compression.GZIP, null));
    assertMessage(
        "defaultCompression GZIP must be one of supportedCompressions [NONE]",
        () ->
            ExporterCapabilities.builder(10)
                .setDefaultCompression(Compression.GZIP)
                .setSupportedCompressions(Compression.NONE)
                .build());
  }

  private static void assertMessage(String message, Runnable r) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, r::run);
    assertEquals(message, e.getMessage());
  }

  @Test
  void theValueIsImmutableAndComparedByContent() {
    ExporterCapabilities.Builder b =
        ExporterCapabilities.builder(500).setSupportedCompressions(Compression.NONE);
    ExporterCapabilities first = b.build();
    b.setSupportedCompressions(Compression.NONE, Compression.LZ4).setMaxBatchSizeInBytes(600);
    ExporterCapabilities second = b.build();
    assertEquals(
        EnumSet.of(Compression.NONE),
        first.supportedCompressions(),
        "a later builder change is not seen");
    assertEquals(500, first.maxBatchSizeInBytes());
    assertThrows(
        UnsupportedOperationException.class,
        () -> first.supportedCompressions().add(Compression.GZIP));
    assertNotEquals(first, second);
    ExporterCapabilities same =
        ExporterCapabilities.builder(500).setSupportedCompressions(Compression.NONE).build();
    assertEquals(first, same);
    assertEquals(first.hashCode(), same.hashCode());
  }

  @Test
  void theProducerReadsTheCapabilitiesOnceAndAppliesThem() {
    AtomicInteger reads = new AtomicInteger();
    ExporterCapabilities declared =
        ExporterCapabilities.builder(4096)
            .setDefaultCompression(Compression.GZIP)
            .setSupportedCompressions(Compression.GZIP)
            .build();
    Exporter exporter =
        new Exporter() {
          @Override
          public void start(ProducerConfig config) {}

          @Override
          public ExporterCapabilities capabilities() {
            reads.incrementAndGet();
            return declared;
          }

          @Override
          public RecordEncoder encoder() {
            return (record, out) -> out.writeUtf8(record.getBody().asString());
          }

          @Override
          public Object shardKey(LogRecord record) {
            return "s";
          }

          @Override
          public void writeRequest(Batch batch, OutputStream out) {}

          @Override
          public ExportResult export(
              Batch batch, byte[] body, int length, Compression compression) {
            return ExportResult.success();
          }

          @Override
          public String describe() {
            return "test://capabilities";
          }

          @Override
          public void close() {}
        };
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                new Producer(
                    ProducerConfig.builder()
                        .setCompression(Compression.NONE)
                        .setJmxEnabled(false)
                        .build(),
                    exporter));
    assertEquals("compression NONE is not supported by test://capabilities", e.getMessage());
    reads.set(0);
    try (Producer producer =
        new Producer(ProducerConfig.builder().setJmxEnabled(false).build(), exporter)) {
      assertEquals(1, reads.get());
      io.logproducer.RecordTooLargeException tooLarge =
          assertThrows(
              io.logproducer.RecordTooLargeException.class,
              () -> producer.send(LogRecord.builder().setBody(new String(new char[5000])).build()));
      assertEquals(
          4096,
          tooLarge.getMaxRecordSizeInBytes(),
          "records above the declared largest batch are refused");
      producer.send(LogRecord.builder().setBody("fits").build());
      assertEquals(1, reads.get());
    }
  }
}
