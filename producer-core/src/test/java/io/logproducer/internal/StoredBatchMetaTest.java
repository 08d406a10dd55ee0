package io.logproducer.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.logproducer.Compression;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * The meta stored beside a spooled body: version 1 (no record sizes, as written by the previous
 * release) and version 2 (record sizes as varints), byte for byte, and what a replayed batch
 * answers with them.
 */
class StoredBatchMetaTest {

  private static final byte[] KEY = "logs".getBytes(StandardCharsets.UTF_8);

  /** The version-1 form as the previous release wrote it: LZ4, 3 records, 42 bytes, key "logs". */
  private static final byte[] VERSION_1_LZ4 = {
    1, 0, 3, 'L', 'Z', '4', 0, 0, 0, 3, 0, 0, 0, 42, 0, 0, 0, 4, 'l', 'o', 'g', 's'
  };

  private final MemoryBudget budget = new MemoryBudget(1 << 20);
  private final ChunkPool pool = new ChunkPool(4096, budget);

  @Test
  void withoutRecordSizesItIsWrittenAndReadAsVersion1() {
    StoredBatchMeta meta = new StoredBatchMeta(Compression.LZ4, 3, 42, KEY);
    assertArrayEquals(VERSION_1_LZ4, meta.encode());
    StoredBatchMeta back = StoredBatchMeta.decode(VERSION_1_LZ4);
    assertEquals(Compression.LZ4, back.compression);
    assertEquals(3, back.recordCount);
    assertEquals(42, back.sizeInBytes);
    assertArrayEquals(KEY, back.shardKey);
    assertNull(back.recordSizes);
  }

  @Test
  void recordSizesAreVersion2VarintsAfterTheVersion1Fields() {
    int[] sizes = {0, 1, 127, 128, 16_383, 16_384, 300_000};
    int total = Arrays.stream(sizes).sum();
    byte[] encoded =
        new StoredBatchMeta(Compression.NONE, sizes.length, total, KEY, sizes).encode();

    ByteArrayOutputStream expected = new ByteArrayOutputStream();
    byte[] v1 = new StoredBatchMeta(Compression.NONE, sizes.length, total, KEY).encode();
    expected.write(2);
    expected.write(v1, 1, v1.length - 1);
    int[] varints = {
      0x00, 0x01, 0x7F, 0x80, 0x01, 0xFF, 0x7F, 0x80, 0x80, 0x01, 0xE0, 0xA7, 0x12 // 300000
    };
    for (int b : varints) {
      expected.write(b);
    }
    assertArrayEquals(expected.toByteArray(), encoded);

    StoredBatchMeta back = StoredBatchMeta.decode(encoded);
    assertArrayEquals(sizes, back.recordSizes);
    assertEquals(sizes.length, back.recordCount);
    assertEquals(total, back.sizeInBytes);
    assertEquals(Compression.NONE, back.compression);
    assertArrayEquals(KEY, back.shardKey);
  }

  @Test
  void theLargestSizeTakesFiveBytesAndRoundTrips() {
    int[] sizes = {Integer.MAX_VALUE};
    byte[] encoded =
        new StoredBatchMeta(Compression.NONE, 1, Integer.MAX_VALUE, KEY, sizes).encode();
    assertArrayEquals(
        new byte[] {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x07},
        Arrays.copyOfRange(encoded, encoded.length - 5, encoded.length));
    assertArrayEquals(sizes, StoredBatchMeta.decode(encoded).recordSizes);
  }

  @Test
  void ofTakesTheSizesFromTheProducerBatchOnlyWhenAsked() {
    ProducerBatch b = new ProducerBatch("shard", pool, 0, 1_000, 10_000, 16);
    int[] sizes = {5, 200, 1, 4_500};
    for (int s : sizes) {
      assertEquals(0, b.tryAppend(new byte[s], s, null, 0, budget));
    }
    b.seal();
    StoredBatchMeta with = StoredBatchMeta.of(Compression.ZSTD, b, KEY, true);
    assertArrayEquals(sizes, with.recordSizes);
    assertEquals(4, with.recordCount);
    assertEquals(4_706, with.sizeInBytes);
    assertArrayEquals(sizes, StoredBatchMeta.decode(with.encode()).recordSizes);

    StoredBatchMeta without = StoredBatchMeta.of(Compression.ZSTD, b, KEY, false);
    assertNull(without.recordSizes);
    assertEquals(1, without.encode()[0], "no sizes: still written as version 1");
  }

