package io.logproducer.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.logproducer.Compression;
import io.logproducer.ProducerConfig;
import org.junit.jupiter.api.Test;

class OptionsTest {

  @Test
  void parsesCommonOptionsIntoTheProducerConfig() {
    Options o = Options.parse(new String[] {"otlp", "--records", "1_000", "--threads=3", "--compression", "zstd",
        "--send-threads", "2", "--batch-size-bytes", "65536", "--total-size-bytes", "1048576", "--quiet"}, 1);
    assertEquals(1000, o.records());
    assertEquals(3, o.threads());
    ProducerConfig c = o.producerConfig().build();
    assertEquals(Compression.ZSTD, c.getCompression());
    assertEquals(2, c.getSendThreads());
    assertEquals(65536, c.getBatchSizeInBytes());
    assertEquals(1048576, c.getTotalSizeInBytes());
    assertEquals(true, o.quiet());
    o.rejectUnknown("otlp");
  }

  @Test
  void badInputIsNamed() {
    assertEquals("--records must be a whole number, was 'lots'",
        assertThrows(IllegalArgumentException.class,
            () -> Options.parse(new String[] {"--records", "lots"}, 0).records()).getMessage());
    assertEquals("--threads must be in [1, 1024], was 0",
        assertThrows(IllegalArgumentException.class,
            () -> Options.parse(new String[] {"--threads", "0"}, 0).threads()).getMessage());
    Options o = Options.parse(new String[] {"--endpointt", "x"}, 0);
    assertEquals("unknown option --endpointt for 'otlp'",
        assertThrows(IllegalArgumentException.class, () -> o.rejectUnknown("otlp")).getMessage());
    assertEquals("expected an option like --records, got 'oops'",
        assertThrows(IllegalArgumentException.class, () -> Options.parse(new String[] {"oops"}, 0)).getMessage());
  }
}
