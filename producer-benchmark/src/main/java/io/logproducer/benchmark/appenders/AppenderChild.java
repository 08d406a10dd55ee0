package io.logproducer.benchmark.appenders;

import com.sun.management.ThreadMXBean;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import jdk.jfr.Configuration;
import jdk.jfr.Recording;

/**
 * One variant in its own JVM: {@code java -cp <the variant's class path>
 * io.logproducer.benchmark.appenders.AppenderChild <ChildSpec args>}, started by {@link
 * AppenderSuite}. It writes the variant's configuration ({@link ConfigFiles}), lets the framework
 * configure itself from it, starts the logging threads ({@code log-0}…), warms up (the events are
 * not counted), prints {@code warm}, waits for a line {@code go} on stdin (the suite first lets the
 * sink settle), runs the measured phase, stops the framework (which flushes) and prints one line
 * {@code result k=v …} ({@link ChildResult}), then exits.
 *
 * <p>Paced runs first time the pacing alone (the same schedule without the logging call, 0.3 s):
 * what parking and waking costs a logging thread is then subtracted from its CPU, so that the
 * figure is what the logging call costs.
 */
public final class AppenderChild {

  private static final ThreadMXBean THREADS = (ThreadMXBean) ManagementFactory.getThreadMXBean();
  private static final long CALIBRATION_MILLIS = 300;

  private AppenderChild() {}

  /**
   * Runs the child.
   *
   * @param args {@link ChildSpec#toArgs()}
   * @throws Exception when the framework does not start or stop; the suite then records the run as
   *     failed
   */
  public static void main(String[] args) throws Exception {
    ChildSpec spec = ChildSpec.parse(args);
    Path work = Path.of(spec.workDir());
    boolean queueAttr =
        spec.variant().framework() == AppenderVariant.Framework.LOG4J2
            && Log4j2Target.hasQueueSizeAttribute();
    Path config = ConfigFiles.write(spec.variant(), work, queueAttr);
    URI sink = URI.create(spec.endpoint());
    System.setProperty(AliyunLocalAppender.PROPERTY, sink.getHost() + ":" + sink.getPort());
    System.setProperty("otlp.endpoint", spec.endpoint());
    System.setProperty(
        spec.variant().framework() == AppenderVariant.Framework.LOGBACK
            ? "logback.configurationFile"
            : "log4j2.configurationFile",
        config.toAbsolutePath().toString());
    LoggingTarget target = LoggingTarget.load(spec);
    new AppenderChild().run(spec, target, work, queueAttr);
    System.out.flush();
    System.exit(0);
  }

