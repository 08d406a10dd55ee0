package io.logproducer.testing.gse;

import java.nio.charset.StandardCharsets;

/**
 * {@link GseAgent.Mode#COUNTING}'s cheap look at a body, without parsing its JSON: an object whose
 * {@code dataid} is the header's, and the number of its items read from the end of the document,
 * which (members in Go's sorted order) ends in {@code
 * ,"iterationindex":N}],"time":T,"utctime":"…"}}: N + 1 items. Stateless; thread-safe.
 */
final class ItemCounter {

  private static final byte[] ITEM = ",\"iterationindex\":".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] DATAID = "\"dataid\":".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] TIME = "],\"time\":".getBytes(StandardCharsets.US_ASCII);

  private ItemCounter() {}

  /**
   * Checks {@code b[0, n)} and counts its items.
   *
   * @return the number of items (at least 1), or -1 when the body is malformed ({@code problem[0]}
   *     then says how)
   */
  static long count(byte[] b, int n, int headerDataId, String[] problem) {
    if (n < 2 || b[0] != '{' || b[n - 1] != '}') {
      problem[0] = "body is not a JSON object";
      return -1;
    }
    int at = indexOf(b, 0, n, DATAID);
    if (at < 0 || parseLong(b, at + DATAID.length, n) != (headerDataId & 0xFFFFFFFFL)) {
      problem[0] = "header dataid " + (headerDataId & 0xFFFFFFFFL) + " does not match the body's";
      return -1;
    }
    int tail = lastIndexOf(b, Math.max(0, n - 128), n, TIME);
    long items = -1;
    if (tail >= 2 && b[tail - 1] == '}') {
      int digitsEnd = tail - 1;
      int p = digitsEnd;
      while (p > 0 && b[p - 1] >= '0' && b[p - 1] <= '9') {
        p--;
      }
      if (p != digitsEnd
          && p >= ITEM.length
          && indexOf(b, p - ITEM.length, p, ITEM) == p - ITEM.length) {
        items = parseLong(b, p, digitsEnd) + 1;
      }
    }
    if (items <= 0) {
      problem[0] = "no items, or items that do not end in ,\"iterationindex\":N}],\"time\":…";
      return -1;
    }
    return items;
  }

  private static int lastIndexOf(byte[] b, int from, int to, byte[] pattern) {
    for (int i = to - pattern.length; i >= from; i--) {
      if (indexOf(b, i, i + pattern.length, pattern) == i) {
        return i;
      }
    }
    return -1;
  }

  private static int indexOf(byte[] b, int from, int to, byte[] pattern) {
    int last = to - pattern.length;
    outer:
    for (int i = from; i <= last; i++) {
      for (int k = 0; k < pattern.length; k++) {
        if (b[i + k] != pattern[k]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }

  private static long parseLong(byte[] b, int p, int end) {
    long v = 0;
    int start = p;
    while (p < end && b[p] >= '0' && b[p] <= '9') {
      v = v * 10 + (b[p++] - '0');
    }
    return p == start ? -1 : v;
  }
}
