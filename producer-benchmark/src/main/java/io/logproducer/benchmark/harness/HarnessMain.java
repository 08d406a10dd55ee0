package io.logproducer.benchmark.harness;

import io.logproducer.LogRecord;
import io.logproducer.testing.ReferenceWorkload;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.ToLongFunction;
import jdk.jfr.Configuration;
import jdk.jfr.Recording;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Unmatched;

/**
 * One end-to-end run in its own JVM (the suite starts one per run, so CPU and GC figures belong to
 * that run): {@code java -cp benchmarks.jar io.logproducer.benchmark.harness.HarnessMain --endpoint
 * URL [--jfrFile F] <RunSpec args>}.
 *
 * <p>A warm-up phase (its own client instance, so the JIT has compiled the paths) is followed by
 * the measured phase: {@code appThreads} threads each generate the reference workload with their
 * own {@link ReferenceWorkload} (or, with {@code recordBytes} set, records of that size with their
 * own {@link SizedWorkload}) and call {@code send} until {@code durationSeconds} pass (or {@code
 * recordsPerThread} are sent), timing every 64th call; then the client is flushed. Prints {@code
 * PROGRESS …} lines every second and finally one {@code RESULT k=v …} line (see {@link RunResult})
 * on stdout.
 */
@Command(
    name = "HarnessMain",
    mixinStandardHelpOptions = true,
    description = "One end-to-end run; the other options are RunSpec's: --key value.")
public final class HarnessMain {

  /** Every this many sends, one is timed (a power of two). */
  static final int LATENCY_SAMPLE_EVERY = 64;

  @Option(names = "--endpoint", description = "the sink's base URL (not for client GENERATE)")
  String endpoint;

  @Option(names = "--jfrFile", description = "where a run with jfr=true writes its recording")
  String jfrFile;

  @Unmatched List<String> spec = new ArrayList<>();

  private HarnessMain() {}

  public static void main(String[] args) throws Exception {
    HarnessMain o = Cli.parse(new HarnessMain(), args);
    String endpoint = o.endpoint;
    String jfrFile = o.jfrFile;
    RunSpec spec = RunSpec.fromArgs(o.spec.toArray(new String[0]));
    if (endpoint == null && spec.client() != RunSpec.Client.GENERATE) {
      throw new IllegalArgumentException("--endpoint is required");
    }
    // The profile recording starts before the warm-up, so that JFR's own start-up (class loading,
    // compilation) is over before the measured phase; the analysis keeps the measured phase's
    // events only (jfrFrom/jfrTo).
    Recording recording = null;
    if (spec.jfr() && jfrFile != null) {
      recording = new Recording(Configuration.getConfiguration("profile"));
      recording.setName("logproducer-benchmark");
      // At ~2 GB/s of (generator) allocation, an event with a stack trace per new TLAB slows the
      // run down several times; the throttled jdk.ObjectAllocationSample events are enough.
      recording.disable("jdk.ObjectAllocationInNewTLAB");
      recording.disable("jdk.ObjectAllocationOutsideTLAB");
      recording.start();
    }
    long warmupDelivered = 0;
    if (spec.warmupSeconds() > 0) {
      try (Driver warm = open(spec, endpoint, "warmup")) {
        runPhase(warm, spec, spec.warmupSeconds(), 0, "warmup");
        warmupDelivered = warm.counters().delivered();
      }
    }
    Map<String, Object> r;
    Driver driver = open(spec, endpoint, "bench");
    long measureFromMillis = System.currentTimeMillis();
    long measureToMillis;
    long diskWrite0 = diskWriteBytes();
    long diskWrite1;
    try {
      r = runPhase(driver, spec, spec.durationSeconds(), spec.recordsPerThread(), "measure");
    } finally {
      diskWrite1 = diskWriteBytes();
      measureToMillis = System.currentTimeMillis();
      driver.close();
      if (recording != null) {
        recording.stop();
        recording.dump(Path.of(jfrFile));
        recording.close();
      }
    }
    Object latency = r.remove("latency");
    r.put("warmupDelivered", warmupDelivered);
    r.put("diskWriteBytes", diskWrite0 < 0 || diskWrite1 < 0 ? -1 : diskWrite1 - diskWrite0);
    if (recording != null) {
      r.put("jfrFrom", measureFromMillis);
      r.put("jfrTo", measureToMillis);
    }
    r.put("latency", latency);
    StringBuilder line = new StringBuilder("RESULT");
    r.forEach((k, v) -> line.append(' ').append(k).append('=').append(v));
    System.out.println(line);
    System.out.flush();
    System.exit(0); // do not wait for lingering non-daemon threads of a peer
  }

