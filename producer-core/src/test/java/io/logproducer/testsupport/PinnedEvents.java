package io.logproducer.testsupport;

import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;

/**
 * A JFR recording of {@code jdk.VirtualThreadPinned} (threshold 0, with stack traces), and the JDK
 * 21 virtual-thread API by reflection (tests compile for Java 11). Used by the child JVMs of the
 * virtual-thread pinning tests (producer-otlp, producer-logback, producer-log4j2), with {@link
 * VirtualThreadChild}.
 */
public final class PinnedEvents {

  private final Recording recording = new Recording();

  /**
   * Pinned events seen ({@code jdk.VirtualThreadPinned}, and {@code jdk.JavaMonitorWait} on a
   * virtual thread), after {@link #stop}; {@link #ours}: those with a frame of {@code
   * io.logproducer}.
   */
  public long total;

  public long monitorWaits;

  /** Events with a frame of {@code io.logproducer}; {@link #ours}: the first 20 stacks. */
  public long oursCount;

  public final List<String> ours = new ArrayList<>();

  private PinnedEvents() {}

  public static PinnedEvents start() {
    PinnedEvents p = new PinnedEvents();
    p.recording.enable("jdk.VirtualThreadPinned").withThreshold(Duration.ZERO).withStackTrace();
    // Object.wait on a virtual thread pins its carrier on Java 21 without a VirtualThreadPinned
    // event (the scheduler adds a carrier instead): found as a monitor wait on a virtual thread.
    p.recording.enable("jdk.JavaMonitorWait").withThreshold(Duration.ZERO).withStackTrace();
    p.recording.setToDisk(true);
    p.recording.start();
    return p;
  }

  /** Stops the recording and counts its pinned events; {@link #ours} lists the offending stacks. */
  public void stop() throws IOException {
    recording.stop();
    Path file = Files.createTempFile("pinned", ".jfr");
    try {
      recording.dump(file);
      recording.close();
      try (RecordingFile events = new RecordingFile(file)) { // streamed: monitor waits are many
        while (events.hasMoreEvents()) {
          count(events.readEvent());
        }
      }
    } finally {
      Files.deleteIfExists(file);
    }
  }

  private void count(RecordedEvent e) {
    String name = e.getEventType().getName();
    if ("jdk.JavaMonitorWait".equals(name)) {
      if (!isVirtual(e.getThread())) {
        return;
      }
      monitorWaits++;
    } else if (!"jdk.VirtualThreadPinned".equals(name)) {
      return;
    }
    total++;
    RecordedStackTrace stack = e.getStackTrace();
    if (stack == null) {
      return;
    }
    boolean mine = false;
    StringBuilder text = new StringBuilder(name).append(' ').append(e.getDuration()).append('\n');
    for (RecordedFrame f : stack.getFrames()) {
      String type = f.getMethod().getType().getName();
      mine |= ours(type);
      text.append("    at ")
          .append(type)
          .append('.')
          .append(f.getMethod().getName())
          .append(" line ")
          .append(f.getLineNumber())
          .append('\n');
    }
    if (mine) {
      oursCount++;
      if (ours.size() < 20) {
        ours.add(text.toString());
      }
    }
  }

  /** {@code RecordedThread.isVirtual()} (Java 21), by reflection. */
  private static boolean isVirtual(jdk.jfr.consumer.RecordedThread t) {
    if (t == null) {
      return false;
    }
    try {
      return (Boolean) t.getClass().getMethod("isVirtual").invoke(t);
    } catch (ReflectiveOperationException e) {
      return false;
    }
  }

  /** Prints the counts as {@code PINNED total=N ours=M} and the first offending stacks. */
  public void print() {
    System.out.println(
        "PINNED total="
            + total
            + " ours="
            + oursCount
            + " (of which monitor waits on virtual threads: "
            + monitorWaits
            + ")");
    for (int i = 0; i < Math.min(5, ours.size()); i++) {
      System.out.println(ours.get(i));
    }
  }

  /** {@code Executors.newVirtualThreadPerTaskExecutor()}, by reflection (Java 21+). */
  public static ExecutorService virtualThreads() throws ReflectiveOperationException {
    Method m = Executors.class.getMethod("newVirtualThreadPerTaskExecutor");
    return (ExecutorService) m.invoke(null);
  }

