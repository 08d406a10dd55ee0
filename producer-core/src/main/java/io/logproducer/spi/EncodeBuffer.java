package io.logproducer.spi;

import io.logproducer.RecordTooLargeException;
import java.util.Arrays;

/**
 * A growable byte array that {@link RecordEncoder}s write one record into, with the primitive writers wire
 * formats need: protobuf varints and little-endian fixed ints, big-endian ints, and allocation-free UTF-8.
 *
 * <p>Strings are encoded as {@link String#getBytes(java.nio.charset.Charset) UTF-8} does: an unpaired surrogate
 * becomes {@code '?'}; {@link #utf8Length(CharSequence)} agrees with {@link #writeUtf8(CharSequence)} byte for
 * byte.
 *
 * <p>A buffer has a {@link #limit()}: the producer sets it to the largest record it accepts, and a write that would
 * take the buffer past it throws {@link RecordTooLargeException} before anything of that size is allocated (so a
 * huge record is refused without the memory it would need). Not thread-safe: the producer gives each calling
 * thread its own buffer.
 */
public final class EncodeBuffer {

  /** The largest limit: the largest array a JVM allocates, in bytes. */
  public static final int MAX_LIMIT = Integer.MAX_VALUE - 8;

  private byte[] buf;
  private int pos;
  private int limit = MAX_LIMIT;

  /**
   * Creates an empty buffer with no limit below {@link #MAX_LIMIT}.
   *
   * @param initialCapacity bytes; values below 16 are raised to 16
   */
  public EncodeBuffer(int initialCapacity) {
    buf = new byte[Math.max(16, initialCapacity)];
  }

  /** Empties the buffer (capacity is kept). */
  public void reset() {
    pos = 0;
  }

  /** {@return the bytes written since the last {@link #reset()}} */
  public int size() {
    return pos;
  }

  /** {@return the backing array; valid bytes are {@code [0, size())}} It is replaced when the buffer grows. */
  public byte[] array() {
    return buf;
  }

  /** {@return the current capacity in bytes} */
  public int capacity() {
    return buf.length;
  }

  /**
   * {@return the most bytes this buffer may hold} Writes past it throw {@link RecordTooLargeException}. Default
   * {@link #MAX_LIMIT}.
   */
  public int limit() {
    return limit;
  }

  /**
   * Sets {@link #limit()}.
   *
   * @param limit bytes, in [16, {@link #MAX_LIMIT}]
   * @throws IllegalArgumentException if {@code limit} is not in [16, {@link #MAX_LIMIT}]
   */
  public void setLimit(int limit) {
    if (limit < 16 || limit > MAX_LIMIT) {
      throw new IllegalArgumentException("limit must be in [16, " + MAX_LIMIT + "], was " + limit);
    }
    this.limit = limit;
  }

  /**
   * Empties the buffer and, if its backing array is larger than {@code capacity}, replaces it with one of
   * {@code capacity} bytes (to let a buffer that grew for one huge record go).
   *
   * @param capacity bytes
   */
  public void shrinkTo(int capacity) {
    if (buf.length > capacity) {
      buf = new byte[capacity];
    }
    pos = 0;
  }

  /**
   * Makes room for {@code n} more bytes.
   *
   * @param n bytes about to be written
   * @throws RecordTooLargeException if that would take the buffer past {@link #limit()} (nothing is allocated)
   */
  public void ensure(int n) {
    long need = (long) pos + n;
    if (need > buf.length) {
      grow(need);
    }
  }

  private void grow(long need) {
    if (need > limit) {
      throw new RecordTooLargeException("record of at least " + need + " encoded bytes exceeds the largest allowed of "
          + limit + " bytes", need, limit);
    }
    long doubled = Math.max(need, (long) buf.length << 1);
    buf = Arrays.copyOf(buf, (int) Math.min(doubled, limit));
  }

  /**
   * Writes one byte.
   *
   * @param b the byte, in its low 8 bits
   * @throws RecordTooLargeException if the buffer would have to grow past {@link #limit()}
   */
  public void writeByte(int b) {
    ensure(1);
    buf[pos++] = (byte) b;
  }

  /**
   * Writes all of {@code src}.
   *
   * @param src the bytes
   * @throws RecordTooLargeException if the buffer would have to grow past {@link #limit()}
   */
  public void writeBytes(byte[] src) {
    writeBytes(src, 0, src.length);
  }

  /**
   * Writes {@code len} bytes of {@code src} from {@code off}.
   *
   * @param src the bytes
   * @param off the first index in {@code src}
   * @param len the number of bytes
   * @throws RecordTooLargeException if the buffer would have to grow past {@link #limit()}
   * @throws IndexOutOfBoundsException if {@code [off, off + len)} is not within {@code src}
   */
  public void writeBytes(byte[] src, int off, int len) {
    ensure(len);
    System.arraycopy(src, off, buf, pos, len);
    pos += len;
  }

