package io.logproducer.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import org.junit.jupiter.api.Assumptions;

/**
 * What the virtual-thread pinning tests (producer-otlp {@code VirtualThreadPinningTest},
 * producer-logback and producer-log4j2 {@code VirtualThreadAppenderTest}) and their child JVMs
 * share: the test's launch options and verdict, and the child's exit protocol ({@code CARRIERS},
 * {@code PINNED total=N ours=M}, {@code RESULT ok} or {@code RESULT failed: why} and exit 1). What
 * the child does with its virtual threads stays in each module.
 */
public final class VirtualThreadChild {

  /**
   * The child JVM's options: 2 carriers ({@code -Djdk.virtualThreadScheduler.parallelism} only
   * counts before the JVM's first virtual thread, hence a child JVM) and a 1 GiB heap.
   */
  public static final String[] JVM_OPTIONS = {
    "-Djdk.virtualThreadScheduler.parallelism=2", "-Xmx1g"
  };

  /** The child's work: adds to {@code failures} what went wrong. */
  public interface Body {
    void run(int threads, List<String> failures) throws Exception;
  }

  private VirtualThreadChild() {}

  /** Skips the test before JDK 21 (no virtual threads). */
  public static void assumeVirtualThreads() {
    Assumptions.assumeTrue(
        PinnedEvents.available(),
        "needs JDK 21+ (virtual threads); this is Java " + Runtime.version());
  }

  /**
   * The test's verdict on the child's exit code and output: a pinned-event count with none in
   * {@code io.logproducer} frames, exit code 0 and {@code RESULT ok}.
   */
  public static void assertNoPinning(int exitCode, String output) {
    System.out.println(output);
    assertTrue(output.contains("PINNED total=") && output.contains(" ours=0 "), output);
    assertEquals(0, exitCode, output);
    assertTrue(output.contains("RESULT ok"), output);
  }

  /**
   * The child's {@code main}: runs {@code body} with the thread count of {@code args[0]} (else
   * {@code defaultThreads}), prints {@code RESULT ok} and exits 0, or prints {@code RESULT failed:
   * why} (a throwable's stack trace too) and exits 1.
   */
  public static void main(String[] args, int defaultThreads, Body body) {
    int threads = args.length > 0 ? Integer.parseInt(args[0]) : defaultThreads;
    List<String> failures = new ArrayList<>();
    try {
      body.run(threads, failures);
    } catch (Throwable t) {
      t.printStackTrace(System.out);
      failures.add(t.toString());
    }
    System.out.println(failures.isEmpty() ? "RESULT ok" : "RESULT failed: " + failures);
    System.exit(failures.isEmpty() ? 0 : 1);
  }

  /**
   * A virtual thread per task ({@link PinnedEvents#virtualThreads}), after checking that they run
   * on 2 carriers at most: prints {@code CARRIERS n [...]}, adds a failure if there were more.
   */
  public static ExecutorService virtualThreads(List<String> failures) throws Exception {
    ExecutorService virtual = PinnedEvents.virtualThreads();
    Set<String> carriers = PinnedEvents.carriers(virtual, 64);
    System.out.println("CARRIERS " + carriers.size() + " " + carriers);
    if (carriers.size() > 2) {
      failures.add("parallelism=2 did not take effect: carriers " + carriers);
    }
    return virtual;
  }

  /**
   * Stops the recording ({@code null}: it never started, a failure), prints its counts and adds a
   * failure if any pinned event had a frame of {@code io.logproducer}.
   */
  public static void checkPinned(PinnedEvents pinned, List<String> failures) throws Exception {
    if (pinned == null) {
      failures.add("no recording");
      return;
    }
    pinned.stop();
    pinned.print();
    if (pinned.oursCount != 0) {
      failures.add(pinned.oursCount + " pinned events in io.logproducer frames");
    }
  }

  /** Adds the first of {@code thrown} (its stack trace printed) as a failure of {@code who}. */
  public static void firstThrown(Iterable<Throwable> thrown, String who, List<String> failures) {
    for (Throwable e : thrown) {
      e.printStackTrace(System.out);
      failures.add(who + " threw " + e);
      return;
    }
  }
}
