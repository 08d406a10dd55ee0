package io.logproducer.benchmark.harness;

import io.logproducer.benchmark.harness.RunSpec.Client;
import io.logproducer.benchmark.report.Report;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * One end-to-end run in a fresh JVM ({@link HarnessMain}) against a sink: starts it, shows its
 * progress, reads its result and adds what the sink and the machine saw over the measured phase
 * (the sink's count, bytes and CPU, the whole machine's CPU). Also the waits for a quiet,
 * full-speed machine before a run. Not thread-safe.
 *
 * @param preTouch whether the child touches its heap up front ({@code -XX:+AlwaysPreTouch}), so
 *     that page faults do not land in the measurements; {@code --quick} saves the second or two
 *     this takes
 */
record ChildRun(
    String java, String classpath, boolean preTouch, SinkProcess sink, PrintStream out) {

  /** What the child's output said: its result and when its measured phase ran. */
  private record Output(
      RunResult result,
      long measureStart,
      long measureEnd,
      long[] jiffiesStart,
      long[] jiffiesEnd) {}

  /**
   * Runs {@code spec} and returns its result with the sink's and the machine's figures.
   *
   * @param jfrFile where the child writes a JFR recording of its measured phase, or null
   * @param log the child's standard error
   * @throws IOException when the child produced no result (the message holds the log's tail)
   */
  RunResult run(RunSpec spec, Path jfrFile, Path log) throws IOException, InterruptedException {
    SinkStats before = sink.latest();
    Files.createDirectories(log.getParent());
    Process p = new ProcessBuilder(command(spec, jfrFile)).redirectError(log.toFile()).start();
    Output o = read(p);
    if (!p.waitFor(60, TimeUnit.SECONDS)) {
      p.destroyForcibly();
    }
    if (o.result() == null) {
      List<String> tail = Files.readAllLines(log, StandardCharsets.UTF_8);
      throw new IOException(
          "run '"
              + spec.label()
              + "' produced no result (exit "
              + p.exitValue()
              + "); "
              + "log "
              + log
              + ":\n  "
              + String.join("\n  ", tail.subList(Math.max(0, tail.size() - 20), tail.size())));
    }
    return spec.client() == Client.GENERATE ? o.result() : withSinkAndMachine(o, before);
  }

  private List<String> command(RunSpec spec, Path jfrFile) {
    List<String> cmd = new ArrayList<>(List.of(java, PerformanceSuite.ENABLE_NATIVE_ACCESS));
    if (!spec.defaultHeap()) { // else the JVM sizes its heap itself, as for the quick start
      cmd.addAll(List.of("-Xms4g", "-Xmx4g"));
      if (preTouch) {
        cmd.add("-XX:+AlwaysPreTouch");
      }
    }
    cmd.addAll(
        List.of("-cp", classpath, HarnessMain.class.getName(), "--endpoint", sink.endpoint(spec)));
    if (jfrFile != null) {
      cmd.add("--jfrFile");
      cmd.add(jfrFile.toAbsolutePath().toString());
    }
    cmd.addAll(spec.toArgs());
    return cmd;
  }

  /** Reads the child's output to its end, showing its progress lines. */
  private Output read(Process p) throws IOException {
    RunResult result = null;
    long measureStart = 0;
    long measureEnd = 0;
    long[] jiffiesStart = null;
    long[] jiffiesEnd = null;
    boolean console = System.console() != null;
    try (BufferedReader in =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = in.readLine()) != null) {
        if (line.startsWith("PHASE measure")) {
          measureStart = System.nanoTime();
          jiffiesStart = MachineInfo.cpuJiffies();
        } else if (line.startsWith("PROGRESS")) {
          progress(RunResult.parse(line.substring("PROGRESS ".length())), console);
        } else if (line.startsWith("RESULT")) {
          measureEnd = System.nanoTime();
          jiffiesEnd = MachineInfo.cpuJiffies();
          result = RunResult.parse(line);
        }
      }
    }
    if (console) {
      out.print("\r" + " ".repeat(80) + "\r");
    }
    return new Output(result, measureStart, measureEnd, jiffiesStart, jiffiesEnd);
  }

  private void progress(RunResult pr, boolean console) {
    String text =
        String.format(
            Locale.ROOT,
            "        %-7s %5ss  %,12.0f records/s%s",
            pr.get("phase"),
            pr.get("t"),
            pr.getDouble("rate"),
            pr.getLong("buffered") < 0
                ? ""
                : String.format(Locale.ROOT, "  buffered %6.1f MB", pr.getLong("buffered") / 1e6));
    if (console) {
      out.print("\r" + text);
      out.flush();
    } else if (pr.get("phase").equals("measure")) {
      out.println(text);
    }
  }

  /**
   * The result with the sink's count, bytes and CPU, and the whole machine's CPU, over the measured
   * phase.
   */
  private RunResult withSinkAndMachine(Output o, SinkStats before) throws InterruptedException {
    RunResult result = o.result();
    long expected = before.records() + result.getLong("warmupDelivered") + result.delivered();
    SinkStats after = sink.awaitRecords(expected, 5_000);
    result =
        result
            .with(
                "sinkRecords",
                after.records() - before.records() - result.getLong("warmupDelivered"))
            .with("sinkWireBytes", after.wireBytes() - before.wireBytes())
            .with("sinkBad", after.bad() - before.bad());
    if (result.getLong("wireBytes") < 0) {
      // The client does not count request bytes (OTel): the sink's, apportioned to the measured
      // phase's records.
      long all = result.delivered() + result.getLong("warmupDelivered");
      result =
          result
              .with(
                  "wireBytes",
                  all == 0
                      ? 0
                      : Math.round(
                          (after.wireBytes() - before.wireBytes())
                              * (double) result.delivered()
                              / all))
              .with("wireBytesFromSink", true);
    }
    List<SinkStats> window = sink.between(o.measureStart(), o.measureEnd());
    if (window.size() >= 2) {
      SinkStats a = window.get(0);
      SinkStats b = window.get(window.size() - 1);
      long records = b.records() - a.records();
      double seconds = (b.readAtNanos() - a.readAtNanos()) / 1e9;
      if (records > 0) {
        result =
            result.with(
                "sinkCpuNanosPerRecord",
                String.format(
                    Locale.ROOT, "%.1f", (b.cpuNanos() - a.cpuNanos()) / (double) records));
      }
      if (seconds > 0) {
        result =
            result.with(
                "sinkCpuPercent",
                String.format(
                    Locale.ROOT, "%.1f", 100.0 * (b.cpuNanos() - a.cpuNanos()) / 1e9 / seconds));
      }
    }
    double machineBusy = MachineInfo.busyPercent(o.jiffiesStart(), o.jiffiesEnd());
    if (!Double.isNaN(machineBusy)) {
      result = result.with("machineBusyPercent", String.format(Locale.ROOT, "%.1f", machineBusy));
    }
    return result;
  }

  /**
   * Waits while other processes keep more than a third of a core busy, so that runs are comparable:
   * up to {@code maxWaitSeconds}.
   */
  static void awaitQuietMachine(double maxWaitSeconds, PrintStream out)
      throws InterruptedException {
    long deadline = System.nanoTime() + (long) (Math.max(0, maxWaitSeconds) * 1e9);
    boolean told = false;
    while (true) {
      long[] a = MachineInfo.cpuJiffies();
      Thread.sleep(500);
      long[] b = MachineInfo.cpuJiffies();
      double busy = MachineInfo.busyPercent(a, b);
      // the idle sink uses ~1 %; anything above is someone else
      if (Double.isNaN(busy) || busy < 35 || System.nanoTime() > deadline) {
        if (told) {
          out.printf(Locale.ROOT, "        (machine busy at %.0f%%, running anyway)%n", busy);
        }
        return;
      }
      if (!told) {
        out.printf(
            Locale.ROOT,
            "        waiting for other processes to quiet down (machine busy at %.0f%% of a core)…%n",
            busy);
        told = true;
      }
    }
  }

  /**
   * Probes the machine's speed and, while it is slowed (see {@link SpeedProbe}), waits and probes
   * again: up to {@code maxWaitSeconds}.
   *
   * @return the last probe, ns per record
   */
  static double awaitFullSpeed(SpeedProbe probe, double maxWaitSeconds, PrintStream out)
      throws InterruptedException {
    long deadline = System.nanoTime() + (long) (Math.max(0, maxWaitSeconds) * 1e9);
    double ns = probe.measure();
    boolean told = false;
    while (ns > SpeedProbe.SLOW * probe.fastest() && System.nanoTime() < deadline) {
      if (!told) {
        out.printf(
            Locale.ROOT,
            "        waiting for the machine to run at full speed (speed probe %.2f× the "
                + "fastest)…%n",
            ns / probe.fastest());
        told = true;
      }
      Thread.sleep(1000);
      ns = probe.measure();
    }
    if (told) {
      out.printf(
          Locale.ROOT, "        (speed probe %.2f× the fastest, running)%n", ns / probe.fastest());
    }
    return ns;
  }

  /** A one-line summary of a run's result, for the console. */
  static String summary(RunSpec spec, RunResult r) {
    LatencyHistogram h = r.latency();
    StringBuilder sb =
        new StringBuilder(
            String.format(
                Locale.ROOT,
                "%s records/s, %s raw MB/s, %s wire MB/s, CPU %s",
                Report.count(r.recordsPerSec()),
                Report.f1(r.rawMbPerSec()),
                Report.f1(r.wireMbPerSec()),
                Report.pct(r.cpuPercent())));
    if (h.count() > 0) {
      sb.append(", send p50/p99/p999 ")
          .append(Report.nanos(h.percentile(50)))
          .append('/')
          .append(Report.nanos(h.percentile(99)))
          .append('/')
          .append(Report.nanos(h.percentile(99.9)));
    }
    if (spec.client() != Client.GENERATE) {
      sb.append(r.verified() ? ", sink ✓ " : ", sink MISMATCH ")
          .append(Report.count(r.getLong("sinkRecords")));
      long lost = r.getLong("emitted") - r.delivered();
      if (lost > 0) {
        sb.append(
            String.format(
                Locale.ROOT,
                ", NOT DELIVERED %s of %s (%.1f%%)",
                Report.count(lost),
                Report.count(r.getLong("emitted")),
                r.lossPercent()));
      }
    }
    if (r.getLong("totalSizeInBytes") > 0
        && r.getLong("peakBufferedBytes") > r.getLong("totalSizeInBytes")) {
      sb.append(", PEAK BUFFERED ABOVE totalSizeInBytes");
    }
    if (r.has("sysNanos") && r.delivered() > 0) {
      sb.append(
          String.format(
              Locale.ROOT,
              ", %.2f µs/record (sys %.0f%%), %.1f ctx switches/1000 records",
              r.cpuMicrosPerRecord(),
              100.0 * r.getLong("sysNanos") / Math.max(1, r.getLong("cpuNanos")),
              1000.0 * (r.getLong("ctxVoluntary") + r.getLong("ctxInvoluntary")) / r.delivered()));
      sb.append(byGroup(r));
    }
    if (r.has("sinkCpuPercent")) {
      sb.append(", sink CPU ").append(Report.pct(r.getDouble("sinkCpuPercent")));
    }
    if (r.has("machineBusyPercent")) {
      sb.append(", machine ").append(Report.pct(r.getDouble("machineBusyPercent")));
    }
    if (r.has("machineSlowdown")) {
      sb.append(", speed probe ").append(r.get("machineSlowdown")).append("× the fastest");
    }
    return sb.toString();
  }

  /**
   * {@return " (app 0.97, sender 0.27, gc 0.01, jit 0.05, vm 0.01 µs)"}: the run's CPU per
   * delivered record by thread group, warm-up threads left out; empty without groups}
   */
  static String byGroup(RunResult r) {
    StringBuilder sb = new StringBuilder();
    double delivered = Math.max(1, r.delivered());
    r.cpuByGroup()
        .forEach(
            (g, v) -> {
              if (!g.equals("warmup") && v > 0) {
                sb.append(sb.length() == 0 ? " (" : ", ")
                    .append(g)
                    .append(' ')
                    .append(String.format(Locale.ROOT, "%.2f", v / 1e3 / delivered));
              }
            });
    return sb.length() == 0 ? "" : sb.append(" µs)").toString();
  }
}
