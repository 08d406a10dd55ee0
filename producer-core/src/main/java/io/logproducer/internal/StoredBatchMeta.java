package io.logproducer.internal;

import io.logproducer.Compression;
import io.logproducer.spi.Batch;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;

/**
 * What the spool stores beside a batch's request body so that it can be exported again without its
 * records: the codec the body was compressed with, the record count, the encoded size, the
 * exporter's stored form of the shard key and, when the exporter asks for them ({@link
 * io.logproducer.spi.Exporter#exportNeedsRecordSizes()}), each record's encoded size.
 *
 * <p>Encoded (big-endian) as version 1 when it has no record sizes: version byte (1), codec name
 * (modified UTF-8), record count (int), encoded size in bytes (int), shard key length (int) and
 * bytes. With record sizes, as version 2: the same fields after version byte 2, then one unsigned
 * LEB128 varint per record (7 bits a byte, low bits first; 1 to 5 bytes), whose sum is the encoded
 * size. Version 1 is what spools written before record sizes hold; both are read. Immutable.
 */
final class StoredBatchMeta {
  private static final int VERSION_1 = 1;
  private static final int VERSION_2 = 2;

  final Compression compression;
  final int recordCount;
  final int sizeInBytes;
  final byte[] shardKey;

  /** Each record's encoded size ({@code recordCount} of them, summing to sizeInBytes), or null. */
  final int[] recordSizes;

  StoredBatchMeta(Compression compression, int recordCount, int sizeInBytes, byte[] shardKey) {
    this(compression, recordCount, sizeInBytes, shardKey, null);
  }

  /**
   * @param recordSizes each record's encoded size, or null for none; not copied
   * @throws IllegalArgumentException if {@code recordSizes} does not hold {@code recordCount}
   *     non-negative sizes summing to {@code sizeInBytes}
   */
  StoredBatchMeta(
      Compression compression,
      int recordCount,
      int sizeInBytes,
      byte[] shardKey,
      int[] recordSizes) {
    if (recordSizes != null) {
      checkSizes(recordCount, sizeInBytes, recordSizes);
    }
    this.compression = compression;
    this.recordCount = recordCount;
    this.sizeInBytes = sizeInBytes;
    this.shardKey = shardKey;
    this.recordSizes = recordSizes;
  }

  /**
   * {@return the meta of {@code batch}, with its record sizes if {@code withRecordSizes}}
   *
   * @param compression the codec its request body was compressed with
   * @param batch a sealed batch whose records are still in memory
   * @param shardKey the exporter's stored form of its shard key
   * @param withRecordSizes whether to store each record's size
   */
  static StoredBatchMeta of(
      Compression compression, Batch batch, byte[] shardKey, boolean withRecordSizes) {
    int count = batch.recordCount();
    int[] sizes = null;
    if (withRecordSizes) {
      sizes = new int[count];
      for (int i = 0; i < count; i++) {
        sizes[i] = batch.recordSize(i);
      }
    }
    return new StoredBatchMeta(compression, count, batch.sizeInBytes(), shardKey, sizes);
  }

  private static void checkSizes(int recordCount, int sizeInBytes, int[] sizes) {
    if (sizes.length != recordCount) {
      throw new IllegalArgumentException(
          sizes.length + " record sizes for a batch of " + recordCount + " records");
    }
    long sum = 0;
    for (int s : sizes) {
      if (s < 0) {
        throw new IllegalArgumentException("negative record size " + s);
      }
      sum += s;
    }
    if (sum != sizeInBytes) {
      throw new IllegalArgumentException(
          "record sizes sum to " + sum + " bytes, the batch has " + sizeInBytes);
    }
  }

  /** {@return the stored form: version 1 without record sizes, version 2 with them} */
  byte[] encode() {
    int sizesBytes = recordSizes == null ? 0 : recordCount * 2;
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(32 + shardKey.length + sizesBytes);
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeByte(recordSizes == null ? VERSION_1 : VERSION_2);
      out.writeUTF(compression.name());
      out.writeInt(recordCount);
      out.writeInt(sizeInBytes);
      out.writeInt(shardKey.length);
      out.write(shardKey);
      if (recordSizes != null) {
        for (int s : recordSizes) {
          writeVarint(out, s);
        }
      }
    } catch (IOException e) {
      throw new IllegalStateException("cannot happen: in-memory stream", e);
    }
    return bytes.toByteArray();
  }

  private static void writeVarint(DataOutputStream out, int value) throws IOException {
    int v = value;
    while ((v & ~0x7F) != 0) {
      out.writeByte((v & 0x7F) | 0x80);
      v >>>= 7;
    }
    out.writeByte(v);
  }

  /**
   * {@return the meta {@code stored} encodes}
   *
   * @throws IllegalArgumentException if it is not a version-1 or version-2 stored batch meta, or is
   *     inconsistent (record sizes that do not match the count and size, bytes left over)
   */
  static StoredBatchMeta decode(byte[] stored) {
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(stored))) {
      int version = in.readUnsignedByte();
      if (version != VERSION_1 && version != VERSION_2) {
        throw new IllegalArgumentException("unknown stored batch meta version " + version);
      }
      Compression compression = Compression.valueOf(in.readUTF());
      int records = in.readInt();
      int size = in.readInt();
      byte[] key = new byte[in.readInt()];
      in.readFully(key);
      if (version == VERSION_1) {
        return new StoredBatchMeta(compression, records, size, key);
      }
      // each varint takes at least one byte: a count beyond what is left is damage, not an array
      if (records < 0 || records > in.available()) {
        throw new IllegalArgumentException(
            records + " record sizes in " + in.available() + " bytes");
      }
      int[] sizes = new int[records];
      for (int i = 0; i < records; i++) {
        sizes[i] = readVarint(in);
      }
      if (in.available() != 0) {
        throw new IllegalArgumentException(in.available() + " bytes after the record sizes");
      }
      return new StoredBatchMeta(compression, records, size, key, sizes);
    } catch (IOException | RuntimeException e) {
      throw new IllegalArgumentException("unreadable stored batch meta: " + e, e);
    }
  }

  private static int readVarint(DataInputStream in) throws IOException {
    int value = 0;
    for (int shift = 0; shift < 35; shift += 7) {
      int b = in.readUnsignedByte();
      if (shift == 28 && b > 0x07) {
        throw new IllegalArgumentException("record size above 2^31 - 1");
      }
      value |= (b & 0x7F) << shift;
      if ((b & 0x80) == 0) {
        return value;
      }
    }
    throw new IllegalArgumentException("record size varint longer than 5 bytes");
  }
}
