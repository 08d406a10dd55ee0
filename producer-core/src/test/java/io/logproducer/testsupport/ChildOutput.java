package io.logproducer.testsupport;

import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;

/**
 * For a child JVM's main whose standard output and error share one pipe: {@link #lineAtomic()}
 * makes each line printed to {@code System.out} or {@code System.err} one write of the whole line.
 * On Java 11 {@code println} writes the text and the line separator separately, so a line of one
 * stream could splice into a line of the other that the test parses. Both ways were seen: a stderr
 * line inside a stdout line ({@code "OUTCOME SPOOLED 7131[spool-kill-child-sender-1] …"}), and a
 * stdout line written between a stderr line's text and its line separator, which glued {@code
 * "OUTCOME …"} to the end of a WARN line: the test counted one outcome fewer and waited for it
 * until its timeout (SpoolLiveKillTest on JDK 11).
 */
public final class ChildOutput {

  private ChildOutput() {}

  /** Replaces {@code System.out} and {@code System.err} with streams that write whole lines. */
  public static void lineAtomic() {
    System.setOut(lineAtomic(FileDescriptor.out));
    System.setErr(lineAtomic(FileDescriptor.err));
  }

  private static PrintStream lineAtomic(FileDescriptor fd) {
    return new PrintStream(new BufferedOutputStream(new FileOutputStream(fd), 1 << 16), true) {
      @Override
      public void println(String x) {
        synchronized (this) {
          print(x + "\n"); // one buffered write, flushed at the '\n' (autoflush)
        }
      }

      @Override
      public void println(Object x) { // a stack trace's lines, on Java 11
        println(String.valueOf(x));
      }
    };
  }
}