  @Test
  void damagedOrInconsistentFormsAreRefused() {
    byte[] good = new StoredBatchMeta(Compression.NONE, 2, 3, KEY, new int[] {1, 2}).encode();
    assertRefused(Arrays.copyOf(good, good.length - 1), "a size cut off");
    assertRefused(Arrays.copyOf(good, good.length + 1), "a byte left over");
    byte[] wrongSum = good.clone();
    wrongSum[wrongSum.length - 1] = 3;
    assertRefused(wrongSum, "sizes summing to 4, not 3");
    byte[] version3 = good.clone();
    version3[0] = 3;
    assertRefused(version3, "unknown version");

    byte[] hugeCount = new StoredBatchMeta(Compression.NONE, 0, 0, KEY, new int[0]).encode();
    int countAt = 1 + 2 + "NONE".length();
    hugeCount[countAt] = 0x7F; // 2^30-odd records in zero bytes: refused before any allocation
    assertRefused(hugeCount, "a count beyond the bytes left");

    byte[] sixBytes = {(byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, 0x01};
    assertRefused(withOneVarint(sixBytes), "a varint longer than 5 bytes");
    byte[] tooLarge = {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x0F};
    assertRefused(withOneVarint(tooLarge), "a size above 2^31 - 1");

    assertThrows(
        IllegalArgumentException.class,
        () -> new StoredBatchMeta(Compression.NONE, 2, 3, KEY, new int[] {3}));
    assertThrows(
        IllegalArgumentException.class,
        () -> new StoredBatchMeta(Compression.NONE, 2, 3, KEY, new int[] {4, -1}));
  }

  /** A version-2 meta of one record of size 1, whose varint is replaced by {@code varint}. */
  private static byte[] withOneVarint(byte[] varint) {
    byte[] one = new StoredBatchMeta(Compression.NONE, 1, 1, KEY, new int[] {1}).encode();
    byte[] out = Arrays.copyOf(one, one.length - 1 + varint.length);
    System.arraycopy(varint, 0, out, one.length - 1, varint.length);
    return out;
  }

  private static void assertRefused(byte[] stored, String what) {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> StoredBatchMeta.decode(stored), what);
    assertEquals(true, e.getMessage().startsWith("unreadable stored batch meta: "), e.getMessage());
  }

  @Test
  void aReplayedBatchAnswersRecordSizesOnlyWhenTheyWereStored() {
    StoredBatchMeta meta =
        StoredBatchMeta.decode(
            new StoredBatchMeta(Compression.NONE, 3, 10, KEY, new int[] {2, 3, 5}).encode());
    StoredBatch with =
        new StoredBatch("logs", meta.recordCount, meta.sizeInBytes, meta.recordSizes);
    assertEquals(2, with.recordSize(0));
    assertEquals(3, with.recordSize(1));
    assertEquals(5, with.recordSize(2));
    assertThrows(IndexOutOfBoundsException.class, () -> with.recordSize(3));
    assertThrows(IndexOutOfBoundsException.class, () -> with.recordSize(-1));
    assertThrows(
        UnsupportedOperationException.class, () -> with.writeTo(new ByteArrayOutputStream()));
    assertThrows(
        UnsupportedOperationException.class,
        () -> with.writeRecord(0, new ByteArrayOutputStream()));

    StoredBatch without = new StoredBatch("logs", 3, 10, null);
    UnsupportedOperationException e =
        assertThrows(UnsupportedOperationException.class, () -> without.recordSize(0));
    assertEquals(true, e.getMessage().contains("exportNeedsRecordSizes"), e.getMessage());
  }
}
