package io.logproducer.internal.spool;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.ByteBuffer;
import java.util.zip.Checksum;

/**
 * A running CRC32C (Castagnoli, reflected polynomial 0x82F63B78; check value 0xE3069283 for the
 * ASCII bytes "123456789"). {@link #create()} uses {@code java.util.zip.CRC32C} (Java 9+, hardware
 * accelerated) through a {@link MethodHandle} when the running JVM has it, because the library
 * compiles with {@code --release 8}; otherwise a pure-Java table-driven fallback ({@link
 * #pureJava()}) gives the same values. One instance per computation; not thread-safe.
 */
abstract class Crc32c {

  /** The JDK's CRC32C constructor, or null on Java 8. */
  private static final MethodHandle JDK_CONSTRUCTOR = findJdkConstructor();

  /** The byte-at-a-time table of the reflected polynomial 0x82F63B78. */
  private static final int[] TABLE = buildTable();

  /** Adds {@code length} bytes of {@code bytes} from {@code offset}. */
  abstract void update(byte[] bytes, int offset, int length);

  /** Adds the remaining bytes of {@code buffer} without moving its position. */
  final void update(ByteBuffer buffer) {
    if (buffer.hasArray()) {
      update(buffer.array(), buffer.arrayOffset() + buffer.position(), buffer.remaining());
      return;
    }
    ByteBuffer copy = buffer.duplicate();
    byte[] chunk = new byte[Math.min(copy.remaining(), 8192)];
    while (copy.hasRemaining()) {
      int n = Math.min(chunk.length, copy.remaining());
      copy.get(chunk, 0, n);
      update(chunk, 0, n);
    }
  }

  /** {@return the CRC32C of every byte added so far, as the low 32 bits of an int} */
  abstract int value();

  /** {@return a new CRC32C: the JDK's when available, else the pure-Java one} */
  static Crc32c create() {
    if (JDK_CONSTRUCTOR != null) {
      try {
        return new JdkCrc((Checksum) JDK_CONSTRUCTOR.invoke());
      } catch (Throwable t) {
        return pureJava();
      }
    }
    return pureJava();
  }

  /** {@return a new pure-Java CRC32C (the Java 8 fallback)} */
  static Crc32c pureJava() {
    return new TableCrc();
  }

  /** {@return whether {@link #create()} uses the JDK's implementation} */
  static boolean jdkAvailable() {
    return JDK_CONSTRUCTOR != null;
  }

  /** {@return the CRC32C of {@code length} bytes of {@code bytes} from {@code offset}} */
  static int of(byte[] bytes, int offset, int length) {
    Crc32c crc = create();
    crc.update(bytes, offset, length);
    return crc.value();
  }

  /** {@return the constructor of {@code java.util.zip.CRC32C}, or null on Java 8} */
  private static MethodHandle findJdkConstructor() {
    try {
      Class<?> type = Class.forName("java.util.zip.CRC32C");
      return MethodHandles.publicLookup().findConstructor(type, MethodType.methodType(void.class));
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null;
    }
  }

  /** {@return the 256-entry table of the reflected polynomial} */
  private static int[] buildTable() {
    int[] table = new int[256];
    for (int i = 0; i < 256; i++) {
      int c = i;
      for (int k = 0; k < 8; k++) {
        c = (c & 1) != 0 ? (c >>> 1) ^ 0x82F63B78 : c >>> 1;
      }
      table[i] = c;
    }
    return table;
  }

  /** The JDK's {@code java.util.zip.CRC32C}, held as a {@link Checksum}. */
  private static final class JdkCrc extends Crc32c {
    private final Checksum checksum;

    /** Wraps the JDK {@code checksum}. */
    JdkCrc(Checksum checksum) {
      this.checksum = checksum;
    }

    @Override
    void update(byte[] bytes, int offset, int length) {
      checksum.update(bytes, offset, length);
    }

    @Override
    int value() {
      return (int) checksum.getValue();
    }
  }

  /** Byte-at-a-time table-driven CRC32C (about 400 MB/s; used only where the JDK has none). */
  private static final class TableCrc extends Crc32c {
    private int crc = 0xFFFFFFFF;

    @Override
    void update(byte[] bytes, int offset, int length) {
      int c = crc;
      for (int i = offset, end = offset + length; i < end; i++) {
        c = TABLE[(c ^ bytes[i]) & 0xFF] ^ (c >>> 8);
      }
      crc = c;
    }

    @Override
    int value() {
      return ~crc;
    }
  }
}
