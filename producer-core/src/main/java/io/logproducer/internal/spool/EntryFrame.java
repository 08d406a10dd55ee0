package io.logproducer.internal.spool;

import java.nio.ByteBuffer;

/**
 * The framing of one entry (one sealed batch) in a segment, big-endian, no padding:
 *
 * <pre>
 * offset size field
 *      0    4 magic 0x4C505345 ("LPSE")
 *      4    4 totalLength: header + meta + payload, bytes
 *      8    8 sequence (strictly increasing across the spool and across restarts)
 *     16    8 createdAtMillis (epoch millis, given by the appender)
 *     24    4 recordCount
 *     28    4 metaLength (0..65536)
 *     32    4 crc: CRC32C over meta, payload, then header bytes 0..31
 *     36      meta, then payload
 * </pre>
 *
 * <p>The CRC covers the length field, so a damaged length is detected like any other flipped byte.
 * Meta and payload come first in the CRC so that the appender can checksum its (large) body outside
 * the spool's lock and add only the 32 header bytes under it. Stateless; thread-safe.
 */
final class EntryFrame {

  /** Bytes of the fixed header. */
  static final int HEADER_BYTES = 36;

  /** The magic number opening every entry. */
  static final int MAGIC = 0x4C505345;

  /** The largest {@code meta}, bytes. */
  static final int MAX_META_BYTES = 64 * 1024;

  /** Offset of the CRC field. */
  static final int CRC_OFFSET = 32;

  /** Not instantiable. */
  private EntryFrame() {}

  /**
   * Writes the header of an entry into {@code header} (positions 0..35, absolute puts) with its CRC
   * finished from {@code bodyCrc}, a CRC32C that has already seen meta and payload.
   */
  static void writeHeader(
      ByteBuffer header,
      int totalLength,
      long sequence,
      long createdAtMillis,
      int recordCount,
      int metaLength,
      Crc32c bodyCrc) {
    header.putInt(0, MAGIC);
    header.putInt(4, totalLength);
    header.putLong(8, sequence);
    header.putLong(16, createdAtMillis);
    header.putInt(24, recordCount);
    header.putInt(28, metaLength);
    bodyCrc.update(header.array(), header.arrayOffset(), CRC_OFFSET);
    header.putInt(CRC_OFFSET, bodyCrc.value());
  }

  /**
   * {@return whether the header at {@code offset} of {@code buf} is plausible: the magic, a total
   * length in {@code [HEADER_BYTES + metaLength, maxTotal]} and a meta length within bounds} It
   * says nothing of the CRC.
   */
  static boolean plausible(ByteBuffer buf, int offset, long maxTotal) {
    if (buf.getInt(offset) != MAGIC) {
      return false;
    }
    long total = buf.getInt(offset + 4) & 0xFFFFFFFFL;
    int metaLength = buf.getInt(offset + 28);
    return metaLength >= 0
        && metaLength <= MAX_META_BYTES
        && total >= HEADER_BYTES + (long) metaLength
        && total <= maxTotal;
  }

  /** {@return the total length of the entry at {@code offset}, bytes} */
  static int totalLength(ByteBuffer buf, int offset) {
    return buf.getInt(offset + 4);
  }

  /** {@return the sequence of the entry at {@code offset}} */
  static long sequence(ByteBuffer buf, int offset) {
    return buf.getLong(offset + 8);
  }

  /**
   * {@return whether the whole entry at {@code offset} of {@code buf} (a heap buffer holding at
   * least its total length from there) carries a matching CRC}
   */
  static boolean crcMatches(ByteBuffer buf, int offset) {
    int total = totalLength(buf, offset);
    byte[] a = buf.array();
    int base = buf.arrayOffset() + offset;
    Crc32c crc = Crc32c.create();
    crc.update(a, base + HEADER_BYTES, total - HEADER_BYTES);
    crc.update(a, base, CRC_OFFSET);
    return crc.value() == buf.getInt(offset + CRC_OFFSET);
  }
}
