package io.logproducer.benchmark.harness;

import io.logproducer.benchmark.report.ProfileSummary;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

/**
 * Where the producer JVM spends its CPU and what it allocates, from a JFR recording ({@code
 * profile} settings) of a run's measured phase: execution samples by top frame (self time) and by
 * component (inclusive), by thread, and allocation samples by class and allocation site; and where
 * threads wait (monitor enter, park).
 *
 * <p>JFR's execution sampler sees Java frames only: time inside JNI code (lz4-java's and zstd-jni's
 * native compressors, socket writes) appears as {@code jdk.NativeMethodSample}s, reported
 * separately.
 *
 * @param executionSamples the recording's execution samples
 * @param topFrames self time: top frames of execution samples
 * @param components inclusive time of the {@link #COMPONENTS}
 * @param threads execution samples by thread group
 * @param nativeSamples native method samples in busy frames
 * @param nativeTopFrames busy native frames (JNI codecs, socket writes)
 * @param allocationWeight sum of allocation sample weights: JFR's estimate of bytes allocated in
 *     the recording
 * @param allocationByClass allocation weight by class
 * @param allocationBySite allocation weight by site ({@link #site})
 * @param waits time threads spent blocked on monitors or parked (JFR's 10/20 ms thresholds apply),
 *     by thread and site, in ns
 */
