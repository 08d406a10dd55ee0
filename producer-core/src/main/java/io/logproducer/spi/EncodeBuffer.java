package io.logproducer.spi;

import io.logproducer.RecordTooLargeException;
import java.util.Arrays;

/**
 * A growable byte array that {@link RecordEncoder}s write one record into, with the primitive writers wire
 * formats need: protobuf varints and little-endian fixed ints, big-endian ints, and allocation-free UTF-8.
 *
 * <p>Strings are encoded as {@link String#getBytes(java.nio.charset.Charset) UTF-8} does: an unpaired surrogate
 * becomes {@code '?'}; {@link #utf8Length(CharSequence)} agrees with {@link #writeUtf8(CharSequence)} byte for
 * byte. Strings are encoded in one pass: a {@link String} of more than a few dozen chars has its chars copied out in
 * bulk, a slice at a time, into a scratch array owned by the buffer, where runs of ASCII chars are written by a
 * tight loop; shorter strings and other {@link CharSequence}s are read with {@code charAt}.
 *
 * <p>Length-delimited values (protobuf strings and nested messages) are written in one pass too:
 * {@link #reserveVarint32(int)} keeps room for the length, the value is written, and
 * {@link #fillVarint32(int, int)} writes the length, moving the value if the length's varint needs another number
 * of bytes than were kept, so the output is the minimal varint protobuf writes.
 *
 * <p>A run of small fields can be written with room checked once: {@link #ensure(int)} for their worst case, the
 * static {@code put*} writers ({@link #putVarint32}, {@link #putFixed32}, {@link #putFixed64},
 * {@link #putUtf8}) into {@link #array()} from {@link #size()} on, then {@link #advance(int)} by the bytes written.
 *
 * <p>A buffer has a {@link #limit()}: the producer sets it to the largest record it accepts, and a write that would
 * take the buffer past it throws {@link RecordTooLargeException} before anything of that size is allocated (so a
 * huge record is refused without the memory it would need). Not thread-safe: the producer gives each calling
 * thread its own buffer.
 */
public final class EncodeBuffer {

  /** The largest limit: the largest array a JVM allocates, in bytes. */
  public static final int MAX_LIMIT = Integer.MAX_VALUE - 8;

  /**
   * Strings of at most this many chars are read with {@code charAt} rather than copied out in bulk; their UTF-8
   * length, at most 3 bytes a char, has a one-byte varint.
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
    pos = putVarint32(buf, pos, value);
  }

  /**
   * Puts {@code value} as an unsigned protobuf varint (1–5 bytes) into {@code dst} at {@code off}, into room the
   * caller made (see {@link #advance(int)}).
   *
   * @param dst the array, usually {@link #array()}
   * @param off the index of the first byte
   * @param value the value, taken as unsigned 32 bits
   * @return the index after the last byte written
   * @throws ArrayIndexOutOfBoundsException if {@code dst} has no room for the bytes
   */
  public static int putVarint32(byte[] dst, int off, int value) {
    int p = off;
    while ((value & ~0x7F) != 0) {
      dst[p++] = (byte) ((value & 0x7F) | 0x80);
      value >>>= 7;
    }
    dst[p++] = (byte) value;
    return p;
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
    pos = putFixed32(buf, pos, value);
  }

  /**
   * Puts 4 bytes, little-endian, into {@code dst} at {@code off}, into room the caller made (see
   * {@link #advance(int)}).
   *
   * @param dst the array, usually {@link #array()}
   * @param off the index of the first byte
   * @param value the value
   * @return {@code off + 4}
   * @throws ArrayIndexOutOfBoundsException if {@code dst} has no room for the bytes
   */
  public static int putFixed32(byte[] dst, int off, int value) {
    dst[off] = (byte) value;
    dst[off + 1] = (byte) (value >>> 8);
    dst[off + 2] = (byte) (value >>> 16);
    dst[off + 3] = (byte) (value >>> 24);
    return off + 4;
  }

