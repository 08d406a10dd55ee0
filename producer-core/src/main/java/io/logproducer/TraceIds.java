package io.logproducer;

/**
 * Trace and span ids for {@link LogRecord.Builder}: a copy of given bytes, or the bytes of ASCII
 * hex digits, checked for their length; stateless and thread-safe. Errors are {@link
 * IllegalArgumentException}s naming the field.
 */
final class TraceIds {

  private TraceIds() {}

  /**
   * {@return a copy of {@code id}, or null when it is null or empty}
   *
   * @throws IllegalArgumentException if its length is not {@code length}
   */
  static byte[] copy(String field, byte[] id, int length) {
    if (id == null || id.length == 0) {
      return null;
    }
    if (id.length != length) {
      throw new IllegalArgumentException(field + " must be " + length + " bytes, was " + id.length);
    }
    return id.clone();
  }

  /**
   * {@return the bytes of {@code hex}, two digits a byte, or null when it is null or empty}
   *
   * @throws IllegalArgumentException if it is not {@code 2 * length} chars long or a char is not an
   *     ASCII hex digit (the message names the char and its index)
   */
  static byte[] fromHex(String field, String hex, int length) {
    if (hex == null || hex.isEmpty()) {
      return null;
    }
    if (hex.length() != length * 2) {
      throw new IllegalArgumentException(
          field + " must be " + (length * 2) + " hex digits, was " + hex.length() + " characters");
    }
    byte[] out = new byte[length];
    for (int i = 0; i < length; i++) {
      out[i] = (byte) (hexDigit(field, hex, 2 * i) << 4 | hexDigit(field, hex, 2 * i + 1));
    }
    return out;
  }

  /**
   * The value of the ASCII hex digit at {@code index}; unlike {@link Character#digit}, no other
   * Unicode digit.
   */
  private static int hexDigit(String field, String hex, int index) {
    char c = hex.charAt(index);
    if (c >= '0' && c <= '9') {
      return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
      return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F') {
      return c - 'A' + 10;
    }
    int cp = hex.codePointAt(index);
    throw new IllegalArgumentException(
        field
            + " must be ASCII hex digits [0-9a-fA-F], was '"
            + hex
            + "': '"
            + new String(Character.toChars(cp))
            + "' (U+"
            + String.format("%04X", cp)
            + ") at index "
            + index);
  }
}
