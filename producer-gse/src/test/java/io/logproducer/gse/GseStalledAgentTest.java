package io.logproducer.gse;

import static io.logproducer.gse.GseExporterTest.awaitTrue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.Compression;
import io.logproducer.LogRecord;
import io.logproducer.Severity;
import io.logproducer.spi.Batch;
import io.logproducer.spi.EncodeBuffer;
import io.logproducer.spi.ExportResult;
import io.logproducer.testing.gse.GseAgent;
import io.logproducer.testsupport.SchedulerLag;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * An agent that stops reading (real Unix-domain socket, {@link GseAgent#pauseReading()}) cannot
 * hold a send thread: the export of a frame far larger than the socket buffers returns a retryable
 * failure within {@code writeTimeoutMillis} plus slack, and the next export after the agent reads
 * again succeeds on a new connection.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class GseStalledAgentTest {

  private static final long WRITE_TIMEOUT_MILLIS = 1_000;

  @TempDir Path dir;

  private GseAgent agent;
  private GseExporter exporter;

  @AfterEach
  void tearDown() {
    if (agent != null) {
      agent.resumeReading();
    }
    if (exporter != null) {
      exporter.close();
    }
    if (agent != null) {
      agent.close();
    }
  }

  @Test
  void anAgentThatStopsReadingMakesTheExportFailRetryableWithinTheWriteTimeout() throws Exception {
    agent = GseAgent.unix(dir.resolve("gse.sock"));
    exporter =
        GseExporter.builder()
            .setUnixSocketPath(agent.socketPath().toString())
            .setDataId(1500001)
            .setSocketSendBufferBytes(8192)
            .setWriteTimeoutMillis(WRITE_TIMEOUT_MILLIS)
            .build();
    exporter.start(Support.config().build());
    agent.awaitInfoRequests(1, 30_000);
    awaitTrue("agent info", () -> exporter.agentInfo().ip != null, 30_000);

    RecordBatch batch = batch(2_000); // about 2 MB: far more than the socket buffers hold
    byte[] body = batch.body(exporter);
    agent.pauseReading();

    ExportResult r;
    long tookMillis;
    try (SchedulerLag lag = SchedulerLag.start()) {
      long start = System.nanoTime();
      r = exporter.export(batch, body, body.length, Compression.NONE);
      // within the write timeout (the filling of the socket buffers before the stall is quick),
      // plus how late this machine woke the writing thread
      tookMillis = lag.assertWithin(start, WRITE_TIMEOUT_MILLIS, "an export to a stalled agent");
    }
    System.out.println("stalled GSE agent: export returned after " + tookMillis + " ms: " + r);

    assertEquals(ExportResult.Kind.RETRYABLE, r.kind(), r.toString());
    assertTrue(r.message().contains("write stalled for 1000 ms (writeTimeoutMillis)"), r.message());
    assertTrue(
        r.message().contains("connection closed; the whole frame will be re-sent"), r.message());
    assertTrue(tookMillis >= WRITE_TIMEOUT_MILLIS - 50, "took " + tookMillis + " ms");
    assertEquals(1, exporter.transport().counters().writeFailures());

    agent.resumeReading();
    ExportResult again = exporter.export(batch, body, body.length, Compression.NONE);
    assertEquals(ExportResult.Kind.SUCCESS, again.kind(), again.toString());
    agent.awaitRecords(2_000, 30_000);
    assertEquals(List.of(), agent.violations());
    assertTrue(agent.truncatedFrames() >= 1, "the stalled connection ended inside the frame");
    assertTrue(agent.connections() >= 2, "the frame went again on a new connection");
  }

  private RecordBatch batch(int records) {
    String padding = "x".repeat(1000);
    List<LogRecord> list = new ArrayList<>();
    for (int i = 0; i < records; i++) {
      list.add(
          LogRecord.builder()
              .setSeverity(Severity.INFO)
              .setBody(padding)
              .setAttribute("seq", (long) i)
              .build());
    }
    return new RecordBatch(list);
  }

  /**
   * The records as the producer would hold them: encoded by the exporter's encoder, in one shard.
   */
  private static final class RecordBatch implements Batch {
    private final List<LogRecord> records;
    private final List<byte[]> encoded = new ArrayList<>();
    private Object shardKey;
    private int size;

    RecordBatch(List<LogRecord> records) {
      this.records = records;
    }

    byte[] body(GseExporter exporter) throws IOException {
      shardKey = exporter.shardKey(records.get(0));
      EncodeBuffer buf = new EncodeBuffer(2048);
      for (LogRecord r : records) {
        buf.reset();
        exporter.encoder().encode(r, buf);
        encoded.add(Arrays.copyOf(buf.array(), buf.size()));
        size += buf.size();
      }
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      exporter.writeRequest(this, out);
      return out.toByteArray();
    }

    @Override
    public Object shardKey() {
      return shardKey;
    }

    @Override
    public int recordCount() {
      return encoded.size();
    }

    @Override
    public int sizeInBytes() {
      return size;
    }

    @Override
    public int recordSize(int index) {
      return encoded.get(index).length;
    }

    @Override
    public void writeTo(OutputStream out) throws IOException {
      for (byte[] e : encoded) {
        out.write(e);
      }
    }

    @Override
    public void writeRecord(int index, OutputStream out) throws IOException {
      out.write(encoded.get(index));
    }

    @Override
    public int attempt() {
      return 1;
    }
  }
}
