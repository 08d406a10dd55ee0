package io.logproducer.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.SendResult;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProducerBatchTest {

  private final ChunkPool pool = new ChunkPool(4096, 16);

  private ProducerBatch batch() {
    return new ProducerBatch("shard", pool, 0, 1_000, 10_000, 16);
  }

  @Test
  void followsTheStateMachineAndCatchesADoubleCompletion() {
    ProducerBatch b = batch();
    b.append(new byte[] {1}, 1, null);
    assertThrows(IllegalStateException.class, b::markCompleted, "cannot complete an open batch");
    b.seal();
    IllegalStateException e = assertThrows(IllegalStateException.class, b::seal);
    assertEquals("illegal batch transition SEALED -> SEALED (expected OPEN)", e.getMessage());
    assertThrows(IllegalStateException.class, () -> b.append(new byte[] {1}, 1, null));
    assertTrue(b.tryStartAttempt());
    b.awaitRetry(5);
    assertTrue(b.tryStartAttempt());
    b.markCompleted();
    e = assertThrows(IllegalStateException.class, b::markCompleted);
    assertEquals("illegal batch transition COMPLETED -> COMPLETED (expected IN_FLIGHT)", e.getMessage());
    assertFalse(b.tryStartAttempt(), "a completed batch is never sent");
    assertFalse(b.tryAbort());
  }

  @Test
  void abortWinsOnlyOverQueuedBatches() {
    ProducerBatch queued = batch();
    queued.append(new byte[] {1}, 1, null);
    queued.seal();
    assertTrue(queued.tryAbort());
    assertFalse(queued.tryStartAttempt());

    ProducerBatch inFlight = batch();
    inFlight.append(new byte[] {1}, 1, null);
    inFlight.seal();
    inFlight.tryStartAttempt();
    assertFalse(inFlight.tryAbort(), "the send thread owns an in-flight batch");
    inFlight.markCompleted();
  }

  @Test
  void storesRecordsAcrossChunkBoundariesByteExact() throws Exception {
    ProducerBatch b = batch();
    List<byte[]> records = new ArrayList<>();
    int[] sizes = {1, 4095, 4096, 10_000, 3, 0, 4097};
    byte v = 0;
    for (int size : sizes) {
      byte[] r = new byte[size];
      for (int i = 0; i < size; i++) {
        r[i] = v++;
      }
      records.add(r);
      b.append(r, size, null);
    }
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    for (int i = 0; i < records.size(); i++) {
      assertEquals(sizes[i], b.recordSize(i));
      ByteArrayOutputStream one = new ByteArrayOutputStream();
      b.writeRecord(i, one);
      assertArrayEquals(records.get(i), one.toByteArray(), "record " + i);
      all.write(records.get(i));
    }
    ByteArrayOutputStream whole = new ByteArrayOutputStream();
    b.writeTo(whole);
    assertArrayEquals(all.toByteArray(), whole.toByteArray());
    assertEquals(all.size(), b.sizeInBytes());
    assertEquals(7, b.recordCount());
  }

  @Test
  void copyRangeKeepsRecordsCallbacksAndAttempts() throws Exception {
    ProducerBatch b = batch();
    List<String> called = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      int id = i;
      b.append(new byte[] {(byte) i, (byte) i}, 2, i % 2 == 0 ? r -> called.add("cb" + id) : null);
    }
    b.seal();
    b.tryStartAttempt();
    b.countAttempt();
    ProducerBatch second = b.copyRange(2, 5);
    assertEquals(3, second.recordCount());
    assertEquals(1, second.attempt());
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    second.writeTo(out);
    assertArrayEquals(new byte[] {2, 2, 3, 3, 4, 4}, out.toByteArray());
    assertEquals(2, second.callbackCount());
    second.tryStartAttempt();
    second.markCompleted();
    second.invokeCallbacks(new SendResult(SendResult.Status.DELIVERED, 2, 3, 0, null, null), t -> {
    });
    assertEquals(List.of("cb2", "cb4"), called);
  }

  @Test
  void chunksAreRecycledAndThePoolIsBounded() {
    ChunkPool small = new ChunkPool(4096, 2);
    ProducerBatch b = new ProducerBatch("s", small, 0, 0, 1, 1);
    b.append(new byte[4096 * 3], 4096 * 3, null);
    b.releaseChunks();
    assertEquals(2, small.freeCount());
    assertEquals(4096, ChunkPool.chunkSizeFor(100));
    assertEquals(65536, ChunkPool.chunkSizeFor(2 << 20));
    assertEquals(16384, ChunkPool.chunkSizeFor(10_000));
  }
}
