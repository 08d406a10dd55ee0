package io.logproducer.benchmark.soak;

import io.logproducer.BufferExhaustedException;
import io.logproducer.BufferFullPolicy;
import io.logproducer.LogRecord;
import io.logproducer.Producer;
import io.logproducer.ProducerConfig;
import io.logproducer.ProducerMetrics;
import io.logproducer.SendResult;
import io.logproducer.benchmark.harness.MachineInfo;
import io.logproducer.otlp.OtlpHttpExporter;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.LongStream;
import picocli.CommandLine;

/**
 * The soak: the reference workload at a fixed rate through the real {@link Producer} (OTLP/HTTP,
 * lz4) to {@link SoakReceiver} in its own JVM, which goes down every {@code --down-every-s} seconds
 * for {@code --down-for-s} seconds, alternately refusing connections and answering 503 with {@code
 * Retry-After: 1}. Checks the producer's promises over minutes: memory stays bounded (heap after GC
 * flat, buffered bytes within {@code totalSizeInBytes}), nothing hangs (every {@code send} returns,
 * {@code close} returns, no thread is left or leaks), and every accepted record gets exactly one
 * outcome (and every record reported delivered reached the receiver). Writes {@code SOAK.md} (+
 * chart and CSVs under {@code soak/}) into {@code --out}; exit code 0 when every criterion passes,
 * 1 otherwise, 2 on bad options. Run it with {@code producer-benchmark/run-soak.sh}.
 *
 * <p>Uses the producer's public API only.
 */
public final class SoakMain {

  static final long MIB = 1L << 20;
  static final String CLIENT_ID = "soak";

  /** One sample a second. */
  record Sample(
      double t,
      String phase,
      long heapAfterGcBytes,
      long heapUsedBytes,
      int threads,
      long bufferedBytes,
      int waitingThreads,
      long accepted,
      long delivered,
      long notDelivered,
      long refused,
      String receiverState,
      long received,
      long duplicates,
      long gcCount) {}

  /** One garbage collection. */
  record GcEvent(
      double t, String gc, String action, String cause, long heapAfterBytes, long durationMillis) {}

  /** One outage as it happened (times from the receiver's acknowledgements). */
  record Outage(int index, String mode, double from, double to) {}

  // ---- state shared with app threads, callbacks, the sampler and the GC listener
  private final SoakOptions o;
  private final LongAdder[] byStatus = new LongAdder[SendResult.Status.values().length];
  private final LongAdder repeatedOutcomes = new LongAdder();
  private final SoakIdSet[] outcomeIds;
  private final SoakIdSet[] deliveredIds;
  private final List<String> failureExamples = new ArrayList<>();
  private final List<Sample> samples = new ArrayList<>();
  private final SoakGcLog gcLog = new SoakGcLog();
  private final List<Outage> outages = new ArrayList<>();
  private final List<String> problems = new ArrayList<>();
  private volatile long t0Nanos;
  private volatile String receiverState = "UP";
  private volatile String phase = "run";
  private Producer producer;
  private SoakReceiverProcess receiver;
  private AppThread[] apps;
  private long ticks; // the sampler's
  private long lastDelivered; // the sampler's

  SoakMain(SoakOptions o) {
    this.o = o;
    Arrays.setAll(byStatus, i -> new LongAdder());
    // Allocated up front, so that id tracking does not grow the heap during the run (rate 0: grows,
    // and the growth is reported and allowed for in the heap rule).
    long perThread =
        o.rate > 0 ? (long) Math.ceil(o.rate / (double) o.threads * o.durationSeconds() * 1.1) : 0;
    outcomeIds = new SoakIdSet[o.threads];
    deliveredIds = new SoakIdSet[o.threads];
    Arrays.setAll(outcomeIds, t -> new SoakIdSet(perThread));
    Arrays.setAll(deliveredIds, t -> new SoakIdSet(perThread));
  }

  /**
   * Runs the soak ({@link SoakOptions}); exits with 0 (pass), 1 (fail) or 2 (bad options).
   *
   * @param args the options
   */
  public static void main(String[] args) {
    SoakOptions o = new SoakOptions();
    o.args.addAll(List.of(args));
    int code = new CommandLine(o).setCaseInsensitiveEnumValuesAllowed(true).execute(args);
    System.out.flush();
    System.exit(code);
  }

  double now() {
    return (System.nanoTime() - t0Nanos) / 1e9;
  }