  /**
   * Writes 8 bytes, little-endian (protobuf {@code fixed64}, {@code sfixed64}, {@code double} bits).
   *
   * @param value the value
   * @throws RecordTooLargeException if the buffer would have to grow past {@link #limit()}
   */
  public void writeFixed64(long value) {
    ensure(8);
    pos = putFixed64(buf, pos, value);
  }

  /**
   * Puts 8 bytes, little-endian, into {@code dst} at {@code off}, into room the caller made (see
   * {@link #advance(int)}).
   *
   * @param dst the array, usually {@link #array()}
   * @param off the index of the first byte
   * @param value the value
   * @return {@code off + 8}
   * @throws ArrayIndexOutOfBoundsException if {@code dst} has no room for the bytes
   */
  public static int putFixed64(byte[] dst, int off, long value) {
    return putFixed32(dst, putFixed32(dst, off, (int) value), (int) (value >>> 32));
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
   * Counts {@code n} bytes that the caller wrote directly into {@link #array()} from index {@link #size()} on, after
   * making room for them with {@link #ensure(int)}: how an encoder writes a run of small fields with a local index,
   * checking for room once instead of once a field.
   *
   * @param n bytes written, at least 0
   * @throws IndexOutOfBoundsException if {@code n} is negative or {@code size() + n} exceeds {@link #capacity()}
   */
  public void advance(int n) {
    if (n < 0 || n > buf.length - pos) {
      throw new IndexOutOfBoundsException("advance " + n + ", size " + pos + ", capacity " + buf.length);
    }
    pos += n;
  }

  /**
   * Encodes {@code s} as UTF-8 into {@code dst} from index {@code off}, the same bytes {@link #writeUtf8(CharSequence)}
   * writes, reading it with {@code charAt}: meant for short strings (a few dozen chars), into room the caller made
   * for the worst case of 3 bytes a char (see {@link #advance(int)}).
   *
   * @param s the characters
   * @param dst the array, usually {@link #array()}
   * @param off the index of the first byte
   * @return the index after the last byte written
   * @throws ArrayIndexOutOfBoundsException if {@code dst} has no room for the bytes (some may have been written)
   */
  public static int putUtf8(String s, byte[] dst, int off) {
    int n = s.length();
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      if (c >= 0x80) {
        return encodeUtf8(s, i, n, dst, off + i);
      }
      dst[off + i] = (byte) c;
    }
    return off + n;
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
      ensureUtf8(s, 0, n, 0);
      pos = encodeUtf8(s, 0, n, buf, pos);
    }
    return pos - start;
  }

  /**
   * Writes {@code s} as a protobuf length-delimited value: the varint of its UTF-8 length, then its UTF-8 bytes,
   * in one pass over the chars (the length is filled in after the bytes, as {@link #fillVarint32(int, int)} does).
   * The same bytes as {@code writeVarint32(utf8Length(s))} followed by {@code writeUtf8(s)}.
   *
   * @param s the characters
   * @return the UTF-8 length in bytes (the length prefix not included)
   * @throws RecordTooLargeException if the buffer would have to grow past {@link #limit()}
   */
  public int writeUtf8LengthDelimited(CharSequence s) {
    int n = s.length();
    if (n <= SHORT_STRING) { // at most 3 * SHORT_STRING < 128 bytes: a one-byte length
      if (buf.length - pos < 1 + 3 * n) {
        ensureUtf8(s, 0, n, 1);
      }
      int start = pos + 1;
      int end = encodeUtf8(s, 0, n, buf, start);
      buf[start - 1] = (byte) (end - start);
      pos = end;
      return end - start;
    }
    int width = varintSize32(n); // the UTF-8 length is at least the number of chars
    int index = reserveVarint32(width);
    writeUtf8(s);
    return fillVarint32(index, width);
  }

  /**
   * Keeps {@code width} bytes for a varint length that {@link #fillVarint32(int, int)} writes once the bytes it
   * counts are written: how a length-delimited value of unknown size is written in one pass. The kept bytes are
   * undefined until filled.
   *
   * @param width the bytes expected for the varint, in [1, 5]: {@link #varintSize32(int)} of a good guess of the
   *     length (a wrong guess costs moving the value once, when it is filled)
   * @return the index of the kept bytes, to pass to {@link #fillVarint32(int, int)}
   * @throws IllegalArgumentException if {@code width} is not in [1, 5]
   * @throws RecordTooLargeException if the buffer would have to grow past {@link #limit()}
   */
  public int reserveVarint32(int width) {
    if (width < 1 || width > 5) {
      throw new IllegalArgumentException("width must be in [1, 5], was " + width);
    }
    ensure(width);
    int index = pos;
    pos += width;
    return index;
  }

  /**
   * Writes, at {@code index}, the length of what was written after the bytes kept there by
   * {@link #reserveVarint32(int) reserveVarint32(width)}, as the minimal varint {@link #writeVarint32(int)} writes.
   * When that varint takes other than {@code width} bytes, the bytes after it are moved to follow it. Lengths kept
   * later inside this one must have been filled first.
   *
   * @param index what {@link #reserveVarint32(int)} returned
   * @param width the width passed to it
   * @return the length: bytes written after the kept ones
   * @throws IndexOutOfBoundsException if {@code index} and {@code width} do not describe kept bytes of this buffer
   * @throws RecordTooLargeException if a longer varint takes the buffer past {@link #limit()}
   */
  public int fillVarint32(int index, int width) {
    int start = index + width;
    if (index < 0 || width < 1 || width > 5 || start > pos) {
      throw new IndexOutOfBoundsException("index " + index + ", width " + width + ", size " + pos);
    }
    int length = pos - start;
    if (varintSize32(length) != width) {
      moveForVarint(start, length, varintSize32(length) - width);
    }
    byte[] b = buf;
    int p = index;
    int value = length;
    while ((value & ~0x7F) != 0) {
      b[p++] = (byte) ((value & 0x7F) | 0x80);
      value >>>= 7;
    }
    b[p] = (byte) value;
    return length;
  }

  /** Moves the {@code length} bytes at {@code start} by {@code shift} (negative: back) for a varint before them. */
  private void moveForVarint(int start, int length, int shift) {
    if (shift > 0) {
      ensure(shift);
    }
    System.arraycopy(buf, start, buf, start + shift, length);
    pos += shift;
  }

  /**
   * Writes a string a slice at a time: its chars are copied into {@link #chars} ({@link String#getChars}, a bulk
   * copy) and encoded from there. A slice never ends between the two chars of a surrogate pair.
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
        roomForAll = ensureUtf8(s, i, len, 0);
      }
      pos = encodeUtf8(cs, len, buf, pos);
      i = end;
    }
  }

  /**
   * Makes room for {@code before} bytes and the UTF-8 of {@code s}'s chars from {@code from} on, {@code count} of
   * them next: for their worst case (3 bytes a char) when that is within the limit, else for the exact UTF-8 length
   * of all of the rest of {@code s}, which throws if it does not fit (so that a huge string is refused before a
   * buffer of its size exists).
   *
   * @return whether there is room for all of the rest of {@code s}
   */
  private boolean ensureUtf8(CharSequence s, int from, int count, int before) {
    long worst = (long) pos + before + 3L * count;
    if (worst <= buf.length) {
      return false;
    }
    if (worst <= limit) {
      grow(worst);
      return false;
    }
    long exact = (long) pos + before + utf8Length(s, from);
    if (exact > buf.length) {
      grow(exact);
    }
    return true;
  }

  /**
   * Encodes {@code cs[0, n)} at {@code b[p]}, which has room for it; returns the index after the last byte. A high
   * surrogate at {@code n - 1} is unpaired.
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

  /** {@link #encodeUtf8(char[], int, byte[], int)} for any {@link CharSequence}, from char {@code i}, char by char. */
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
    return i == n ? ~n : i + utf8Length(s, i); // the ASCII prefix is not scanned again
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
    return utf8Length(s, 0);
  }

  /** The UTF-8 length of {@code s}'s chars from {@code from} on ({@code from} not inside a surrogate pair). */
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
      } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
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
    // 7 bits a byte: 1 + (bits - 1) / 7 for the bits up to the highest set one (at least 1), without branches
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
