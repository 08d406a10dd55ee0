package io.logproducer.spi;

import java.nio.charset.StandardCharsets;

/**
 * The default stored form of shard keys for {@link Exporter#spoolShardKey(Object)}: a tag byte
 * ({@code 'S'} for a {@link String}, UTF-8 after it; {@code 'I'} for an {@link Integer}, 4 bytes
 * big-endian after it). Stateless.
 */
final class SpoolShardKeys {

  private SpoolShardKeys() {}

  /** {@return the stored form of {@code key}, or null for a key of another type} */
  static byte[] encode(Object key) {
    if (key instanceof String) {
      byte[] utf8 = ((String) key).getBytes(StandardCharsets.UTF_8);
      byte[] out = new byte[utf8.length + 1];
      out[0] = 'S';
      System.arraycopy(utf8, 0, out, 1, utf8.length);
      return out;
    }
    if (key instanceof Integer) {
      int v = (Integer) key;
      return new byte[] {'I', (byte) (v >>> 24), (byte) (v >>> 16), (byte) (v >>> 8), (byte) v};
    }
    return null;
  }

  /**
   * {@return the key {@code stored} encodes}
   *
   * @throws IllegalArgumentException if it is not a stored String or Integer key
   */
  static Object decode(byte[] stored) {
    if (stored != null && stored.length >= 1 && stored[0] == 'S') {
      return new String(stored, 1, stored.length - 1, StandardCharsets.UTF_8);
    }
    if (stored != null && stored.length == 5 && stored[0] == 'I') {
      return ((stored[1] & 0xff) << 24)
          | ((stored[2] & 0xff) << 16)
          | ((stored[3] & 0xff) << 8)
          | (stored[4] & 0xff);
    }
    throw new IllegalArgumentException("not a stored String or Integer shard key");
  }
}