  boolean run() throws Exception {
    Map<String, String> machine = MachineInfo.collect();
    machine.put(
        "JVM options", String.join(" ", ManagementFactory.getRuntimeMXBean().getInputArguments()));
    machine.put("GC", SoakGcLog.names());
    log(
        "soak: %s min, receiver down every %d s for %d s, %d threads, rate %s, totalSizeInBytes %d, out %s",
        fmt(o.minutes),
        o.downEveryS,
        o.downForS,
        o.threads,
        o.rate == 0 ? "unlimited" : o.rate + "/s",
        o.totalSizeBytes,
        o.out);
    gcLog.install(this::now);
    t0Nanos = System.nanoTime();

    receiver = new SoakReceiverProcess(List.of("-Xmx" + o.receiverHeap, "-XX:+UseG1GC"), o.threads);
    log("receiver listening at %s (own JVM)", receiver.endpoint());

    // sending, the last send's block (+15 s), close (+30 s), the drain (30 s), 60 s to spare
    double bound = o.durationSeconds() + o.maxBlockMillis / 1000.0 + o.closeTimeoutSeconds + 135;
    ScheduledExecutorService timers =
        Executors.newScheduledThreadPool(
            2,
            task -> {
              Thread t = new Thread(task, "soak-timer");
              t.setDaemon(true);
              return t;
            });
    timers.schedule(this::timeUp, (long) (bound * 1000), TimeUnit.MILLISECONDS);

    Set<Thread> threadsBefore = Set.copyOf(Thread.getAllStackTraces().keySet());
    producer = startProducer();

    apps = new AppThread[o.threads];
    long nanosPerRecord = o.rate <= 0 ? 0 : Math.max(1, Math.round(1e9 * o.threads / o.rate));
    for (int t = 0; t < o.threads; t++) {
      apps[t] = new AppThread(t, nanosPerRecord);
    }
    t0Nanos = System.nanoTime();
    gcLog.clear(); // events before t0 belong to start-up
    Runnable sampling =
        () -> {
          try {
            sample();
          } catch (RuntimeException e) { // a thrown exception would cancel the schedule
            e.printStackTrace();
          }
        };
    timers.scheduleAtFixedRate(sampling, 0, 1, TimeUnit.SECONDS);
    for (AppThread a : apps) {
      a.start();
    }

    runOutages();

    double sendEnd = stopSending();

    double closeSeconds = closeProducer();
    ProducerMetrics metrics = producer.getMetrics();

    SoakIdSet[] seen = drainReceiver();
    SoakReceiverProcess.Stats rs = receiver.latest();
    timers.shutdownNow(); // stops the sampling and the time bound
    timers.awaitTermination(5, TimeUnit.SECONDS);
    receiver.close();

    List<String> leftover = leftoverThreads(threadsBefore);

    SoakResult r = evaluate(metrics, rs, seen, leftover, sendEnd, closeSeconds);
    SoakReport report =
        new SoakReport(
            o,
            machine,
            r,
            snapshot(samples),
            gcLog.events(),
            snapshot(outages),
            failureExamples,
            problems);
    System.out.println("\n" + report.summary());
    report.write();
    log("wrote %s (+ %s)", o.out.resolve("SOAK.md"), o.out.resolve("soak"));
    System.out.println(r.pass() ? "SOAK PASS" : "SOAK FAIL");
    return r.pass();
  }

  private Producer startProducer() {
    ProducerConfig config =
        ProducerConfig.builder()
            .setClientId(CLIENT_ID)
            .setTotalSizeInBytes(o.totalSizeBytes)
            .setBufferFullPolicy(BufferFullPolicy.BLOCK)
            .setMaxBlockMillis(o.maxBlockMillis)
            .setDeliveryTimeoutMillis(o.deliveryTimeoutMillis)
            .setSendThreads(o.sendThreads)
            .setCompression(o.compression)
            .build();
    return new Producer(
        config,
        OtlpHttpExporter.builder()
            .setEndpoint(receiver.endpoint())
            .setServiceName("logproducer-soak")
            .build());
  }

  /**
   * The outages on schedule, alternately refusing connections and answering 503, until the end of
   * sending.
   */
  private void runOutages() throws Exception {
    double duration = o.durationSeconds();
    for (int k = 1; o.downForS > 0 && (double) k * o.downEveryS < duration; k++) {
      boolean refuse = k % 2 == 1;
      sleepUntil((double) k * o.downEveryS);
      double from = receiverCommand(refuse ? "refuse" : "unavailable");
      sleepUntil(Math.min(duration, (double) k * o.downEveryS + o.downForS));
      Outage outage =
          new Outage(
              k,
              refuse ? "connection refused" : "503 + Retry-After: 1",
              from,
              receiverCommand("up"));
      synchronized (outages) {
        outages.add(outage);
      }
    }
    sleepUntil(duration);
    if (!receiverState.equals("UP")) {
      receiverCommand("up");
    }
  }