  private void run(ChildSpec spec, LoggingTarget target, Path work, boolean queueAttr)
      throws Exception {
    int n = spec.threads();
    CountDownLatch warm = new CountDownLatch(n);
    CountDownLatch go = new CountDownLatch(1);
    // the logging threads stay alive until their CPU was read from /proc (an exited thread is gone)
    CountDownLatch done = new CountDownLatch(n);
    CountDownLatch release = new CountDownLatch(1);
    long[] startAt = new long[1];
    long[][] perThread = new long[n][]; // {events, cpu ns, alloc bytes, pacing ns}
    Thread[] threads = new Thread[n];
    for (int t = 0; t < n; t++) {
      int k = t;
      threads[t] =
          new Thread(
              () -> {
                perThread[k] = logging(spec, target, k, warm, go, startAt);
                done.countDown();
                try {
                  release.await();
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
              },
              ThreadGroupCpu.LOGGING_PREFIX + t);
      threads[t].start();
    }
    if (!warm.await(10, TimeUnit.MINUTES)) {
      throw new IllegalStateException("the warm-up did not finish in 10 minutes");
    }
    System.out.println("warm");
    System.out.flush();
    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
    String line = in.readLine();
    if (!"go".equals(line)) {
      throw new IllegalStateException("expected 'go' from the suite, got " + line);
    }
    Recording jfr = null;
    if (!spec.jfrFile().isEmpty()) {
      jfr = new Recording(Configuration.getConfiguration("profile"));
      jfr.start();
    }
    Map<String, Object[]> threads0 = ThreadGroupCpu.threads();
    long proc0 = ThreadGroupCpu.processNanos();
    long t0 = System.nanoTime();
    startAt[0] = t0 + TimeUnit.MILLISECONDS.toNanos(1);
    go.countDown();
    done.await();
    long t1 = System.nanoTime();
    long proc1 = ThreadGroupCpu.processNanos();
    long[] groups = ThreadGroupCpu.byGroup(threads0, ThreadGroupCpu.threads());
    release.countDown();
    for (Thread t : threads) {
      t.join();
    }
    if (jfr != null) {
      jfr.stop();
      jfr.dump(Path.of(spec.jfrFile()));
      jfr.close();
    }
    target.stop();
    long t2 = System.nanoTime();
    long proc2 = ThreadGroupCpu.processNanos();
    groups[groups.length - 1] += Math.max(0, (proc1 - proc0) - LongStream.of(groups).sum());
    long[] sum = new long[4]; // {events, cpu ns, alloc bytes, pacing ns}
    for (long[] p : perThread) {
      Arrays.setAll(sum, i -> sum[i] + p[i]);
    }
    long fileLines =
        spec.variant().sink() == AppenderVariant.Sink.FILE
            ? lines(ConfigFiles.logFile(work, spec.variant()))
            : -1;
    ChildResult r =
        new ChildResult(
            sum[0],
            t1 - t0,
            t2 - t0,
            sum[1],
            sum[3],
            sum[2],
            proc2 - proc0,
            proc2 - proc1,
            groups,
            fileLines,
            queueAttr);
    System.out.println(r.format());
  }

  /** One logging thread: warm-up, calibration (paced), measured phase. */
  private static long[] logging(
      ChildSpec spec,
      LoggingTarget target,
      int k,
      CountDownLatch warm,
      CountDownLatch go,
      long[] startAt) {
    Workload w = new Workload(k);
    for (int i = 0; i < Workload.MDC_KEYS.length; i++) {
      target.putContext(Workload.MDC_KEYS[i], w.mdcValues[i]);
    }
    for (long i = 0; i < spec.warmupEventsPerThread(); i++) {
      int j = (int) (i & (Workload.SIZE - 1));
      target.log(w.ids[j], w.users[j]);
    }
    boolean paced = spec.regime() == Regime.PACED;
    double pacingPerEvent = 0;
    if (paced) {
      long calib = (long) (spec.ratePerThread() * CALIBRATION_MILLIS / 1000.0);
      Pacer p = new Pacer(spec.ratePerThread(), System.nanoTime());
      long c0 = THREADS.getCurrentThreadCpuTime();
      for (long i = 0; i < calib; i++) {
        p.awaitNext();
      }
      pacingPerEvent = (double) (THREADS.getCurrentThreadCpuTime() - c0) / Math.max(1, calib);
    }
    warm.countDown();
    try {
      go.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new long[4];
    }
    long events = spec.eventsEach();
    long cpu0 = THREADS.getCurrentThreadCpuTime();
    long alloc0 = THREADS.getCurrentThreadAllocatedBytes();
    if (paced) {
      // threads start evenly spread over one interval, so the events of all threads interleave
      double interval = 1e9 / spec.ratePerThread();
      Pacer p =
          new Pacer(spec.ratePerThread(), startAt[0] + (long) (interval * k / spec.threads()));
      for (long i = 0; i < events; i++) {
        p.awaitNext();
        int j = (int) (i & (Workload.SIZE - 1));
        target.log(w.ids[j], w.users[j]);
      }
    } else {
      for (long i = 0; i < events; i++) {
        int j = (int) (i & (Workload.SIZE - 1));
        target.log(w.ids[j], w.users[j]);
      }
    }
    long cpu = THREADS.getCurrentThreadCpuTime() - cpu0;
    long alloc = THREADS.getCurrentThreadAllocatedBytes() - alloc0;
    return new long[] {events, cpu, alloc, (long) (pacingPerEvent * events)};
  }

  /** The number of line feeds in {@code file} (a partly written last line does not count). */
  static long lines(Path file) throws IOException {
    long n = 0;
    byte[] buf = new byte[1 << 16];
    try (InputStream in = Files.newInputStream(file)) {
      for (int r; (r = in.read(buf)) > 0; ) {
        for (int i = 0; i < r; i++) {
          n += buf[i] == '\n' ? 1 : 0;
        }
      }
    }
    return n;
  }
}