  /**
   * {@return this process's bytes written to storage so far ({@code write_bytes} of {@code
   * /proc/self/io}: the disk spool's writes), or -1 where that file is unavailable}
   */
  private static long diskWriteBytes() {
    return ProcStats.field(Path.of("/proc/self/io"), "write_bytes");
  }

  private static Driver open(RunSpec spec, String endpoint, String phase) {
    return switch (spec.client()) {
      case LOGPRODUCER -> new LogproducerDriver(spec, endpoint, phase);
      case OTEL -> new OtelDriver(spec, endpoint);
      case ALIYUN -> new AliyunDriver(spec, endpoint);
      case GENERATE -> new GenerateDriver();
    };
  }

  /** One application thread's loop and what it measured. */
  private static final class AppThread extends Thread {
    private final Driver driver;
    private final CountDownLatch start;
    private final long maxRecords;
    private final long nanosPerRecord;

    /** Records of {@code recordBytes} bytes, or 0 for the reference workload. */
    private final int recordBytes;

    private final LatencyHistogram latency = new LatencyHistogram();
    private volatile boolean stop;
    private final AtomicReference<Throwable> error;
    long sent;
    long rawBytes;
    long cpuNanos;
    long allocatedBytes;

    /** Voluntary and involuntary context switches of this thread (Linux), or -1. */
    long[] contextSwitches = {-1, -1};

    AppThread(
        int index,
        Driver driver,
        RunSpec spec,
        long maxRecords,
        CountDownLatch start,
        AtomicReference<Throwable> error) {
      super("app-" + index);
      long ratePerThread =
          spec.rateLimit() <= 0 ? 0 : Math.max(1, spec.rateLimit() / spec.appThreads());
      this.recordBytes = spec.recordBytes();
      this.driver = driver;
      this.start = start;
      this.maxRecords = maxRecords <= 0 ? Long.MAX_VALUE : maxRecords;
      this.nanosPerRecord = ratePerThread == 0 ? 0 : 1_000_000_000L / ratePerThread;
      this.error = error;
      setDaemon(true);
    }

    @Override
    public void run() {
      ReferenceWorkload workload = new ReferenceWorkload();
      SizedWorkload sized = recordBytes > 0 ? new SizedWorkload(recordBytes) : null;
      com.sun.management.ThreadMXBean tmx =
          (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
      long cpu0 = tmx.getCurrentThreadCpuTime();
      long alloc0 = tmx.getCurrentThreadAllocatedBytes();
      long seq = 0;
      try {
        start.await();
        long t0 = System.nanoTime();
        Driver d = driver;
        LatencyHistogram h = latency;
        for (; seq < maxRecords && !stop; seq++) {
          LogRecord r = sized == null ? workload.next(seq) : sized.next(seq);
          int phase = (int) (seq & (LATENCY_SAMPLE_EVERY - 1));
          if (phase == 0) {
            long a = System.nanoTime();
            d.send(r);
            h.record(System.nanoTime() - a);
          } else {
            d.send(r);
            // Pace half-way between two timed sends, so that a timed send never directly follows a
            // sleep (its caches would be cold and it would measure the wake-up, not send()).
            if (phase == LATENCY_SAMPLE_EVERY / 2 && nanosPerRecord > 0) {
              pace(t0 + seq * nanosPerRecord);
            }
          }
        }
      } catch (Throwable t) {
        error.compareAndSet(null, t);
      } finally {
        sent = seq;
        rawBytes = sized == null ? workload.rawBytes() : sized.rawBytes();
        cpuNanos = tmx.getCurrentThreadCpuTime() - cpu0;
        allocatedBytes = tmx.getCurrentThreadAllocatedBytes() - alloc0;
        contextSwitches = ProcStats.contextSwitches(Path.of("/proc/thread-self/status"));
      }
    }

    /** Sleeps until {@code dueNanos}; pacing is checked once every 64 records. */
    private static void pace(long dueNanos) {
      long wait;
      while ((wait = dueNanos - System.nanoTime()) > 20_000) {
        LockSupport.parkNanos(wait);
      }
    }
  }

