package io.logproducer.spi;

import io.logproducer.RecordTooLargeException;
import java.util.Arrays;

/**
 * A growable byte array that {@link RecordEncoder}s write one record into, with the primitive
 * writers wire formats need: bytes, unsigned varints (LEB128, as protobuf and Kafka's record format
 * write them), big-endian ints, ASCII, and allocation-free UTF-8 of any {@link CharSequence}.
 *
 * <p>Strings are encoded as {@link String#getBytes(java.nio.charset.Charset) UTF-8} does: an
 * unpaired surrogate becomes {@code '?'}; {@link #utf8Length(CharSequence)} agrees with {@link
 * #writeUtf8(CharSequence)} byte for byte. Strings are encoded in one pass: a {@link String} of
 * more than a few dozen chars has its chars copied out in bulk, a slice at a time, into a scratch
 * array owned by the buffer, where runs of ASCII chars are written by a tight loop; shorter strings
 * and other {@link CharSequence}s are read with {@code charAt}.
 *
 * <p>An encoder with its own writers (the OTLP protobuf encoder's live in its internal package)
 * writes directly into {@link #array()} from {@link #size()} on, after {@link #ensure(int)}, and
 * commits the bytes with {@link #setSize(int)}.
 *
 * <p>A buffer has a {@link #limit()}: the producer sets it to the largest record it accepts, and a
 * write that would take the buffer past it throws {@link RecordTooLargeException} before anything
 * of that size is allocated (so a huge record is refused without the memory it would need). Not
 * thread-safe: the producer gives each calling thread its own buffer.
 */
public final class EncodeBuffer {

  /** The largest limit: the largest array a JVM allocates, in bytes. */
  public static final int MAX_LIMIT = Integer.MAX_VALUE - 8;

  /**
   * Strings of at most this many chars are read with {@code charAt} rather than copied out in bulk.
   */
  private static final int SHORT_STRING = 42;

  /** Chars of a {@link String} copied out per slice: the size of {@link #chars}. */
  private static final int SLICE = 1024;

  private byte[] buf;
  private int pos;
  private int limit = MAX_LIMIT;

  /** Scratch for the chars of a string being encoded; made on first use. */
  private char[] chars;

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

  /**
   * {@return the backing array; valid bytes are {@code [0, size())}} It is replaced when the buffer
   * grows.
   */
  public byte[] array() {
    return buf;
  }

  /** {@return the current capacity in bytes} */
  public int capacity() {
    return buf.length;
  }

  /**
   * {@return the most bytes this buffer may hold} Writes past it throw {@link
   * RecordTooLargeException}. Default {@link #MAX_LIMIT}.
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
   * Empties the buffer and, if its backing array is larger than {@code capacity}, replaces it with
   * one of {@code capacity} bytes (to let a buffer that grew for one huge record go).
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
   * @throws RecordTooLargeException if that would take the buffer past {@link #limit()} (nothing is
   *     allocated)
   */
  public void ensure(int n) {
    long need = (long) pos + n;
    if (need > buf.length) {
      grow(need);
    }
  }