public record JfrProfile(
    int executionSamples,
    List<Share> topFrames,
    List<Share> components,
    List<Share> threads,
    int nativeSamples,
    List<Share> nativeTopFrames,
    double allocationWeight,
    List<Share> allocationByClass,
    List<Share> allocationBySite,
    List<Share> waits) {

  /** A named share: {@code value} (samples, bytes or ns) and its percentage of the total. */
  public record Share(String name, double value, double percent) {}

  /**
   * Components measured inclusively: a sample counts if any of its frames matches one of the
   * patterns (a trailing * matches a prefix); one a line, {@code name | pattern | pattern}.
   */
  static final List<String[]> COMPONENTS =
      """
      workload generation (Workload.next) | io.logproducer.testing.ReferenceWorkload.next
      Producer.send, all of it (ProducerEngine.send) | io.logproducer.internal.ProducerEngine.send
        OTLP encode (ProtobufRecordEncoder.encode) | \
      io.logproducer.otlp.encoding.internal.ProtobufRecordEncoder.encode
        budget (MemoryBudget.*) | io.logproducer.internal.MemoryBudget.*
        append to batch (Accumulator.append) | io.logproducer.internal.Accumulator.append
      send thread, all of it (Sender.process) | io.logproducer.internal.Sender.process
        compression (codec streams, Java side) | \
      net.jpountz.* | com.github.luben.* | java.util.zip.*
        request framing (OtlpHttpExporter.writeRequest) | \
      io.logproducer.otlp.OtlpHttpExporter.writeRequest
        HTTP export (OtlpHttpExporter.export) | io.logproducer.otlp.OtlpHttpExporter.export
        completion (BatchCompleter.complete) | io.logproducer.internal.BatchCompleter.complete
      linger timer (LingerTimer.run) | io.logproducer.internal.LingerTimer.run
      OTel SDK: emit (SdkLogRecordBuilder.emit) | \
      io.opentelemetry.sdk.logs.SdkLogRecordBuilder.emit
      OTel SDK: export (OtlpHttpLogRecordExporter.export) | \
      io.opentelemetry.exporter.otlp.http.logs.OtlpHttpLogRecordExporter.export
      """
          .lines()
          .map(l -> l.split(" \\| "))
          .toList();

  /** Native frames of threads blocked in accept/read/poll/park: "in native" but not using CPU. */
  private static final List<String> IDLE_NATIVE =
      List.of(
          "accept",
          "epollWait",
          "poll",
          "SocketDispatcher.read",
          "socketRead",
          "NioSocketImpl.park",
          "Net.poll",
          "FileDispatcherImpl.read",
          "Unsafe.park",
          "Object.wait",
          "Thread.sleep");

  /**
   * Prints the summary of a recording: {@code java -cp benchmarks.jar
   * io.logproducer.benchmark.harness.JfrProfile F [fromEpochMillis toEpochMillis]}.
   */
  public static void main(String[] args) throws IOException {
    JfrProfile p =
        args.length >= 3
            ? analyze(
                Path.of(args[0]),
                ProfileSummary::threadGroupOf,
                Long.parseLong(args[1]),
                Long.parseLong(args[2]))
            : analyze(Path.of(args[0]), ProfileSummary::threadGroupOf);
    System.out.println("execution samples: " + p.executionSamples);
    print("components (inclusive)", p.components);
    print("threads", p.threads);
    print("top frames (self)", p.topFrames);
    System.out.println("native samples (busy): " + p.nativeSamples);
    print("native top frames", p.nativeTopFrames);
    System.out.printf(java.util.Locale.ROOT, "allocation: %.1f MB%n", p.allocationWeight / 1e6);
    print("allocation by site", p.allocationBySite);
    print("allocation by class", p.allocationByClass);
    print("waits (ns)", p.waits);
  }

  private static void print(String title, List<Share> shares) {
    System.out.println("-- " + title);
    for (Share s : shares) {
      System.out.printf(
          java.util.Locale.ROOT, "  %6.1f%%  %14.0f  %s%n", s.percent(), s.value(), s.name());
    }
  }

  /** Reads and summarises a recording. */
  public static JfrProfile analyze(Path file, Function<String, String> threadGroup)
      throws IOException {
    return analyze(file, threadGroup, Long.MIN_VALUE, Long.MAX_VALUE);
  }

  /**
   * Reads and summarises the events of a recording that started within [fromMillis, toMillis]
   * (epoch ms).
   */
  public static JfrProfile analyze(
      Path file, Function<String, String> threadGroup, long fromMillis, long toMillis)
      throws IOException {
    Map<String, Long> top = new HashMap<>();
    Map<String, Long> comp = new LinkedHashMap<>();
    Map<String, Long> thr = new HashMap<>();
    Map<String, Long> nat = new HashMap<>();
    Map<String, Double> allocClass = new HashMap<>();
    Map<String, Double> allocSite = new HashMap<>();
    Map<String, Double> wait = new HashMap<>();
    int samples = 0;
    int nativeSamples = 0;
    double allocTotal = 0;
    for (RecordedEvent e : RecordingFile.readAllEvents(file)) {
      long at = e.getStartTime().toEpochMilli();
      if (at < fromMillis || at > toMillis) {
        continue;
      }
      String type = e.getEventType().getName();
      switch (type) {
        case "jdk.ExecutionSample" -> {
          samples++;
          RecordedStackTrace st = e.getStackTrace();
          if (st == null || st.getFrames().isEmpty()) {
            continue;
          }
          List<RecordedFrame> frames = st.getFrames();
          top.merge(frameName(frames.get(0)), 1L, Long::sum);
          for (String[] c : COMPONENTS) {
            if (matchesAny(frames, c)) {
              comp.merge(c[0], 1L, Long::sum);
            }
          }
          RecordedThread t = e.getThread("sampledThread");
          thr.merge(threadGroup.apply(t == null ? "?" : t.getJavaName()), 1L, Long::sum);
        }
        case "jdk.NativeMethodSample" -> {
          RecordedStackTrace st = e.getStackTrace();
          if (st != null && !st.getFrames().isEmpty()) {
            String name = frameName(st.getFrames().get(0));
            if (!isIdleNative(name)) {
              nativeSamples++;
              nat.merge(name, 1L, Long::sum);
            }
          }
        }
        case "jdk.ObjectAllocationSample" -> {
          double w = e.getLong("weight");
          allocTotal += w;
          allocClass.merge(e.getClass("objectClass").getName(), w, Double::sum);
          RecordedStackTrace st = e.getStackTrace();
          allocSite.merge(st == null ? "?" : site(st.getFrames()), w, Double::sum);
        }
        case "jdk.JavaMonitorEnter", "jdk.ThreadPark" -> {
          RecordedStackTrace st = e.getStackTrace();
          RecordedThread t = e.getThread("eventThread");
          String who = threadGroup.apply(t == null ? "?" : t.getJavaName());
          String where = st == null ? "?" : site(st.getFrames());
          wait.merge(
              who + " — " + (type.endsWith("Park") ? "park in " : "monitor in ") + where,
              (double) e.getDuration().toNanos(),
              Double::sum);
        }
        default -> {}
      }
    }
    final int total = samples;
    return new JfrProfile(
        samples,
        shares(top, total, 25),
        ordered(comp, total),
        shares(thr, total, 20),
        nativeSamples,
        shares(nat, nativeSamples, 10),
        allocTotal,
        shares(allocClass, allocTotal, 15),
        shares(allocSite, allocTotal, 15),
        shares(wait, 0, 12));
  }

  private static boolean isIdleNative(String frame) {
    return IDLE_NATIVE.stream().anyMatch(frame::contains);
  }

  private static boolean matchesAny(List<RecordedFrame> frames, String[] component) {
    for (RecordedFrame f : frames) {
      String n = frameName(f);
      for (int i = 1; i < component.length; i++) {
        String c = component[i];
        if (c.endsWith("*") ? n.startsWith(c.substring(0, c.length() - 1)) : n.equals(c)) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * The first frame in our code, or else the top frame, with the top frame's method when they
   * differ.
   */
  private static String site(List<RecordedFrame> frames) {
    if (frames.isEmpty()) {
      return "?";
    }
    String topName = shortName(frameName(frames.get(0)));
    for (RecordedFrame f : frames) {
      String n = frameName(f);
      if (n.startsWith("io.logproducer.") || n.startsWith("io.opentelemetry.")) {
        String s = shortName(n);
        return s.equals(topName) ? s : s + " → " + topName;
      }
    }
    return topName;
  }

  static String frameName(RecordedFrame f) {
    RecordedMethod m = f.getMethod();
    if (m == null) {
      return "?";
    }
    return m.getType().getName() + "." + m.getName();
  }

  /** {@code io.logproducer.internal.Accumulator.append} → {@code Accumulator.append}. */
  static String shortName(String frame) {
    int dot = frame.lastIndexOf('.');
    if (dot < 0) {
      return frame;
    }
    int cls = frame.lastIndexOf('.', dot - 1);
    return frame.substring(cls + 1);
  }

  /**
   * The {@code limit} largest entries of {@code m}, largest first, as shares of {@code total} (0:
   * no percentage).
   */
  private static List<Share> shares(Map<String, ? extends Number> m, double total, int limit) {
    return m.entrySet().stream()
        .sorted((a, b) -> Double.compare(b.getValue().doubleValue(), a.getValue().doubleValue()))
        .limit(limit)
        .map(
            e ->
                new Share(
                    e.getKey(),
                    e.getValue().doubleValue(),
                    total == 0 ? 0 : 100.0 * e.getValue().doubleValue() / total))
        .collect(Collectors.toList());
  }

  private static List<Share> ordered(Map<String, Long> m, int total) {
    List<Share> out = new ArrayList<>();
    for (String[] c : COMPONENTS) {
      long v = m.getOrDefault(c[0], 0L);
      out.add(new Share(c[0], v, total == 0 ? 0 : 100.0 * v / total));
    }
    return out;
  }
}