  /** {@return what a phase measured: the RESULT line's keys, in order, but the JVM-wide ones} */
  private static Map<String, Object> runPhase(
      Driver driver, RunSpec spec, double seconds, long recordsPerThread, String name)
      throws InterruptedException {
    CountDownLatch start = new CountDownLatch(1);
    AtomicReference<Throwable> error = new AtomicReference<>();
    AppThread[] threads = new AppThread[spec.appThreads()];
    for (int i = 0; i < threads.length; i++) {
      threads[i] = new AppThread(i, driver, spec, recordsPerThread, start, error);
      threads[i].start();
    }
    com.sun.management.OperatingSystemMXBean os =
        (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    Map<Long, long[]> threads0 = threadSnapshot();
    long gcMillis0 = gc(GarbageCollectorMXBean::getCollectionTime);
    long gcCount0 = gc(GarbageCollectorMXBean::getCollectionCount);
    long cpu0 = os.getProcessCpuTime();
    long[] userSys0 = ProcStats.userSysNanos();
    long[] ctx0 = ProcStats.processContextSwitches();
    Map<String, Long> vmThreads0 = ProcStats.vmThreadCpuNanos();
    long t0 = System.nanoTime();
    start.countDown();
    System.out.println("PHASE " + name + " start");
    System.out.flush();

    awaitEnd(driver, threads, t0, seconds, name);
    for (AppThread t : threads) {
      t.stop = true;
    }
    for (AppThread t : threads) {
      t.join();
    }
    long sendEnd = System.nanoTime();
    // A client whose threads end during flush (the Aliyun producer flushes by closing) keeps their
    // CPU and allocation as of here in its groups (what they use while flushing counts as "vm").
    Map<Long, long[]> threadsBeforeFlush = threadSnapshot();
    Map<Long, String> namesBeforeFlush = threadNameMap();
    driver.flush();
    long end = System.nanoTime();
    long cpu = os.getProcessCpuTime() - cpu0;
    long[] userSys1 = ProcStats.userSysNanos();
    long[] ctx1 = ProcStats.processContextSwitches();
    Map<String, Long> vmThreads1 = ProcStats.vmThreadCpuNanos();
    long gcMs = gc(GarbageCollectorMXBean::getCollectionTime) - gcMillis0;
    long gcN = gc(GarbageCollectorMXBean::getCollectionCount) - gcCount0;
    Map<Long, long[]> threads1 = threadSnapshot();
    Map<Long, String> names1 = threadNameMap();
    threadsBeforeFlush.forEach(
        (id, v) -> {
          if (!threads1.containsKey(id)) {
            threads1.put(id, v);
            names1.putIfAbsent(id, namesBeforeFlush.get(id));
          }
        });
    Driver.Counters c = driver.counters();
    if (error.get() != null) {
      System.err.println("send failed in " + name + ": " + error.get());
      error.get().printStackTrace();
    }

    LatencyHistogram latency = new LatencyHistogram();
    Map<String, Long> cpuBy = new LinkedHashMap<>();
    Map<String, Long> allocBy = new LinkedHashMap<>();
    for (AppThread t : threads) {
      latency.add(t.latency);
      cpuBy.merge("app", t.cpuNanos, Long::sum);
      allocBy.merge("app", t.allocatedBytes, Long::sum);
    }
    otherThreads(driver, threads0, threads1, names1, cpuBy, allocBy);
    long javaThreads = cpuBy.values().stream().mapToLong(Long::longValue).sum();
    long vmGrouped = 0;
    if (vmThreads0 != null && vmThreads1 != null) {
      for (Map.Entry<String, Long> e : vmThreads1.entrySet()) {
        long v = Math.max(0, e.getValue() - vmThreads0.getOrDefault(e.getKey(), 0L));
        cpuBy.put(e.getKey(), v); // gc, jit: the JVM's threads, from /proc
        vmGrouped += v;
      }
    }
    // The rest of the process: VM threads other than GC and JIT (or all of them without /proc)
    cpuBy.put("vm", Math.max(0, cpu - javaThreads - vmGrouped));
    Map<String, Object> r = new LinkedHashMap<>();
    r.put("emitted", Arrays.stream(threads).mapToLong(t -> t.sent).sum());
    r.put("accepted", c.accepted());
    r.put("delivered", c.delivered());
    r.put("failed", c.failed());
    r.put("dropped", c.dropped());
    r.put("seconds", fmt((end - t0) / 1e9));
    r.put("sendSeconds", fmt((sendEnd - t0) / 1e9));
    r.put("rawBytes", Arrays.stream(threads).mapToLong(t -> t.rawBytes).sum());
    r.put("encodedBytes", c.encodedBytes());
    r.put("wireBytes", c.wireBytes());
    r.put("peakBufferedBytes", c.peakBufferedBytes());
    r.put("totalSizeInBytes", c.totalSizeInBytes());
    r.put("sendBlockedNanos", c.sendBlockedNanos());
    r.put("requests", c.requests());
    r.put("requestLatencyAvgMillis", fmt(c.requestLatencyAvgMillis()));
    r.put("cpuNanos", cpu);
    r.put("gcMillis", gcMs);
    r.put("gcCount", gcN);
    r.put("heapMaxBytes", Runtime.getRuntime().maxMemory()); // the default heap's size, when used
    cpuBy.forEach((g, v) -> r.put("cpu." + g, v));
    allocBy.forEach((g, v) -> r.put("alloc." + g, v));
    r.putAll(osCounters(threads, ctx0, ctx1, userSys0, userSys1));
    r.put("latency", latency.encode());
    return r;
  }

  /**
   * Waits until the phase's time is up or every app thread has ended, printing a PROGRESS line each
   * second.
   */
  private static void awaitEnd(
      Driver driver, AppThread[] threads, long t0, double seconds, String name)
      throws InterruptedException {
    long deadline = seconds > 0 ? t0 + (long) (seconds * 1e9) : Long.MAX_VALUE;
    long nextReport = t0 + 1_000_000_000L;
    long lastDelivered = 0;
    long lastReport = t0;
    while (true) {
      boolean alive = false;
      for (AppThread t : threads) {
        alive |= t.isAlive();
      }
      long now = System.nanoTime();
      if (!alive || now - deadline >= 0) {
        return;
      }
      if (now - nextReport >= 0) {
        Driver.Counters c = driver.counters();
        double rate = (c.delivered() - lastDelivered) / ((now - lastReport) / 1e9);
        System.out.printf(
            Locale.ROOT,
            "PROGRESS phase=%s t=%.1f accepted=%d delivered=%d rate=%.0f buffered=%d%n",
            name,
            (now - t0) / 1e9,
            c.accepted(),
            c.delivered(),
            rate,
            c.bufferedBytes());
        System.out.flush();
        lastDelivered = c.delivered();
        lastReport = now;
        nextReport += 1_000_000_000L;
      }
      long sleep = Math.min(deadline, nextReport) - now;
      TimeUnit.NANOSECONDS.sleep(Math.max(100_000, Math.min(sleep, 50_000_000)));
    }
  }

  /**
   * Adds the other Java threads' CPU and allocation: deltas between the snapshots (new threads
   * count from 0).
   */
  private static void otherThreads(
      Driver driver,
      Map<Long, long[]> threads0,
      Map<Long, long[]> threads1,
      Map<Long, String> names1,
      Map<String, Long> cpuBy,
      Map<String, Long> allocBy) {
    for (Map.Entry<Long, long[]> e : threads1.entrySet()) {
      String tn = names1.get(e.getKey());
      if (tn == null || tn.startsWith("app-")) {
        continue;
      }
      long[] before = threads0.getOrDefault(e.getKey(), new long[2]);
      String g = driver.threadGroup(tn);
      if (g == null) {
        g = tn.startsWith("warmup-") ? "warmup" : "other";
      }
      cpuBy.merge(g, Math.max(0, e.getValue()[0] - before[0]), Long::sum);
      allocBy.merge(g, Math.max(0, e.getValue()[1] - before[1]), Long::sum);
    }
  }

  /**
   * Context switches (the app threads' own, read as they ended, plus the other threads' deltas) and
   * user/sys time.
   */
  private static Map<String, Long> osCounters(
      AppThread[] threads, long[] ctx0, long[] ctx1, long[] userSys0, long[] userSys1) {
    long vol = 0;
    long invol = 0;
    for (AppThread t : threads) {
      vol += Math.max(0, t.contextSwitches[0]);
      invol += Math.max(0, t.contextSwitches[1]);
    }
    Map<String, Long> os = new LinkedHashMap<>();
    if (ctx0 != null && ctx1 != null) {
      os.put("ctxVoluntary", vol + Math.max(0, ctx1[0] - ctx0[0]));
      os.put("ctxInvoluntary", invol + Math.max(0, ctx1[1] - ctx0[1]));
    }
    if (userSys0 != null && userSys1 != null) {
      os.put("userNanos", userSys1[0] - userSys0[0]);
      os.put("sysNanos", userSys1[1] - userSys0[1]);
    }
    return os;
  }

  /** CPU and allocated bytes of every live Java thread, by id. */
  private static Map<Long, long[]> threadSnapshot() {
    com.sun.management.ThreadMXBean tmx =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long[] ids = tmx.getAllThreadIds();
    long[] cpu = tmx.getThreadCpuTime(ids);
    long[] alloc = tmx.getThreadAllocatedBytes(ids);
    Map<Long, long[]> m = new LinkedHashMap<>();
    for (int i = 0; i < ids.length; i++) {
      if (cpu[i] >= 0) {
        m.put(ids[i], new long[] {cpu[i], Math.max(0, alloc[i])});
      }
    }
    return m;
  }

  /** Names of the live Java threads, by id. */
  private static Map<Long, String> threadNameMap() {
    ThreadMXBean tmx = ManagementFactory.getThreadMXBean();
    Map<Long, String> names = new HashMap<>();
    for (ThreadInfo t : tmx.getThreadInfo(tmx.getAllThreadIds(), 0)) {
      if (t != null) {
        names.put(t.getThreadId(), t.getThreadName());
      }
    }
    return names;
  }

  /** Collection time (ms) or count summed over the collectors. */
  private static long gc(ToLongFunction<GarbageCollectorMXBean> f) {
    return ManagementFactory.getGarbageCollectorMXBeans().stream()
        .mapToLong(gc -> Math.max(0, f.applyAsLong(gc)))
        .sum();
  }

  private static String fmt(double v) {
    return String.format(Locale.ROOT, "%.6f", v);
  }
}
