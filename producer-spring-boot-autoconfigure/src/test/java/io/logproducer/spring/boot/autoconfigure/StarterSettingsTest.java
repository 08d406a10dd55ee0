package io.logproducer.spring.boot.autoconfigure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.BufferFullPolicy;
import io.logproducer.Compression;
import io.logproducer.Producer;
import io.logproducer.ProducerConfig;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.util.unit.DataSize;

/**
 * The {@code logproducer.*} properties as the producer gets them, and the errors that name them.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StarterSettingsTest {

  @Test
  void theProducerPropertiesReachTheProducersConfiguration() {
    LogproducerProperties p = new LogproducerProperties();
    p.getOtlp().setEndpoint("http://127.0.0.1:9");
    BatchingProperties b = p.getProducer();
    b.setTotalSize(DataSize.ofMegabytes(8));
    b.setBatchSize(DataSize.ofKilobytes(256));
    b.setBatchCount(500);
    b.setLinger(Duration.ofMillis(250));
    b.setSendThreads(3);
    b.setRetries(4);
    b.setDeliveryTimeout(Duration.ofSeconds(40));
    b.setBufferFullPolicy("block");
    b.setMaxBlock(Duration.ofMillis(20));
    b.setCompression("zstd");
    b.setJmxEnabled(false);
    Producer producer = new StarterSettings(p, "checkout").buildProducer();
    try {
      ProducerConfig c = producer.getConfig();
      assertEquals("logproducer-checkout", c.getClientId());
      assertEquals(8L << 20, c.getTotalSizeInBytes());
      assertEquals(256 << 10, c.getBatchSizeInBytes());
      assertEquals(500, c.getBatchCountThreshold());
      assertEquals(250, c.getLingerMillis());
      assertEquals(3, c.getSendThreads());
      assertEquals(4, c.getRetries());
      assertEquals(40_000, c.getDeliveryTimeoutMillis());
      assertEquals(BufferFullPolicy.BLOCK, c.getBufferFullPolicy());
      assertEquals(20, c.getMaxBlockMillis());
      assertEquals(Compression.ZSTD, c.getCompression());
      assertEquals("otlp", producer.getExporterName());
    } finally {
      producer.close(1_000);
    }
  }

  @Test
  void theDefaultsAreTheAppendersAndTheClientIdFollowsTheApplication() {
    LogproducerProperties p = new LogproducerProperties();
    p.getOtlp().setEndpoint("http://127.0.0.1:9");
    p.getProducer().setJmxEnabled(false);
    Producer producer = new StarterSettings(p, null).buildProducer();
    try {
      ProducerConfig c = producer.getConfig();
      assertEquals("logproducer", c.getClientId());
      assertEquals(BufferFullPolicy.DROP, c.getBufferFullPolicy(), "a logging call never waits");
      assertEquals(ProducerConfig.DEFAULT_TOTAL_SIZE_IN_BYTES, c.getTotalSizeInBytes());
      assertEquals(false, c.isShutdownHookEnabled(), "the context's close ships, not a JVM hook");
    } finally {
      producer.close(1_000);
    }
  }

  @Test
  void protocolGrpcBuildsTheGrpcExporterAndTraceContextReachesTheMapping() {
    LogproducerProperties p = new LogproducerProperties();
    p.getOtlp().setProtocol("grpc");
    p.getOtlp().setEndpoint("http://127.0.0.1:9");
    p.getOtlp().setResourceDetection(false);
    p.getAppender().setTraceContext("mdc");
    p.getProducer().setJmxEnabled(false);
    StarterSettings settings = new StarterSettings(p, "checkout");
    Producer producer = settings.buildProducer();
    try {
      assertEquals("otlp-grpc", producer.getExporterName());
      assertEquals(
          io.logproducer.appender.TraceContextOrder.MDC, settings.mapping().traceContext());
    } finally {
      producer.close(1_000);
    }
  }

  @Test
  void kafkaPropertiesBuildTheKafkaExporter() {
    LogproducerProperties p = new LogproducerProperties();
    p.setExporter(ExporterKind.KAFKA);
    p.getKafka().setBootstrapServers("127.0.0.1:9");
    p.getKafka().setTopic("otlp_logs");
    p.getKafka().getProperties().put("acks", "all");
    p.getProducer().setJmxEnabled(false);
    Producer producer = new StarterSettings(p, "checkout").buildProducer();
    try {
      assertEquals("kafka", producer.getExporterName());
      assertEquals(
          "kafka 127.0.0.1:9 topic otlp_logs", new StarterSettings(p, "x").describeReceiver());
    } finally {
      producer.close(1_000);
    }
  }

  @Test
  void eachInvalidValueNamesItsProperty() {
    assertInvalid(
        p -> p.getProducer().setLinger(Duration.ofSeconds(-5)),
        "logproducer.producer.linger",
        "-5000ms");
    assertInvalid(
        p -> p.getProducer().setTotalSize(DataSize.ofBytes(1)),
        "logproducer.producer.total-size",
        "1B");
    assertInvalid(
        p -> p.getProducer().setBufferFullPolicy("wait"),
        "logproducer.producer.buffer-full-policy",
        "wait");
    assertInvalid(
        p -> p.getOtlp().setEndpoint("not a url"), "logproducer.otlp.endpoint", "not a url");
    assertInvalid(
        p -> p.getAppender().setTraceIdKey(" "), "logproducer.appender.trace-id-key", " ");
    assertInvalid(
        p -> p.getAppender().setTraceContext("jaeger"),
        "logproducer.appender.trace-context",
        "jaeger");
    assertInvalid(p -> p.getOtlp().setProtocol("spdy"), "logproducer.otlp.protocol", "spdy");
    assertInvalid(
        p -> {
          p.setExporter(ExporterKind.KAFKA);
          p.getKafka().setBootstrapServers("127.0.0.1:9");
        },
        "logproducer.kafka.topic",
        "null");
    assertInvalid(
        p -> {
          p.setExporter(ExporterKind.GSE);
          p.getGse().setDataId(1500001);
        },
        "logproducer.gse.socket-path",
        "null");
  }

  private static void assertInvalid(
      java.util.function.Consumer<LogproducerProperties> change, String property, String value) {
    LogproducerProperties p = new LogproducerProperties();
    p.getOtlp().setEndpoint("http://127.0.0.1:9");
    p.getProducer().setJmxEnabled(false);
    change.accept(p);
    StarterSettings s = new StarterSettings(p, "checkout");
    InvalidPropertyException e =
        assertThrows(
            InvalidPropertyException.class,
            () -> {
              s.mapping();
              s.buildProducer().close(0);
            });
    assertEquals(property, e.getProperty(), e.getMessage());
    assertTrue(
        e.getMessage()
            .startsWith("Invalid value '" + value + "' for property '" + property + "': "),
        e.getMessage());
  }
}
