package io.logproducer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.logproducer.testing.InMemoryExporter;
import org.junit.jupiter.api.Test;

/**
 * Configuration checks that need an exporter, so they cannot live beside producer-core's
 * ProducerConfigTest (the kit depends on the core; see producer-core-it/pom.xml).
 */
class ProducerConfigWithExporterTest {

  @Test
  void aLevelForTheExportersDefaultCompressionIsCheckedByTheProducer() {
    InMemoryExporter exporter = InMemoryExporter.create(); // its default compression is NONE
    ProducerConfig config =
        ProducerConfig.builder()
            .setCompressionLevel(5)
            .setJmxEnabled(false)
            .setShutdownHookEnabled(false)
            .build(); // compression left to the exporter: only the range is known here
    assertEquals(
        "compressionLevel (5) applies only to GZIP and ZSTD; compression is NONE, which has no levels:"
            + " leave compressionLevel at 0",
        assertThrows(IllegalArgumentException.class, () -> new Producer(config, exporter))
            .getMessage());
  }
}