  /**
   * Writes {@code value} as an unsigned protobuf varint (1–5 bytes; see {@link #varintSize32(int)}).
   *
   * @param value the value, taken as unsigned 32 bits
   * @throws RecordTooLargeException if the buffer would have to grow past {@link #limit()}
   */
  public void writeVarint32(int value) {
    ensure(5);
    byte[] b = buf;
    int p = pos;
    while ((value & ~0x7F) != 0) {
      b[p++] = (byte) ((value & 0x7F) | 0x80);
      value >>>= 7;
    }
    b[p++] = (byte) value;
    pos = p;
  }

  /**
   * Writes {@code value} as an unsigned protobuf varint (1–10 bytes; see {@link #varintSize64(long)}); negative
   * int64 values take 10 bytes.
   *
   * @param value the value, taken as unsigned 64 bits
   * @throws RecordTooLargeException if the buffer would have to grow past {@link #limit()}
   */
  public void writeVarint64(long value) {
    ensure(10);
    byte[] b = buf;
    int p = pos;
    while ((value & ~0x7FL) != 0) {
      b[p++] = (byte) ((value & 0x7F) | 0x80);
      value >>>= 7;
    }
    b[p++] = (byte) value;
    pos = p;
  }

  /**
   * Writes 4 bytes, little-endian (protobuf {@code fixed32}, {@code sfixed32}, {@code float} bits).
   *
   * @param value the value
   * @throws RecordTooLargeException if the buffer would have to grow past {@link #limit()}
   */
  public void writeFixed32(int value) {
    ensure(4);
    byte[] b = buf;
    int p = pos;
    b[p] = (byte) value;
    b[p + 1] = (byte) (value >>> 8);
    b[p + 2] = (byte) (value >>> 16);
    b[p + 3] = (byte) (value >>> 24);
    pos = p + 4;
  }

  /**
   * Writes 8 bytes, little-endian (protobuf {@code fixed64}, {@code sfixed64}, {@code double} bits).
   *
   * @param value the value
   * @throws RecordTooLargeException if the buffer would have to grow past {@link #limit()}
   */
  public void writeFixed64(long value) {
    writeFixed32((int) value);
    writeFixed32((int) (value >>> 32));
  }

  /**
   * Writes 4 bytes, big-endian (network order).
   *
   * @param value the value
   * @throws RecordTooLargeException if the buffer would have to grow past {@link #limit()}
   */
  public void writeIntBigEndian(int value) {
    ensure(4);
    byte[] b = buf;
    int p = pos;
    b[p] = (byte) (value >>> 24);
    b[p + 1] = (byte) (value >>> 16);
    b[p + 2] = (byte) (value >>> 8);
    b[p + 3] = (byte) value;
    pos = p + 4;
  }

  /**
   * Writes chars known to be ASCII, one byte each (each char's low 8 bits; no check).
   *
   * @param s the ASCII string
   * @throws RecordTooLargeException if the buffer would have to grow past {@link #limit()}
   */
  public void writeAscii(String s) {
    int n = s.length();
    ensure(n);
    byte[] b = buf;
    int p = pos;
    for (int i = 0; i < n; i++) {
      b[p++] = (byte) s.charAt(i);
    }
    pos = p;
  }

  /**
   * Writes the UTF-8 bytes of {@code s}, with no length prefix.
   *
   * @param s the characters
   * @return the number of bytes written, as {@link #utf8Length(CharSequence)} computes it
   * @throws RecordTooLargeException if the buffer would have to grow past {@link #limit()}
   */
  public int writeUtf8(CharSequence s) {
    int n = s.length();
    long worst = (long) pos + 3L * n;
    if (worst > buf.length) {
      // Grow for the worst case only when it is within the limit; otherwise for the exact length (which throws
      // when the string really does not fit).
      grow(worst <= limit ? worst : (long) pos + utf8Length(s));
    }
    byte[] b = buf;
    int p = pos;
    int start = p;
    int i = 0;
    for (; i < n; i++) {
      char c = s.charAt(i);
      if (c >= 0x80) {
        break;
      }
      b[p++] = (byte) c;
    }
    for (; i < n; i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        b[p++] = (byte) c;
      } else if (c < 0x800) {
        b[p++] = (byte) (0xC0 | (c >> 6));
        b[p++] = (byte) (0x80 | (c & 0x3F));
      } else if (Character.isSurrogate(c)) {
        int cp = -1;
        if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
          cp = Character.toCodePoint(c, s.charAt(i + 1));
        }
        if (cp < 0) {
          b[p++] = '?';
        } else {
          i++;
          b[p++] = (byte) (0xF0 | (cp >> 18));
          b[p++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
          b[p++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
          b[p++] = (byte) (0x80 | (cp & 0x3F));
        }
      } else {
        b[p++] = (byte) (0xE0 | (c >> 12));
        b[p++] = (byte) (0x80 | ((c >> 6) & 0x3F));
        b[p++] = (byte) (0x80 | (c & 0x3F));
      }
    }
    pos = p;
    return p - start;
  }

