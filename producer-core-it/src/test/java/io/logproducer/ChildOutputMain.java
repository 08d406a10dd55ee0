package io.logproducer;

import io.logproducer.testsupport.ChildOutput;

/**
 * Child JVM for {@link ChildOutputTest}: with {@link ChildOutput#lineAtomic()}, one thread prints
 * {@code args[0]} WARN lines of about 300 characters to stderr while the main thread prints as many
 * {@code OUTCOME <n>} lines to stdout, as a producer's logging and a test child's callbacks do at
 * once.
 */
public final class ChildOutputMain {

  private ChildOutputMain() {}

  public static void main(String[] args) throws Exception {
    ChildOutput.lineAtomic();
    int n = Integer.parseInt(args[0]);
    String padding = new String(new char[280]).replace('\0', 'x');
    Thread warnings =
        new Thread(
            () -> {
              for (int i = 0; i < n; i++) {
                System.err.println("WARN " + i + " " + padding);
              }
            });
    warnings.start();
    for (int i = 0; i < n; i++) {
      System.out.println("OUTCOME " + i);
    }
    warnings.join();
    System.out.println("DONE");
  }
}
