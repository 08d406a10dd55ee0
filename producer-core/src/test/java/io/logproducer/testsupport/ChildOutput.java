package io.logproducer.testsupport;

import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;

/**
 * For a child JVM's main whose standard output and error share one pipe: {@link #lineAtomic()}
 * makes each {@code System.out.println(String)} one write of the whole line. On Java 11 {@code
 * println} writes the text and the line separator separately, and a line the child logs to stderr
 * in between splices into the line the test parses (seen: {@code "OUTCOME SPOOLED
 * 7131[spool-kill-child-sender-1] …"}).
 */
public final class ChildOutput {

  private ChildOutput() {}

  /** Replaces {@code System.out} with a stream whose {@code println(String)} is one write. */
  public static void lineAtomic() {
    System.setOut(
        new PrintStream(
            new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 1 << 16), true) {
          @Override
          public void println(String x) {
            synchronized (this) {
              print(x + "\n"); // one buffered write, flushed at the '\n' (autoflush)
            }
          }
        });
  }
}