  /**
   * The carrier threads virtual threads ran on, from their {@code toString()} ({@code
   * VirtualThread[#22]/runnable@ForkJoinPool-1-worker-1}): shows the scheduler's parallelism took
   * effect.
   */
  public static Set<String> carriers(ExecutorService virtualThreads, int tasks) throws Exception {
    Set<String> carriers = java.util.Collections.synchronizedSet(new LinkedHashSet<String>());
    List<Future<?>> futures = new ArrayList<>();
    for (int i = 0; i < tasks; i++) {
      futures.add(
          virtualThreads.submit(
              () -> {
                long spin = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(2);
                while (System.nanoTime() < spin) {
                  String s = Thread.currentThread().toString();
                  int at = s.indexOf('@');
                  if (at >= 0) {
                    carriers.add(s.substring(at + 1));
                  }
                  Thread.yield();
                }
              }));
    }
    for (Future<?> f : futures) {
      f.get(60, TimeUnit.SECONDS);
    }
    return carriers;
  }

  /** Whether this JVM has virtual threads (Java 21+). */
  public static boolean available() {
    return Runtime.version().feature() >= 21;
  }

  /**
   * Every thread's stack, virtual threads included ({@code HotSpotDiagnosticMXBean.dumpThreads},
   * Java 21, by reflection), identical stacks grouped with their count.
   */
  public static String threadDump() {
    try {
      Path file = Files.createTempFile("threads", ".txt");
      Files.delete(file);
      Class<?> bean = Class.forName("com.sun.management.HotSpotDiagnosticMXBean");
      Object mx = java.lang.management.ManagementFactory.getPlatformMXBean((Class) bean);
      Class<?> format =
          Class.forName("com.sun.management.HotSpotDiagnosticMXBean$ThreadDumpFormat");
      Object text = format.getField("TEXT_PLAIN").get(null);
      bean.getMethod("dumpThreads", String.class, format).invoke(mx, file.toString(), text);
      java.util.Map<String, Integer> stacks = new java.util.LinkedHashMap<>();
      StringBuilder one = new StringBuilder();
      for (String line : Files.readAllLines(file)) {
        if (line.startsWith("#")) {
          if (one.length() > 0) {
            stacks.merge(one.toString(), 1, Integer::sum);
          }
          one.setLength(0);
          one.append(line.replaceAll("^#\\d+ ", "").replaceAll("[0-9]+", "N")).append('\n');
        } else if (!line.trim().isEmpty()) {
          one.append(line).append('\n');
        }
      }
      stacks.merge(one.toString(), 1, Integer::sum);
      Files.deleteIfExists(file);
      StringBuilder out = new StringBuilder();
      for (java.util.Map.Entry<String, Integer> e : stacks.entrySet()) {
        out.append(e.getValue()).append(" x ").append(e.getKey());
      }
      return out.toString();
    } catch (Exception e) {
      return "(no thread dump: " + e + ")";
    }
  }

  /** A bounded wait that fails only when nothing moves for {@code noProgressMillis}. */
  public interface Progress {
    long value();
  }

  public interface Condition {
    boolean met() throws Exception;
  }

  /**
   * Waits until {@code done}, failing (with {@code what} and a thread dump) only if {@code
   * progress} does not change for {@code noProgressMillis}: a deadlock is caught without guessing
   * how long a slow machine needs.
   */
  public static void await(String what, Condition done, Progress progress, long noProgressMillis)
      throws Exception {
    long last = progress.value();
    long since = System.nanoTime();
    while (!done.met()) {
      Thread.sleep(20);
      long now = progress.value();
      if (now != last) {
        last = now;
        since = System.nanoTime();
      } else if (System.nanoTime() - since > TimeUnit.MILLISECONDS.toNanos(noProgressMillis)) {
        String dump = threadDump();
        throw new AssertionError(
            "no progress for "
                + noProgressMillis
                + " ms waiting for "
                + what
                + " (progress "
                + last
                + ")\n"
                + dump);
      }
    }
  }

  /**
   * Whether a frame of {@code type} makes an event ours: the project's code, not the tests' own
   * child mains and helpers (a pin inside a logging framework called from a test's lambda is the
   * framework's).
   */
  static boolean ours(String type) {
    if (!type.startsWith("io.logproducer.") || type.startsWith("io.logproducer.testsupport.")) {
      return false;
    }
    int nested = type.indexOf('$');
    String outer = nested < 0 ? type : type.substring(0, nested);
    return !outer.endsWith("Main") && !outer.endsWith("Child");
  }
}
