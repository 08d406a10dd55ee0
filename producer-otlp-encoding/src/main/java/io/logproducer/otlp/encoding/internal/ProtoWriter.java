package io.logproducer.otlp.encoding.internal;

import io.logproducer.RecordTooLargeException;
import io.logproducer.spi.EncodeBuffer;

/**
 * The protobuf-specific writers of the one-pass OTLP encoder, as static methods over an {@link
 * EncodeBuffer}: they write into its {@link EncodeBuffer#array() backing array} from {@link
 * EncodeBuffer#size()} on, after making room with {@link EncodeBuffer#ensure(int)}, and commit what
 * they wrote with {@link EncodeBuffer#setSize(int)}. Kept here, not in the public buffer, so that a
 * faster trick is an internal change.
 *
 * <ul>
 *   <li>Raw writers ({@link #putVarint32}, {@link #putFixed32}, {@link #putFixed64}, {@link
 *       #putUtf8}) into room the caller made: a run of small fields is written with room checked
 *       once, then committed once.
 *   <li>Length-delimited values in one pass: {@link #reserveVarint32} keeps room for the length,
 *       the value is written, and {@link #fillVarint32} writes the length, moving the value if the
 *       length's varint needs another number of bytes than were kept, so the output is the minimal
 *       varint protobuf writes. {@link #writeUtf8LengthDelimited} does this for a string.
 *   <li>The sign-bit ASCII flag: {@link #utf8LengthMarked} returns {@code ~length} for an all-ASCII
 *       string, which {@link #writeUtf8Marked} copies in bulk (the encoder's earlier two-pass
 *       string path, kept for {@code Utf8Benchmark}).
 * </ul>
 *
 * <p>Strings are encoded as {@link EncodeBuffer#writeUtf8(CharSequence)} encodes them (an unpaired
 * surrogate becomes {@code '?'}), byte for byte. Every writer that grows the buffer throws {@link
 * RecordTooLargeException} past its {@link EncodeBuffer#limit()}, before allocating. Stateless;
 * each buffer is confined to one thread.
 */
public final class ProtoWriter {

  /**
   * Strings of at most this many chars are written by {@link #writeUtf8LengthDelimited} with room
   * checked once for their worst case: at most 3 UTF-8 bytes a char, {@code 3 * 42 = 126} bytes, a
   * one-byte length.
   */
  private static final int SHORT_STRING = 42;

  private ProtoWriter() {}

  /**
   * Puts {@code value} as an unsigned protobuf varint (1–5 bytes) into {@code dst} at {@code off}.
   *
   * @param dst the array, usually {@link EncodeBuffer#array()}
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
   * Puts 4 bytes, little-endian (protobuf {@code fixed32}), into {@code dst} at {@code off}.
   *
   * @param dst the array, usually {@link EncodeBuffer#array()}
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
   * Puts 8 bytes, little-endian (protobuf {@code fixed64}, {@code double} bits), into {@code dst}
   * at {@code off}.
   *
   * @param dst the array, usually {@link EncodeBuffer#array()}
   * @param off the index of the first byte
   * @param value the value
   * @return {@code off + 8}
   * @throws ArrayIndexOutOfBoundsException if {@code dst} has no room for the bytes
   */
  public static int putFixed64(byte[] dst, int off, long value) {
    return putFixed32(dst, putFixed32(dst, off, (int) value), (int) (value >>> 32));
  }

  /**
   * Writes 4 bytes, little-endian (protobuf {@code fixed32}, {@code sfixed32}, {@code float} bits).
   *
   * @param out the buffer
   * @param value the value
   * @throws RecordTooLargeException if the buffer would have to grow past its limit
   */
  public static void writeFixed32(EncodeBuffer out, int value) {
    out.ensure(4);
    out.setSize(putFixed32(out.array(), out.size(), value));
  }

  /**
   * Writes 8 bytes, little-endian (protobuf {@code fixed64}, {@code sfixed64}, {@code double}
   * bits).
   *
   * @param out the buffer
   * @param value the value
   * @throws RecordTooLargeException if the buffer would have to grow past its limit
   */
  public static void writeFixed64(EncodeBuffer out, long value) {
    out.ensure(8);
    out.setSize(putFixed64(out.array(), out.size(), value));
  }