  /**
   * Writes the UTF-8 bytes of {@code s}, given the value {@link #utf8LengthMarked(CharSequence)} returned for it:
   * a pure-ASCII string is copied in bulk, any other is encoded char by char.
   *
   * @param s the string
   * @param marked {@link #utf8LengthMarked(CharSequence) utf8LengthMarked(s)}
   * @return the number of bytes written
   * @throws RecordTooLargeException if the buffer would have to grow past {@link #limit()}
   */
  @SuppressWarnings("deprecation") // getBytes(int, int, byte[], int) copies the low 8 bits: exact for ASCII
  public int writeUtf8Marked(String s, int marked) {
    if (marked >= 0) {
      return writeUtf8(s);
    }
    int n = s.length();
    ensure(n);
    s.getBytes(0, n, buf, pos);
    pos += n;
    return n;
  }

  /**
   * The UTF-8 length of {@code s} as {@link #utf8Length(CharSequence)} computes it, marked: {@code ~length}
   * (negative) when every char is ASCII, {@code length} otherwise. Costs the same single scan; pass the result to
   * {@link #writeUtf8Marked(String, int)} and recover the length with {@link #markedLength(int)}. (A UTF-8 length
   * equal to the char count does not prove ASCII: an unpaired surrogate is one char and one {@code '?'} byte.)
   *
   * @param s the characters
   * @return {@code ~length} if {@code s} is all ASCII, else {@code length}
   */
  public static int utf8LengthMarked(CharSequence s) {
    int n = s.length();
    int i = 0;
    while (i < n && s.charAt(i) < 0x80) {
      i++;
    }
    return i == n ? ~n : utf8Length(s);
  }

  /**
   * The length carried by a {@link #utf8LengthMarked(CharSequence)} result.
   *
   * @param marked the result
   * @return the UTF-8 length in bytes, at least 0
   */
  public static int markedLength(int marked) {
    return marked < 0 ? ~marked : marked;
  }

  /**
   * Overwrites one byte already written (e.g. to patch a length or flag written before the data it describes).
   *
   * @param index the absolute index, below {@link #size()}
   * @param value the byte, in its low 8 bits
   * @throws IndexOutOfBoundsException if {@code index} is negative or not below {@link #size()}
   */
  public void setByte(int index, int value) {
    if (index < 0 || index >= pos) {
      throw new IndexOutOfBoundsException("index " + index + ", size " + pos);
    }
    buf[index] = (byte) value;
  }

  /**
   * The UTF-8 length of {@code s}, as {@link #writeUtf8(CharSequence)} would write it.
   *
   * @param s the characters
   * @return the length in bytes
   */
  public static int utf8Length(CharSequence s) {
    int n = s.length();
    int len = n;
    int i = 0;
    while (i < n && s.charAt(i) < 0x80) {
      i++;
    }
    for (; i < n; i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        continue;
      }
      if (c < 0x800) {
        len += 1;
      } else if (Character.isSurrogate(c)) {
        if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
          len += 2; // 4 bytes for 2 chars
          i++;
        }
        // an unpaired surrogate is written as '?': 1 byte, already counted
      } else {
        len += 2;
      }
    }
    return len;
  }

  /**
   * The size of a protobuf varint.
   *
   * @param value the value, taken as unsigned 32 bits
   * @return the bytes {@link #writeVarint32(int)} writes for it: 1–5
   */
  public static int varintSize32(int value) {
    if ((value & (~0 << 7)) == 0) {
      return 1;
    }
    if ((value & (~0 << 14)) == 0) {
      return 2;
    }
    if ((value & (~0 << 21)) == 0) {
      return 3;
    }
    if ((value & (~0 << 28)) == 0) {
      return 4;
    }
    return 5;
  }

  /**
   * The size of a protobuf varint.
   *
   * @param value the value, taken as unsigned 64 bits
   * @return the bytes {@link #writeVarint64(long)} writes for it: 1–10
   */
  public static int varintSize64(long value) {
    int n = 1;
    while ((value & ~0x7FL) != 0) {
      n++;
      value >>>= 7;
    }
    return n;
  }
}
