package io.logproducer.internal;

import io.logproducer.Compression;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;

/**
 * What the spool stores beside a batch's request body so that it can be exported again without its
 * records: the codec the body was compressed with, the record count, the encoded size and the
 * exporter's stored form of the shard key. Encoded as: version byte (1), codec name (modified
 * UTF-8), record count (int), encoded size in bytes (int), shard key length (int) and bytes.
 * Immutable.
 */
final class StoredBatchMeta {
  private static final int VERSION = 1;

  final Compression compression;
  final int recordCount;
  final int sizeInBytes;
  final byte[] shardKey;

  StoredBatchMeta(Compression compression, int recordCount, int sizeInBytes, byte[] shardKey) {
    this.compression = compression;
    this.recordCount = recordCount;
    this.sizeInBytes = sizeInBytes;
    this.shardKey = shardKey;
  }

  /** {@return the stored form} */
  byte[] encode() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(32 + shardKey.length);
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeByte(VERSION);
      out.writeUTF(compression.name());
      out.writeInt(recordCount);
      out.writeInt(sizeInBytes);
      out.writeInt(shardKey.length);
      out.write(shardKey);
    } catch (IOException e) {
      throw new IllegalStateException("cannot happen: in-memory stream", e);
    }
    return bytes.toByteArray();
  }

  /**
   * {@return the meta {@code stored} encodes}
   *
   * @throws IllegalArgumentException if it is not a version-1 stored batch meta
   */
  static StoredBatchMeta decode(byte[] stored) {
    try (DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(stored))) {
      int version = in.readUnsignedByte();
      if (version != VERSION) {
        throw new IllegalArgumentException("unknown stored batch meta version " + version);
      }
      Compression compression = Compression.valueOf(in.readUTF());
      int records = in.readInt();
      int size = in.readInt();
      byte[] key = new byte[in.readInt()];
      in.readFully(key);
      return new StoredBatchMeta(compression, records, size, key);
    } catch (IOException | RuntimeException e) {
      throw new IllegalArgumentException("unreadable stored batch meta: " + e, e);
    }
  }
}
