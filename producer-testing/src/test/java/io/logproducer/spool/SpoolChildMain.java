package io.logproducer.spool;

import io.logproducer.internal.spool.AppendResult;
import io.logproducer.internal.spool.Spool;
import io.logproducer.internal.spool.SpoolConfig;
import io.logproducer.internal.spool.SpoolDurability;
import io.logproducer.internal.spool.SpoolLockedException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Random;

/**
 * The child JVM of the spool's process tests. {@code hold <dir>}: opens the spool, prints {@code
 * OPEN <pid>} and waits to be killed. {@code append <dir>}: opens it with durability NONE, prints
 * {@code OPEN}, then appends as fast as it can, printing {@code SEQ <sequence>} after each append
 * returns STORED. {@code try <dir>}: tries to open it and prints {@code OPENED} or {@code LOCKED
 * <message>}.
 */
public final class SpoolChildMain {

  /** Segment size of the process tests, bytes. */
  static final long SEGMENT = 256 << 10;

  private SpoolChildMain() {}

  /** {@return the config both the child and the test open the directory with} */
  static SpoolConfig config(Path dir) {
    return SpoolConfig.builder(dir, "child-test")
        .segmentBytes(SEGMENT)
        .maxBytes(1L << 30)
        .durability(SpoolDurability.NONE, 200)
        .minFreeDiskShare(0)
        .build();
  }

  /** {@return the payload of entry {@code sequence}: 0 to 6 KiB, derived from it} */
  static byte[] payload(long sequence) {
    byte[] b = new byte[(int) ((sequence * 7919) % 6000)];
    new Random(sequence).nextBytes(b);
    return b;
  }

  /** Runs the mode in {@code args[0]} on the directory {@code args[1]}. */
  public static void main(String[] args) throws Exception {
    Path dir = Paths.get(args[1]);
    if (args[0].equals("try")) {
      try (Spool spool = Spool.open(config(dir))) {
        System.out.println("OPENED");
      } catch (SpoolLockedException e) {
        System.out.println("LOCKED " + e.getMessage());
      }
      return;
    }
    Spool spool = Spool.open(config(dir));
    System.out.println("OPEN " + ProcessHandle.current().pid());
    System.out.flush();
    if (args[0].equals("hold")) {
      Thread.currentThread().join();
    }
    StringBuilder line = new StringBuilder();
    while (true) {
      long seq = spool.nextSequence();
      AppendResult r = spool.append(seq, 1, null, ByteBuffer.wrap(payload(seq)));
      if (!r.stored() || r.sequence() != seq) {
        System.out.println("ERROR " + r);
        System.exit(3);
      }
      line.setLength(0);
      System.out.println(line.append("SEQ ").append(seq));
    }
  }
}