  private void grow(long need) {
    if (need > limit) {
      throw new RecordTooLargeException(
          "record of at least "
              + need
              + " encoded bytes exceeds the largest allowed of "
              + limit
              + " bytes",
          need,
          limit);
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
   * Writes {@code value} as an unsigned protobuf varint (1–5 bytes; see {@link
   * #varintSize32(int)}).
   *
   * @param value the value, taken as unsigned 32 bits
   * @throws RecordTooLargeException if the buffer would have to grow past {@link #limit()}
   */
  public void writeVarint32(int value) {
    ensure(5);
    pos = putVarint32(buf, pos, value);
  }

  /**
   * Puts {@code value} as an unsigned varint at {@code b[p]}, which has room; returns the index
   * after it.
   */
  private static int putVarint32(byte[] b, int p, int value) {
    while ((value & ~0x7F) != 0) {
      b[p++] = (byte) ((value & 0x7F) | 0x80);
      value >>>= 7;
    }
    b[p++] = (byte) value;
    return p;
  }

  /**
   * Writes {@code value} as an unsigned protobuf varint (1–10 bytes; see {@link
   * #varintSize64(long)}); negative int64 values take 10 bytes.
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
   * Sets {@link #size()}: after writing bytes directly into {@link #array()} from {@code size()}
   * on, into room made with {@link #ensure(int)}, commits them (how an encoder writes a run of
   * small fields with a local index, checking for room once instead of once a field); a smaller
   * value drops bytes written last.
   *
   * @param size the new size in bytes, in [0, {@link #capacity()}]
   * @throws IndexOutOfBoundsException if {@code size} is negative or exceeds {@link #capacity()}
   */
  public void setSize(int size) {
    if (size < 0 || size > buf.length) {
      throw sizeOutOfRange(size);
    }
    pos = size;
  }

  /**
   * Out of line, so that {@link #setSize(int)} stays small enough for the JIT to inline at every
   * call site.
   */
  private IndexOutOfBoundsException sizeOutOfRange(int size) {
    return new IndexOutOfBoundsException("size " + size + ", capacity " + buf.length);
  }

  /**
   * Writes the UTF-8 bytes of {@code s}, with no length prefix.
   *
   * @param s the characters
   * @return the number of bytes written, as {@link #utf8Length(CharSequence)} computes it
   * @throws RecordTooLargeException if the buffer would have to grow past {@link #limit()}
   */
  public int writeUtf8(CharSequence s) {
    int start = pos;
    int n = s.length();
    if (n > SHORT_STRING && s instanceof String) {
      writeUtf8Slices((String) s, n);
    } else {
      ensureUtf8(s, 0, n);
      pos = encodeUtf8(s, 0, n, buf, pos);
    }
    return pos - start;
  }

  /**
   * Writes a string a slice at a time: its chars are copied into {@link #chars} ({@link
   * String#getChars}, a bulk copy) and encoded from there. A slice never ends between the two chars
   * of a surrogate pair.
   */
  private void writeUtf8Slices(String s, int n) {
    char[] cs = chars;
    if (cs == null) {
      cs = chars = new char[SLICE];
    }
    boolean roomForAll = false;
    int i = 0;
    while (i < n) {
      int end = Math.min(n, i + SLICE);
      s.getChars(i, end, cs, 0);
      int len = end - i;
      if (end < n && Character.isHighSurrogate(cs[len - 1])) {
        len--; // its low surrogate starts the next slice: encode the pair there
        end--;
      }
      if (!roomForAll) {
        roomForAll = ensureUtf8(s, i, len);
      }
      pos = encodeUtf8(cs, len, buf, pos);
      i = end;
    }
  }

  /**
   * Makes room for the UTF-8 of {@code s}'s chars from {@code from} on, {@code count} of them next:
   * for their worst case (3 bytes a char) when that is within the limit, else for the exact UTF-8
   * length of all of the rest of {@code s}, which throws if it does not fit (so that a huge string
   * is refused before a buffer of its size exists).
   *
   * @return whether there is room for all of the rest of {@code s}
   */
  private boolean ensureUtf8(CharSequence s, int from, int count) {
    long worst = (long) pos + 3L * count;
    if (worst <= buf.length) {
      return false;
    }
    if (worst <= limit) {
      grow(worst);
      return false;
    }
    long exact = (long) pos + utf8Length(s, from);
    if (exact > buf.length) {
      grow(exact);
    }
    return true;
  }

  /**
   * Encodes {@code cs[0, n)} at {@code b[p]}, which has room for it; returns the index after the
   * last byte. A high surrogate at {@code n - 1} is unpaired.
   */
  private static int encodeUtf8(char[] cs, int n, byte[] b, int p) {
    int i = 0;
    while (i < n) {
      char c = cs[i++];
      if (c < 0x80) {
        b[p++] = (byte) c;
        while (i < n && (c = cs[i]) < 0x80) { // the ASCII run that follows
          b[p++] = (byte) c;
          i++;
        }
      } else if (c < 0x800) {
        b[p++] = (byte) (0xC0 | (c >> 6));
        b[p++] = (byte) (0x80 | (c & 0x3F));
      } else if (!Character.isSurrogate(c)) {
        b[p++] = (byte) (0xE0 | (c >> 12));
        b[p++] = (byte) (0x80 | ((c >> 6) & 0x3F));
        b[p++] = (byte) (0x80 | (c & 0x3F));
      } else if (Character.isHighSurrogate(c) && i < n && Character.isLowSurrogate(cs[i])) {
        p = encodeCodePoint(Character.toCodePoint(c, cs[i++]), b, p);
      } else {
        b[p++] = '?';
      }
    }
    return p;
  }

  /**
   * {@link #encodeUtf8(char[], int, byte[], int)} for any {@link CharSequence}, from char {@code
   * i}, char by char.
   */
  private static int encodeUtf8(CharSequence s, int i, int n, byte[] b, int p) {
    while (i < n) {
      char c = s.charAt(i++);
      if (c < 0x80) {
        b[p++] = (byte) c;
      } else if (c < 0x800) {
        b[p++] = (byte) (0xC0 | (c >> 6));
        b[p++] = (byte) (0x80 | (c & 0x3F));
      } else if (!Character.isSurrogate(c)) {
        b[p++] = (byte) (0xE0 | (c >> 12));
        b[p++] = (byte) (0x80 | ((c >> 6) & 0x3F));
        b[p++] = (byte) (0x80 | (c & 0x3F));
      } else if (Character.isHighSurrogate(c) && i < n && Character.isLowSurrogate(s.charAt(i))) {
        p = encodeCodePoint(Character.toCodePoint(c, s.charAt(i++)), b, p);
      } else {
        b[p++] = '?';
      }
    }
    return p;
  }

  /** Writes a supplementary code point's 4 UTF-8 bytes. */
  private static int encodeCodePoint(int cp, byte[] b, int p) {
    b[p] = (byte) (0xF0 | (cp >> 18));
    b[p + 1] = (byte) (0x80 | ((cp >> 12) & 0x3F));
    b[p + 2] = (byte) (0x80 | ((cp >> 6) & 0x3F));
    b[p + 3] = (byte) (0x80 | (cp & 0x3F));
    return p + 4;
  }

  /**
   * Overwrites one byte already written (e.g. to patch a length or flag written before the data it
   * describes).
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
    return utf8Length(s, 0);
  }

  /**
   * The UTF-8 length of {@code s}'s chars from {@code from} on ({@code from} not inside a surrogate
   * pair).
   */
  private static int utf8Length(CharSequence s, int from) {
    int n = s.length();
    int len = n - from;
    for (int i = from; i < n; i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        continue;
      }
      if (c < 0x800) {
        len += 1;
      } else if (!Character.isSurrogate(c)) {
        len += 2;
      } else if (Character.isHighSurrogate(c)
          && i + 1 < n
          && Character.isLowSurrogate(s.charAt(i + 1))) {
        len += 2; // 4 bytes for 2 chars
        i++;
      }
      // an unpaired surrogate is written as '?': 1 byte, already counted
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
    // 7 bits a byte: 1 + (bits - 1) / 7 for the bits up to the highest set one (at least 1),
    // without branches
    return (352 - Integer.numberOfLeadingZeros(value) * 9) >>> 6;
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