  /**
   * Encodes {@code s} as UTF-8 into {@code dst} from index {@code off}, the same bytes {@link
   * EncodeBuffer#writeUtf8(CharSequence)} writes, reading it with {@code charAt}: meant for short
   * strings (a few dozen chars), into room the caller made for the worst case of 3 bytes a char.
   *
   * @param s the characters
   * @param dst the array, usually {@link EncodeBuffer#array()}
   * @param off the index of the first byte
   * @return the index after the last byte written
   * @throws ArrayIndexOutOfBoundsException if {@code dst} has no room for the bytes (some may have
   *     been written)
   */
  public static int putUtf8(CharSequence s, byte[] dst, int off) {
    int n = s.length();
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      if (c >= 0x80) {
        return putUtf8From(s, i, n, dst, off + i);
      }
      dst[off + i] = (byte) c;
    }
    return off + n;
  }

  /**
   * {@link #putUtf8} from char {@code i} on, at {@code dst[p]}: out of line, so that the ASCII loop
   * stays small.
   */
  private static int putUtf8From(CharSequence s, int i, int n, byte[] dst, int p) {
    while (i < n) {
      char c = s.charAt(i++);
      if (c < 0x80) {
        dst[p++] = (byte) c;
      } else if (c < 0x800) {
        dst[p++] = (byte) (0xC0 | (c >> 6));
        dst[p++] = (byte) (0x80 | (c & 0x3F));
      } else if (!Character.isSurrogate(c)) {
        dst[p++] = (byte) (0xE0 | (c >> 12));
        dst[p++] = (byte) (0x80 | ((c >> 6) & 0x3F));
        dst[p++] = (byte) (0x80 | (c & 0x3F));
      } else if (Character.isHighSurrogate(c) && i < n && Character.isLowSurrogate(s.charAt(i))) {
        int cp = Character.toCodePoint(c, s.charAt(i++));
        dst[p] = (byte) (0xF0 | (cp >> 18));
        dst[p + 1] = (byte) (0x80 | ((cp >> 12) & 0x3F));
        dst[p + 2] = (byte) (0x80 | ((cp >> 6) & 0x3F));
        dst[p + 3] = (byte) (0x80 | (cp & 0x3F));
        p += 4;
      } else {
        dst[p++] = '?';
      }
    }
    return p;
  }

  /**
   * Writes {@code s} as a protobuf length-delimited value: the varint of its UTF-8 length, then its
   * UTF-8 bytes, in one pass over the chars (the length is filled in after the bytes, as {@link
   * #fillVarint32} does). The same bytes as {@code out.writeVarint32(EncodeBuffer.utf8Length(s))}
   * followed by {@code out.writeUtf8(s)}.
   *
   * @param out the buffer
   * @param s the characters
   * @return the UTF-8 length in bytes (the length prefix not included)
   * @throws RecordTooLargeException if the buffer would have to grow past its limit (a huge string
   *     is refused before a buffer of its size exists)
   */
  public static int writeUtf8LengthDelimited(EncodeBuffer out, CharSequence s) {
    int n = s.length();
    if (n <= SHORT_STRING
        && out.capacity() - out.size() >= 1 + 3 * n) { // room for the worst case: the common path
      return putShortLengthDelimited(out, s);
    }
    return writeUtf8LengthDelimitedGrowing(out, s, n);
  }

  /**
   * A string of at most {@link #SHORT_STRING} chars, with room for its worst case: a one-byte
   * length, then UTF-8.
   */
  private static int putShortLengthDelimited(EncodeBuffer out, CharSequence s) {
    byte[] b = out.array();
    int size = out.size();
    int end = putUtf8(s, b, size + 1);
    int length = end - size - 1;
    b[size] = (byte) length;
    out.setSize(end);
    return length;
  }

  /**
   * {@link #writeUtf8LengthDelimited} when the buffer may have to grow: for a short string whose
   * worst case is within the limit, room for it; else the length is kept and filled in after the
   * bytes are written, which grows the buffer for the exact UTF-8 length at most (and throws if
   * that is past the limit).
   */
  private static int writeUtf8LengthDelimitedGrowing(EncodeBuffer out, CharSequence s, int n) {
    if (n <= SHORT_STRING && (long) out.size() + 1 + 3 * n <= out.limit()) {
      out.ensure(1 + 3 * n);
      return putShortLengthDelimited(out, s);
    }
    int width = EncodeBuffer.varintSize32(n); // the UTF-8 length is at least the number of chars
    int index = reserveVarint32(out, width);
    out.writeUtf8(s);
    return fillVarint32(out, index, width);
  }

  /**
   * Keeps {@code width} bytes for a varint length that {@link #fillVarint32} writes once the bytes
   * it counts are written: how a length-delimited value of unknown size is written in one pass. The
   * kept bytes are undefined until filled.
   *
   * @param out the buffer
   * @param width the bytes expected for the varint, in [1, 5]: {@link
   *     EncodeBuffer#varintSize32(int)} of a good guess of the length (a wrong guess costs moving
   *     the value once, when it is filled)
   * @return the index of the kept bytes, to pass to {@link #fillVarint32}
   * @throws IllegalArgumentException if {@code width} is not in [1, 5]
   * @throws RecordTooLargeException if the buffer would have to grow past its limit
   */
  public static int reserveVarint32(EncodeBuffer out, int width) {
    if (width < 1 || width > 5) {
      throw badWidth(width);
    }
    out.ensure(width);
    int index = out.size();
    out.setSize(index + width);
    return index;
  }

  /**
   * Writes, at {@code index}, the length of what was written after the bytes kept there by {@link
   * #reserveVarint32 reserveVarint32(out, width)}, as the minimal varint {@link
   * EncodeBuffer#writeVarint32(int)} writes. When that varint takes other than {@code width} bytes,
   * the bytes after it are moved to follow it. Lengths kept later inside this one must have been
   * filled first.
   *
   * @param out the buffer
   * @param index what {@link #reserveVarint32} returned
   * @param width the width passed to it
   * @return the length: bytes written after the kept ones
   * @throws IndexOutOfBoundsException if {@code index} and {@code width} do not describe kept bytes
   *     of {@code out}
   * @throws RecordTooLargeException if a longer varint takes the buffer past its limit
   */
  public static int fillVarint32(EncodeBuffer out, int index, int width) {
    int size = out.size();
    int start = index + width;
    if (index < 0 || width < 1 || width > 5 || start > size) {
      throw notKept(index, width, size);
    }
    int length = size - start;
    int shift = EncodeBuffer.varintSize32(length) - width;
    if (shift != 0) {
      move(out, start, length, shift);
    }
    putVarint32(out.array(), index, length);
    return length;
  }

  /**
   * Moves the {@code length} bytes at {@code start} by {@code shift} (negative: back) for a varint
   * before them.
   */
  private static void move(EncodeBuffer out, int start, int length, int shift) {
    if (shift > 0) {
      out.ensure(shift);
    }
    byte[] b = out.array();
    System.arraycopy(b, start, b, start + shift, length);
    out.setSize(start + length + shift);
  }

  // Exceptions are made out of line, so that the writers stay small enough for the JIT to inline.

  private static IllegalArgumentException badWidth(int width) {
    return new IllegalArgumentException("width must be in [1, 5], was " + width);
  }

  private static IndexOutOfBoundsException notKept(int index, int width, int size) {
    return new IndexOutOfBoundsException("index " + index + ", width " + width + ", size " + size);
  }

  /**
   * The UTF-8 length of {@code s} as {@link EncodeBuffer#utf8Length(CharSequence)} computes it,
   * marked: {@code ~length} (negative) when every char is ASCII, {@code length} otherwise. Costs
   * the same single scan; pass the result to {@link #writeUtf8Marked} and recover the length with
   * {@link #markedLength(int)}. (A UTF-8 length equal to the char count does not prove ASCII: an
   * unpaired surrogate is one char and one {@code '?'} byte.)
   *
   * @param s the characters
   * @return {@code ~length} if {@code s} is all ASCII, else {@code length}
   */
  public static int utf8LengthMarked(CharSequence s) {
    int n = s.length();
    for (int i = 0; i < n; i++) {
      if (s.charAt(i) >= 0x80) {
        return EncodeBuffer.utf8Length(s);
      }
    }
    return ~n;
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
   * Writes the UTF-8 bytes of {@code s}, given the value {@link #utf8LengthMarked(CharSequence)}
   * returned for it: a pure-ASCII string is copied in bulk, any other is encoded as {@link
   * EncodeBuffer#writeUtf8(CharSequence)} does.
   *
   * @param out the buffer
   * @param s the string
   * @param marked {@link #utf8LengthMarked(CharSequence) utf8LengthMarked(s)}
   * @return the number of bytes written
   * @throws RecordTooLargeException if the buffer would have to grow past its limit
   */
  @SuppressWarnings(
      "deprecation") // getBytes(int, int, byte[], int) copies the low 8 bits: exact for ASCII
  public static int writeUtf8Marked(EncodeBuffer out, String s, int marked) {
    if (marked >= 0) {
      return out.writeUtf8(s);
    }
    int n = s.length();
    out.ensure(n);
    int size = out.size();
    s.getBytes(0, n, out.array(), size);
    out.setSize(size + n);
    return n;
  }
}
