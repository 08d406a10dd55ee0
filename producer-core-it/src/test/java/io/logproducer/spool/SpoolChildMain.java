package io.logproducer.spool;

import io.logproducer.SpoolConfig;
import io.logproducer.SpoolDurability;
import io.logproducer.SpoolLockedException;
import io.logproducer.internal.spool.AppendResult;
import io.logproducer.internal.spool.Spool;
import io.logproducer.internal.spool.SpoolEvents;
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

  /**
   * {@return the spool of {@code dir} as both the child and the test open it (no maxAge: entries
   * are created at small epoch millis)}
   */
  static Spool open(Path dir) {
    SpoolConfig config =
        SpoolConfig.builder(dir)
            .setSegmentBytes(SEGMENT)
            .setMaxBytes(1L << 30)
            .setDurability(SpoolDurability.NONE)
            .setMinFreeDiskShare(0)
            .setMaxAgeMillis(Long.MAX_VALUE)
            .build();
    return Spool.open(config, "child-test", SpoolEvents.NONE);
  }

  /** {@return the payload of entry {@code sequence}: 0 to 6 KiB, derived from it} */
  static byte[] payload(long sequence) {
    byte[] b = new byte[(int) ((sequence * 7919) % 6000)];
    new Random(sequence).nextBytes(b);
    return b;
  }

  /** Runs the mode in {@code args[0]} on the directory {@code args[1]}. */
  public static void main(String[] args) throws Exception {
    io.logproducer.testsupport.ChildOutput.lineAtomic();
    Path dir = Paths.get(args[1]);
    if (args[0].equals("try")) {
      try (Spool spool = open(dir)) {
        System.out.println("OPENED");
      } catch (SpoolLockedException e) {
        System.out.println("LOCKED " + e.getMessage());
      }
      return;
    }
    Spool spool = open(dir);
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
