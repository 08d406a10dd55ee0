package io.logproducer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

class ProducerConfigTest {

  @Test
  void everyDefaultIsTheDocumentedConstant() {
    ProducerConfig c = ProducerConfig.defaults();
    assertEquals(104_857_600L, c.getTotalSizeInBytes());
    assertEquals(ProducerConfig.DEFAULT_TOTAL_SIZE_IN_BYTES, c.getTotalSizeInBytes());
    assertEquals(60_000L, c.getMaxBlockMillis());
    assertEquals(1_048_576, c.getBatchSizeInBytes());
    assertEquals(ProducerConfig.DEFAULT_BATCH_SIZE_IN_BYTES, c.getBatchSizeInBytes());
    assertEquals(32_768, c.getBatchCountThreshold());
    assertEquals(1_000L, c.getLingerMillis());
    assertEquals(8, c.getSendThreads());
    assertEquals(Integer.MAX_VALUE, c.getRetries());
    assertEquals(100L, c.getInitialRetryBackoffMillis());
    assertEquals(5_000L, c.getMaxRetryBackoffMillis());
    assertEquals(120_000L, c.getDeliveryTimeoutMillis());
    assertNull(c.getCompression());
    assertEquals(0, c.getCompressionLevel());
    assertEquals(BufferFullPolicy.BLOCK, c.getBufferFullPolicy());
    assertTrue(c.getClientId().startsWith("logproducer-"));
    assertTrue(c.isJmxEnabled());
  }

  @Test
  void boundsAreNamedInTheMessage() {
    assertMessage(
        "batchSizeInBytes must be in [1, 67108864], was 0",
        () -> ProducerConfig.builder().setBatchSizeInBytes(0));
    assertMessage(
        "totalSizeInBytes must be in [1024, 1099511627776], was 1023",
        () -> ProducerConfig.builder().setTotalSizeInBytes(1023));
    assertMessage(
        "sendThreads must be in [1, 256], was 0", () -> ProducerConfig.builder().setSendThreads(0));
    assertMessage(
        "lingerMillis must be in [0, 3600000], was -1",
        () -> ProducerConfig.builder().setLingerMillis(-1));
    assertMessage(
        "maxBlockMillis must be in [0, 2147483647], was -5",
        () -> ProducerConfig.builder().setMaxBlockMillis(-5));
    assertMessage(
        "batchCountThreshold must be in [1, 10000000], was 0",
        () -> ProducerConfig.builder().setBatchCountThreshold(0));
    assertMessage(
        "retries must be in [0, 2147483647], was -1",
        () -> ProducerConfig.builder().setRetries(-1));
    assertMessage(
        "deliveryTimeoutMillis must be in [1, 2147483647], was 0",
        () -> ProducerConfig.builder().setDeliveryTimeoutMillis(0));
    assertMessage(
        "compressionLevel must be in [0, 22], was 23",
        () -> ProducerConfig.builder().setCompressionLevel(23));
  }

  @Test
  void crossFieldRulesAreCheckedAtBuild() {
    assertMessage(
        "batchSizeInBytes (2097152) must not exceed totalSizeInBytes (1048576)",
        () ->
            ProducerConfig.builder()
                .setTotalSizeInBytes(1 << 20)
                .setBatchSizeInBytes(2 << 20)
                .build());
    assertMessage(
        "maxRetryBackoffMillis (50) must not be below initialRetryBackoffMillis (100)",
        () -> ProducerConfig.builder().setMaxRetryBackoffMillis(50).build());
    assertMessage(
        "compressionLevel for GZIP must be in [0, 9], was 12",
        () ->
            ProducerConfig.builder()
                .setCompression(Compression.GZIP)
                .setCompressionLevel(12)
                .build());
    assertMessage(
        "compressionLevel (3) applies only to GZIP and ZSTD; compression is LZ4, which has no levels:"
            + " leave compressionLevel at 0",
        () ->
            ProducerConfig.builder()
                .setCompression(Compression.LZ4)
                .setCompressionLevel(3)
                .build());
    assertMessage(
        "compressionLevel (1) applies only to GZIP and ZSTD; compression is NONE, which has no levels:"
            + " leave compressionLevel at 0",
        () ->
            ProducerConfig.builder()
                .setCompression(Compression.NONE)
                .setCompressionLevel(1)
                .build());
    assertEquals(
        22,
        ProducerConfig.builder()
            .setCompression(Compression.ZSTD)
            .setCompressionLevel(22)
            .build()
            .getCompressionLevel());
    assertEquals(
        0, ProducerConfig.builder().setCompression(Compression.LZ4).build().getCompressionLevel());
  }

  @Test
  void toStringNamesTheExportersDefaultCompressionInsteadOfNull() {
    String s = ProducerConfig.defaults().toString();
    assertTrue(s.contains("compression=<the exporter's default>, compressionLevel=0"), s);
  }

  @Test
  void compressionNamesParse() {
    assertEquals(Compression.ZSTD, Compression.fromName("ZSTD"));
    assertEquals(Compression.NONE, Compression.fromName("none"));
    assertEquals("lz4", Compression.LZ4.contentEncoding());
    assertNull(Compression.NONE.contentEncoding());
    assertMessage(
        "compression must be one of none, gzip, lz4, zstd, was 'snappy'",
        () -> Compression.fromName("snappy"));
  }

  static void assertMessage(String expected, Executable e) {
    assertEquals(expected, assertThrows(IllegalArgumentException.class, e).getMessage());
  }
}