  /**
   * Stops the application threads: every send must return (space frees up once the receiver is
   * back, or after maxBlockMillis). {@return the time sending ended, seconds}
   */
  private double stopSending() throws InterruptedException {
    double sendEnd = now();
    phase = "stop";
    for (AppThread a : apps) {
      a.stop = true;
    }
    long joinDeadline =
        System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(o.maxBlockMillis + 15_000);
    for (AppThread a : apps) {
      a.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(joinDeadline - System.nanoTime())));
      if (a.isAlive()) {
        problem(
            "application thread %s still inside send() %d s after the end of the run"
                .formatted(a.getName(), (o.maxBlockMillis + 15_000) / 1000));
      }
    }
    log(
        "sending stopped at t=%.1f s (all send() calls returned after %.1f s); closing the producer (timeout %d s)",
        sendEnd, now() - sendEnd, o.closeTimeoutSeconds);
    return sendEnd;
  }

  /**
   * Closes with a timeout, in a thread of its own so that a hang is seen, not suffered. {@return
   * seconds taken}
   */
  private double closeProducer() throws InterruptedException {
    phase = "close";
    double closeStart = now();
    Thread closer =
        new Thread(
            () -> producer.close(TimeUnit.SECONDS.toMillis(o.closeTimeoutSeconds)), "soak-closer");
    closer.setDaemon(true);
    closer.start();
    closer.join(TimeUnit.SECONDS.toMillis(o.closeTimeoutSeconds + 30));
    double closeSeconds = now() - closeStart;
    if (closer.isAlive()) {
      problem(
          "Producer.close(%d s) had not returned after %s s"
              .formatted(o.closeTimeoutSeconds, fmt(closeSeconds)));
    }
    return closeSeconds;
  }

  /** Waits for the receiver's count to stop moving (bounded), then reads the ids it saw. */
  private SoakIdSet[] drainReceiver() throws Exception {
    phase = "drain";
    SoakReceiverProcess.Stats rs = receiver.statsAfter(System.nanoTime(), 3000);
    long drainDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (System.nanoTime() - drainDeadline < 0) {
      SoakReceiverProcess.Stats next = receiver.statsAfter(rs.readAtNanos(), 3000);
      boolean settled = next.records() == rs.records() && next.requests() == rs.requests();
      rs = next;
      if (settled) {
        break;
      }
    }
    Path dump = Files.createTempFile("soak-receiver-", ".ids");
    try {
      receiver.command("dump " + dump, 30_000);
      return SoakIdSet.readAll(dump, o.threads);
    } finally {
      Files.deleteIfExists(dump);
    }
  }

  /** Threads the producer left behind: alive, not there before it started, not the soak's own. */
  private static List<String> leftoverThreads(Set<Thread> threadsBefore) {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(th -> th.isAlive() && !threadsBefore.contains(th))
        .filter(th -> th != Thread.currentThread() && !th.getName().startsWith("soak-"))
        .map(Thread::getName)
        .toList();
  }

  private SoakResult evaluate(
      ProducerMetrics m,
      SoakReceiverProcess.Stats rs,
      SoakIdSet[] seen,
      List<String> leftover,
      double sendEnd,
      double closeSeconds) {
    long accepted = accepted();
    long[] status = Arrays.stream(byStatus).mapToLong(LongAdder::sum).toArray();
    long outcomes = LongStream.of(status).sum();
    long missing = accepted - outcomes;
    long noOutcome = 0;
    long lost = 0;
    long phantom = 0;
    long receivedButFailed = 0;
    long tracking = 0;
    long grown = 0;
    for (int t = 0; t < o.threads; t++) {
      long n = apps[t].accepted;
      noOutcome += n - outcomeIds[t].count(0, n);
      lost += deliveredIds[t].countNotIn(seen[t], 0, n);
      phantom += seen[t].count(n, Math.max(n, seen[t].limit()));
      // received, had an outcome, and that outcome was not DELIVERED
      receivedButFailed +=
          seen[t].count(0, n)
              - seen[t].countNotIn(outcomeIds[t], 0, n)
              - (deliveredIds[t].count(0, n) - deliveredIds[t].countNotIn(seen[t], 0, n));
      tracking += outcomeIds[t].allocatedBytes() + deliveredIds[t].allocatedBytes();
      grown += outcomeIds[t].grownBytes() + deliveredIds[t].grownBytes();
    }

    List<String> hangs = snapshot(problems);
    long noId = rs.noId() + rs.unknownThread();
    SoakResult r =
        new SoakResult(
            accepted,
            Arrays.stream(apps).mapToLong(a -> a.refused).sum(),
            status,
            outcomes,
            missing,
            repeatedOutcomes.sum(),
            noOutcome,
            rs.unique(),
            rs.duplicates(),
            lost,
            phantom,
            receivedButFailed,
            noId,
            rs.bad(),
            rs.unavailable(),
            rs.requests(),
            m,
            sendEnd,
            closeSeconds,
            leftover,
            tracking,
            grown,
            new ArrayList<>());
    r.criteria().addAll(new SoakCriteria(o, snapshot(samples), gcLog).judge(r, hangs));
    return r;
  }

  /**
   * Whether a GC counts for the heap rule: only the periodic full GCs when they are on, else every
   * GC.
   */
  static boolean counts(GcEvent e, boolean fullGcsOnly) {
    return !fullGcsOnly || "System.gc()".equals(e.cause());
  }

  // ---- application threads

  private final class AppThread extends Thread {
    private final int index;
    private final long nanosPerRecord;
    volatile boolean stop;
    volatile long accepted;
    volatile long refused;

    AppThread(int index, long nanosPerRecord) {
      super("soak-app-" + index);
      this.index = index;
      this.nanosPerRecord = nanosPerRecord;
      setDaemon(true);
    }

    @Override
    public void run() {
      SoakRecords records = new SoakRecords(index);
      int t = index;
      long i = 0;
      long paceFrom = System.nanoTime();
      long paced = 0;
      try {
        while (!stop) {
          LogRecord record = records.next(i);
          long id = i;
          try {
            producer.send(record, result -> outcome(t, id, result));
          } catch (BufferExhaustedException e) {
            refused++; // not accepted: the same id is tried again
            continue;
          }
          accepted = ++i;
          if (nanosPerRecord > 0 && (++paced & 15) == 0) {
            long due = paceFrom + paced * nanosPerRecord;
            long now = System.nanoTime();
            if (now - due > 100_000_000L) {
              // Blocked in send (an outage): carry on at the rate from now, do not catch up in a
              // burst.
              paceFrom = now;
              paced = 0;
            } else {
              while (due - now > 20_000 && !stop) {
                LockSupport.parkNanos(due - now);
                now = System.nanoTime();
              }
            }
          }
        }
      } catch (RuntimeException e) {
        problem("send() threw on " + getName() + ": " + e);
      }
    }
  }

  private void outcome(int thread, long id, SendResult result) {
    SendResult.Status s = result.getStatus();
    byStatus[s.ordinal()].increment();
    if (!outcomeIds[thread].add(id)) {
      repeatedOutcomes.increment();
    }
    if (s == SendResult.Status.DELIVERED) {
      deliveredIds[thread].add(id);
    } else {
      synchronized (failureExamples) {
        if (failureExamples.size() < 5) {
          String line = String.format(Locale.ROOT, "t=%.1f s %s", now(), result);
          failureExamples.add(line.length() > 300 ? line.substring(0, 300) + "…" : line);
        }
      }
    }
  }

  // ---- sampling

  /**
   * The time bound: a hang ends the run with a thread dump on stderr, the receiver's process killed
   * and exit code 1, instead of hanging the caller.
   */
  private void timeUp() {
    System.err.println("SOAK FAIL: the run did not finish within its time bound; thread dump:");
    for (ThreadInfo ti : ManagementFactory.getThreadMXBean().dumpAllThreads(false, false)) {
      System.err.print(ti);
    }
    System.err.flush();
    receiver.kill();
    Runtime.getRuntime().halt(1);
  }

  /** One sample, every second from t0. */
  private void sample() {
    long tick = ++ticks;
    if (o.fullGcsOnly() && tick > 1 && (tick + 5) % o.fullGcEverySeconds == 0) {
      System.gc(); // a full GC: the listener records the live heap, cause "System.gc()"
    }
    ProducerMetrics m = producer.getMetrics();
    long accepted = accepted();
    long refused = Arrays.stream(apps).mapToLong(a -> a.refused).sum();
    long delivered = byStatus[SendResult.Status.DELIVERED.ordinal()].sum();
    long all = Arrays.stream(byStatus).mapToLong(LongAdder::sum).sum();
    long heapUsed = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    long afterGc = gcLog.notifications() ? gcLog.heapAfterGc() : heapUsed;
    SoakReceiverProcess.Stats rs = receiver.latest();
    Sample s =
        new Sample(
            now(),
            phase,
            afterGc,
            heapUsed,
            ManagementFactory.getThreadMXBean().getThreadCount(),
            m.getBufferedBytes(),
            m.getWaitingThreads(),
            accepted,
            delivered,
            all - delivered,
            refused,
            receiverState,
            rs.unique(),
            rs.duplicates(),
            SoakGcLog.count());
    synchronized (samples) {
      samples.add(s);
    }
    if (tick % 10 == 1 || !phase.equals("run")) {
      log(
          "t=%5.0f s receiver=%-11s accepted=%,d delivered=%,d (+%,d) failed=%,d refused=%d buffered=%s "
              + "heap-after-gc=%s threads=%d",
          s.t(),
          s.receiverState(),
          accepted,
          delivered,
          delivered - lastDelivered,
          all - delivered,
          refused,
          mb(s.bufferedBytes()),
          afterGc < 0 ? "n/a" : mb(afterGc),
          s.threads());
      lastDelivered = delivered;
    }
  }

  // ---- receiver control

  private double receiverCommand(String command) {
    try {
      receiver.command(command, 10_000);
      receiverState =
          switch (command) {
            case "refuse" -> "REFUSING";
            case "unavailable" -> "UNAVAILABLE";
            default -> "UP";
          };
    } catch (IOException | InterruptedException e) {
      problem("receiver command '" + command + "' failed: " + e.getMessage());
    }
    double t = now();
    log("t=%5.1f s receiver %s", t, receiverState);
    return t;
  }

  // ---- helpers

  private void problem(String p) {
    synchronized (problems) {
      problems.add(p);
    }
    log("PROBLEM: %s", p);
  }

  private void sleepUntil(double seconds) throws InterruptedException {
    while (true) {
      long left = t0Nanos + (long) (seconds * 1e9) - System.nanoTime();
      if (left <= 0) {
        return;
      }
      TimeUnit.NANOSECONDS.sleep(Math.min(left, 200_000_000L));
    }
  }

  private long accepted() {
    return Arrays.stream(apps).mapToLong(a -> a.accepted).sum();
  }

  private static <T> List<T> snapshot(List<T> list) {
    synchronized (list) {
      return new ArrayList<>(list);
    }
  }

  static void log(String format, Object... args) {
    System.out.println(String.format(Locale.ROOT, format, args));
    System.out.flush();
  }

  static String mb(long bytes) {
    return String.format(Locale.ROOT, "%.1f MB", bytes / (double) MIB);
  }

  static String fmt(double v) {
    return v == Math.rint(v)
        ? String.format(Locale.ROOT, "%.0f", v)
        : String.format(Locale.ROOT, "%.1f", v);
  }

  static Map<String, String> settings(SoakOptions o) {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("sending time", fmt(o.minutes) + " min (" + fmt(o.durationSeconds()) + " s)");
    m.put(
        "outages",
        o.downForS <= 0
            ? "none"
            : ("every %d s for %d s, alternately connection refused (listening socket and connections"
                    + " closed) and 503 with Retry-After: 1")
                .formatted(o.downEveryS, o.downForS));
    m.put("application threads", Integer.toString(o.threads));
    m.put(
        "rate",
        o.rate == 0
            ? "as fast as possible"
            : String.format(Locale.ROOT, "%,d records/s in total", o.rate));
    m.put(
        "record", "reference workload (~580 bytes: 3 attributes + body) + integer attribute `seq`");
    m.put(
        "exporter",
        "OtlpHttpExporter, protobuf, to the receiver on 127.0.0.1 (own JVM, -Xmx%s)"
            .formatted(o.receiverHeap));
    m.put("compression", o.compression.name().toLowerCase(Locale.ROOT));
    m.put(
        "totalSizeInBytes",
        String.format(Locale.ROOT, "%,d (%s)", o.totalSizeBytes, mb(o.totalSizeBytes)));
    m.put("bufferFullPolicy / maxBlockMillis", "BLOCK / " + o.maxBlockMillis);
    m.put("deliveryTimeoutMillis", Long.toString(o.deliveryTimeoutMillis));
    m.put("sendThreads", Integer.toString(o.sendThreads));
    m.put(
        "other ProducerConfig",
        "defaults (batch 1 MiB, linger 1000 ms, retries unbounded within the delivery "
            + "timeout, backoff 100 ms … 5 s)");
    m.put("close", "close(" + o.closeTimeoutSeconds + " s) after the last send returned");
    m.put("warm-up (excluded from flatness checks)", fmt(o.warmup()) + " s");
    m.put(
        "comparison windows",
        "first %s s after warm-up vs last %1$s s of sending".formatted(fmt(o.window())));
    return m;
  }
}
