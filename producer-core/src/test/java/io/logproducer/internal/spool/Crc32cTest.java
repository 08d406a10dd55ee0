package io.logproducer.internal.spool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

class Crc32cTest {

  @Test
  void checkValueOfBothImplementations() {
    byte[] check = "123456789".getBytes(StandardCharsets.US_ASCII);
    Crc32c jdk = Crc32c.create();
    jdk.update(check, 0, check.length);
    Crc32c pure = Crc32c.pureJava();
    pure.update(check, 0, check.length);
    assertEquals(0xE3069283, jdk.value());
    assertEquals(0xE3069283, pure.value());
  }

  @Test
  void jdkImplementationIsUsedOnThisJvm() {
    assertTrue(Crc32c.jdkAvailable(), "java.util.zip.CRC32C exists on Java 9+");
  }

  @Test
  void sameValuesOnRandomInputsInRandomPieces() {
    Random r = new Random(42);
    for (int round = 0; round < 500; round++) {
      byte[] b = new byte[r.nextInt(5000)];
      r.nextBytes(b);
      Crc32c jdk = Crc32c.create();
      Crc32c pure = Crc32c.pureJava();
      int pos = 0;
      while (pos < b.length) {
        int n = Math.min(b.length - pos, 1 + r.nextInt(700));
        jdk.update(b, pos, n);
        if (r.nextBoolean()) {
          pure.update(b, pos, n);
        } else {
          ByteBuffer direct = ByteBuffer.allocateDirect(n);
          direct.put(b, pos, n).flip();
          pure.update(direct);
          assertEquals(n, direct.remaining(), "position unchanged");
        }
        pos += n;
      }
      assertEquals(jdk.value(), pure.value(), "round " + round + ", " + b.length + " bytes");
    }
  }

  @Test
  void emptyInputIsZero() {
    assertEquals(0, Crc32c.create().value());
    assertEquals(0, Crc32c.pureJava().value());
  }
}
