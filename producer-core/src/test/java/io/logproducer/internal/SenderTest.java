package io.logproducer.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.Compression;
import io.logproducer.SendResult;
import io.logproducer.internal.codec.Codec;
import io.logproducer.spi.Batch;
import io.logproducer.spi.ExportResult;
import io.logproducer.spi.Exporter;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Steps the send path directly: what happens to codec streams and outcomes when building a request
 * fails.
 */
class SenderTest {

  private final MemoryBudget budget = new MemoryBudget(1 << 20);
  private final ChunkPool pool = new ChunkPool(4096, budget);
  private final Metrics metrics = new Metrics(budget, pool);
  private final IncompleteBatches incomplete = new IncompleteBatches();
  private final BatchCompleter completer = new BatchCompleter(this, budget, metrics, incomplete);
  private final SendQueue queue = new SendQueue();
  private final LingerTimer timer = new LingerTimer(incomplete, b -> {}, queue::add, b -> false);
  private final AtomicInteger opened = new AtomicInteger();
  private final AtomicInteger closed = new AtomicInteger();

  /**
   * A codec whose streams count their closing, as zstd's and deflate's must be closed to free
   * native memory.
   */
  private final Codec codec =
      new Codec() {
        @Override
        public Compression compression() {
          return Compression.ZSTD;
        }

        @Override
        public OutputStream compress(OutputStream sink) {
          opened.incrementAndGet();
          return new FilterOutputStream(sink) {
            @Override
            public void close() {
              closed.incrementAndGet();
            }
          };
        }

        @Override
        public InputStream decompress(InputStream source) {
          return source;
        }
      };

  private Sender sender(Exporter exporter) {
    return new Sender(
        queue, exporter, codec, new RetryPolicy(0, 1, 1), completer, timer, metrics, budget, 4096);
  }

  private ProducerBatch sealedBatch(List<SendResult> outcomes) {
    ProducerBatch b = new ProducerBatch("s", pool, System.nanoTime(), 0, 60_000_000_000L, 4);
    assertEquals(0, b.tryAppend(new byte[] {1, 2, 3}, 3, outcomes::add, 0, budget));
    incomplete.add(b);
    b.seal();
    return b;
  }

  @Test
  void codecStreamsAreClosedWhenWritingTheRequestFails() {
    List<Throwable> toThrow = new ArrayList<>();
    toThrow.add(new IOException("disk on fire"));
    toThrow.add(new NoClassDefFoundError("com/github/luben/zstd/ZstdOutputStreamNoFinalizer"));
    toThrow.add(new IllegalStateException("encoder bug"));
    Exporter exporter = new FailingExporter(toThrow);
    Sender sender = sender(exporter);
    List<SendResult> outcomes = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      sender.process(sealedBatch(outcomes), new ChunkWriter(), System.nanoTime());
    }
    assertEquals(3, opened.get());
    assertEquals(3, closed.get(), "every compressing stream is closed after a failure");
    assertEquals(3, outcomes.size());
    for (int i = 0; i < 3; i++) {
      assertEquals(SendResult.Status.FAILED, outcomes.get(i).getStatus());
      assertTrue(
          outcomes.get(i).getMessage().startsWith("could not build the request: "),
          outcomes.get(i).toString());
    }
    assertInstanceOf(NoClassDefFoundError.class, outcomes.get(1).getError());
    assertEquals(pool.pooledBytes(), budget.used(), "every batch's memory was released");
    assertTrue(incomplete.isEmpty());
  }

  @Test
  void aSendThreadKeepsABodyBufferOfAtMostTheBatchSizeAndASlack() {
    int batch = 2 << 20;
    int keep = Sender.bodyKeepBytes(batch);
    assertEquals(batch + batch / 8 + 65_536, keep);
    // growing for a full uncompressed batch (2 MiB + framing) stops at what is kept: no
    // reallocation per batch
    assertEquals(keep, ChunkWriter.capacityFor(batch + 200, batch, keep));
    assertEquals(8192 * 2, ChunkWriter.capacityFor(8193, 8192, keep), "doubling below it");
    // a larger request gets an exact buffer, dropped after use (the first version kept up to 32 MiB
    // per thread)
    assertEquals(keep + 1, ChunkWriter.capacityFor(keep + 1, batch, keep));
    ChunkWriter w = new ChunkWriter(keep);
    w.write(new byte[keep + 1], 0, keep + 1);
    w.trimTo(keep);
    assertEquals(8192, w.capacity());
  }

  /** Writes part of a request, then throws the next of its throwables. */
  private static final class FailingExporter extends StubExporter {
    private final List<Throwable> toThrow;

    FailingExporter(List<Throwable> toThrow) {
      this.toThrow = toThrow;
    }

    @Override
    public void writeRequest(Batch batch, OutputStream out) throws IOException {
      out.write(new byte[] {9, 9});
      Throwable t = toThrow.remove(0);
      if (t instanceof IOException) {
        throw (IOException) t;
      }
      if (t instanceof Error) {
        throw (Error) t;
      }
      throw (RuntimeException) t;
    }

    @Override
    public ExportResult export(Batch batch, byte[] body, int length, Compression compression) {
      return ExportResult.success();
    }
  }
}
