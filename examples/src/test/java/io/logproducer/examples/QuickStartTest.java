package io.logproducer.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.Compression;
import io.logproducer.LogRecord;
import io.logproducer.Producer;
import io.logproducer.ProducerConfig;
import io.logproducer.otlp.OtlpEncoding;
import io.logproducer.otlp.OtlpHttpExporter;
import io.logproducer.testing.ReferenceWorkload;
import io.logproducer.testing.otlp.OtlpReceiver;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@Timeout(120)
class QuickStartTest {

  private static final Pattern SUMMARY =
      Pattern.compile(
          "delivered=(\\d+) failed=(\\d+) spooled=0 refused=(\\d+) not_sent=(\\d+) records_per_sec=(\\d+) "
              + "raw_mb_per_sec=([\\d.]+) wire_mb_per_sec=([\\d.]+)");

  @ParameterizedTest
  @CsvSource({
    "none,proto,http",
    "lz4,proto,http",
    "zstd,json,http",
    "gzip,json,http",
    "none,proto,grpc",
    "gzip,proto,grpc",
    "zstd,proto,grpc"
  })
  void quickStartDeliversEveryRecordToTheEmbeddedReceiver(
      String compression, String encoding, String protocol) throws Exception {
    PrintStream out = System.out;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    int code;
    try {
      System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
      code =
          Main.run(
              new String[] {
                "otlp",
                "--records",
                "20000",
                "--threads",
                "4",
                "--compression",
                compression,
                "--encoding",
                encoding,
                "--protocol",
                protocol,
                "--quiet"
              });
    } finally {
      System.setOut(out);
    }
    String text = captured.toString(StandardCharsets.UTF_8).trim();
    assertEquals(0, code, text);
    Matcher m = SUMMARY.matcher(text);
    assertTrue(m.matches(), text);
    assertEquals("20000", m.group(1));
    assertEquals("0", m.group(2));
    assertEquals("0", m.group(3));
    assertEquals("0", m.group(4));
    assertTrue(Double.parseDouble(m.group(6)) > 0);
  }

  @Test
  void receiverCountsWhatTheProducerDelivers() throws Exception {
    try (OtlpReceiver receiver = OtlpReceiver.startCounting();
        Producer p =
            new Producer(
                ProducerConfig.builder()
                    .setCompression(Compression.ZSTD)
                    .setJmxEnabled(false)
                    .setBatchSizeInBytes(64 * 1024)
                    .build(),
                OtlpHttpExporter.builder()
                    .setEndpoint(receiver.endpoint())
                    .setEncoding(OtlpEncoding.PROTOBUF)
                    .build())) {
      ReferenceWorkload w = new ReferenceWorkload();
      for (int i = 0; i < 5000; i++) {
        LogRecord r = w.next(i);
        p.send(r);
      }
      p.flush();
      assertEquals(5000, p.getMetrics().getRecordsSent());
      assertEquals(5000, receiver.acceptedRecords());
      assertEquals(p.getMetrics().getBatchesSent(), receiver.acceptedRequests());
      assertEquals(p.getMetrics().getWireBytesSent(), receiver.acceptedWireBytes());
      assertEquals(0, receiver.invalidRequestCount());
      assertEquals(0, receiver.rejectedRequests());
    }
  }

  @Test
  void unknownSubCommandAndBadOptionsExitWithUsage() throws Exception {
    assertEquals(2, Main.run(new String[] {"nope"}));
    assertEquals(2, Main.run(new String[] {"otlp", "--encoding", "xml", "--records", "1"}));
    assertEquals(2, Main.run(new String[] {"otlp", "--protocol", "spdy", "--records", "1"}));
    assertEquals(
        2,
        Main.run(
            new String[] {"otlp", "--protocol", "grpc", "--encoding", "json", "--records", "1"}));
    assertEquals(
        2,
        Main.run(
            new String[] {"otlp", "--protocol", "grpc", "--compression", "lz4", "--records", "1"}));
  }
}
