package io.logproducer.benchmark.soak;

import static io.logproducer.benchmark.soak.SoakMain.MIB;
import static io.logproducer.benchmark.soak.SoakMain.fmt;

import io.logproducer.benchmark.report.Charts;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * The soak's chart ({@code soak/soak.svg}): heap after GC, buffered bytes, live threads and
 * delivered records/s over time in four stacked panels, the outages shaded and the windows the heap
 * rule compares marked.
 */
final class SoakChart {

  static final String FILE = "soak.svg";

  private final SoakOptions o;
  private final boolean pass;
  private final List<SoakMain.Sample> samples;
  private final List<SoakMain.GcEvent> gcs;
  private final List<SoakMain.Outage> outages;

  SoakChart(
      SoakOptions o,
      boolean pass,
      List<SoakMain.Sample> samples,
      List<SoakMain.GcEvent> gcs,
      List<SoakMain.Outage> outages) {
    this.o = o;
    this.pass = pass;
    this.samples = samples;
    this.gcs = gcs;
    this.outages = outages;
  }

  private static final int W = 1000;
  private static final int PANEL_H = 150;
  private static final int GAP = 34;
  private static final int LEFT = 70;
  private static final int RIGHT = 20;
  private static final int TOP = 62;

  String svg() {
    double tMax =
        Math.max(o.durationSeconds(), samples.isEmpty() ? 0 : samples.get(samples.size() - 1).t());
    tMax = Math.max(1, tMax);
    int panels = 4;
    int h = TOP + panels * (PANEL_H + GAP) + 30;
    StringBuilder sb = new StringBuilder();
    sb.append(
        String.format(
            Locale.ROOT,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                + "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">%n",
            W,
            h,
            W,
            h));
    sb.append(
        String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", W, h));
    sb.append(
        String.format(
            Locale.ROOT,
            "<text x=\"%d\" y=\"24\" font-size=\"16\" font-weight=\"bold\" "
                + "text-anchor=\"middle\">Soak: %s min, receiver down every %d s for %d s, %s, %s</text>%n",
            W / 2,
            fmt(o.minutes),
            o.downEveryS,
            o.downForS,
            o.rate == 0 ? "max rate" : String.format(Locale.ROOT, "%,d records/s", o.rate),
            pass ? "PASS" : "FAIL"));

    // heap after GC (every GC), MB
    double[][] heap = new double[gcs.size()][];
    for (int i = 0; i < gcs.size(); i++) {
      heap[i] = new double[] {gcs.get(i).t(), gcs.get(i).heapAfterBytes() / (double) MIB};
    }
    if (gcs.isEmpty()) {
      heap =
          series(s -> s.heapAfterGcBytes() < 0 ? Double.NaN : s.heapAfterGcBytes() / (double) MIB);
    }
    double[][] buffered = series(s -> s.bufferedBytes() / (double) MIB);
    double[][] threads = series(s -> s.threads());
    double[][] rate = new double[Math.max(0, samples.size() - 1)][];
    for (int i = 1; i < samples.size(); i++) {
      SoakMain.Sample a = samples.get(i - 1);
      SoakMain.Sample b = samples.get(i);
      rate[i - 1] =
          new double[] {b.t(), (b.delivered() - a.delivered()) / Math.max(1e-3, b.t() - a.t())};
    }
    panel(sb, 0, tMax, "heap after GC (MB)", heap, "#1f77b4", true, Double.NaN, null);
    panel(
        sb,
        1,
        tMax,
        "buffered (MB)",
        buffered,
        "#2ca02c",
        false,
        o.totalSizeBytes / (double) MIB,
        "totalSizeInBytes");
    panel(sb, 2, tMax, "live threads", threads, "#9467bd", false, Double.NaN, null);
    panel(sb, 3, tMax, "delivered records/s", rate, "#ff7f0e", false, Double.NaN, null);
    int y = TOP + panels * (PANEL_H + GAP) + 6;
    sb.append(
        String.format(
            Locale.ROOT,
            "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">time (s); "
                + "end of sending at %s s</text>%n",
            LEFT + (W - LEFT - RIGHT) / 2,
            y,
            fmt(o.durationSeconds())));
    sb.append("</svg>\n");
    return sb.toString();
  }

  private double[][] series(ToDoubleFunction<SoakMain.Sample> f) {
    double[][] out = new double[samples.size()][];
    for (int i = 0; i < samples.size(); i++) {
      out[i] = new double[] {samples.get(i).t(), f.applyAsDouble(samples.get(i))};
    }
    return out;
  }

  private void panel(
      StringBuilder sb,
      int index,
      double tMax,
      String label,
      double[][] points,
      String color,
      boolean dots,
      double limit,
      String limitLabel) {
    int y0 = TOP + index * (PANEL_H + GAP);
    double max = Double.isNaN(limit) ? 0 : limit;
    double min = Double.MAX_VALUE;
    for (double[] p : points) {
      if (!Double.isNaN(p[1])) {
        max = Math.max(max, p[1]);
        min = Math.min(min, p[1]);
      }
    }
    double lo = 0;
    if (label.equals("live threads") && min != Double.MAX_VALUE) {
      lo = Math.max(0, Math.floor(min) - 5); // small variations should be visible
    }
    double step = Charts.Axis.niceStep(Math.max(1e-9, max - lo) / 4);
    lo = Math.floor(lo / step) * step;
    double hi = lo + Math.max(1, Math.ceil((max * 1.05 - lo) / step)) * step;
    markTimeline(sb, index, tMax, y0);
    gridAndTicks(sb, tMax, y0, lo, hi, step);
    frameAndLabels(sb, y0, label, color, limit, limitLabel, lo, hi);
    plotSeries(sb, points, tMax, y0, lo, hi, color, dots);
  }

  /** Shades the outages, marks the heap-rule windows (top panel) and the end of sending. */
  private void markTimeline(StringBuilder sb, int index, double tMax, int y0) {
    int plotW = W - LEFT - RIGHT;
    // outages
    for (SoakMain.Outage out : outages) {
      double x1 = LEFT + out.from() / tMax * plotW;
      double x2 = LEFT + out.to() / tMax * plotW;
      sb.append(
          String.format(
              Locale.ROOT,
              "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\" "
                  + "fill-opacity=\"0.15\"/>%n",
              x1,
              y0,
              Math.max(0.5, x2 - x1),
              PANEL_H,
              out.mode().startsWith("503") ? "#ff7f0e" : "#d62728"));
    }
    if (index == 0) {
      // the windows the heap rule compares
      double w0 = o.warmup();
      double win = o.window();
      double end = o.durationSeconds();
      window(sb, LEFT + w0 / tMax * plotW, LEFT + (w0 + win) / tMax * plotW, y0, "first window");
      window(sb, LEFT + (end - win) / tMax * plotW, LEFT + end / tMax * plotW, y0, "last window");
    }
    // end of sending
    double xe = LEFT + o.durationSeconds() / tMax * plotW;
    sb.append(
        String.format(
            Locale.ROOT,
            "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#555\" "
                + "stroke-dasharray=\"2,3\"/>%n",
            xe,
            y0,
            xe,
            y0 + PANEL_H));
  }

  /** Draws the horizontal grid with y tick labels and the x ticks. */
  private static void gridAndTicks(
      StringBuilder sb, double tMax, int y0, double lo, double hi, double step) {
    int plotW = W - LEFT - RIGHT;
    // y grid and ticks
    for (double v = lo; v <= hi + step / 1000; v += step) {
      double y = y0 + PANEL_H - (v - lo) / (hi - lo) * PANEL_H;
      sb.append(
          String.format(
              Locale.ROOT,
              "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#e6e6e6\"/>%n",
              LEFT,
              y,
              LEFT + plotW,
              y));
      sb.append(
          String.format(
              Locale.ROOT,
              "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" fill=\"#333\">%s</text>%n",
              LEFT - 6,
              y + 4,
              tick(v)));
    }
    // x ticks
    double xStep = tMax <= 120 ? 10 : tMax <= 400 ? 30 : 60;
    for (double t = 0; t <= tMax + 1e-9; t += xStep) {
      double x = LEFT + t / tMax * plotW;
      sb.append(
          String.format(
              Locale.ROOT,
              "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#333\"/>%n",
              x,
              y0 + PANEL_H,
              x,
              y0 + PANEL_H + 4));
      sb.append(
          String.format(
              Locale.ROOT,
              "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" fill=\"#333\" "
                  + "font-size=\"10\">%s</text>%n",
              x,
              y0 + PANEL_H + 15,
              fmt(t)));
    }
  }

  /** Draws the panel frame, its title and the optional limit line. */
  private static void frameAndLabels(
      StringBuilder sb,
      int y0,
      String label,
      String color,
      double limit,
      String limitLabel,
      double lo,
      double hi) {
    int plotW = W - LEFT - RIGHT;
    sb.append(
        String.format(
            Locale.ROOT,
            "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
                + "stroke=\"#333\"/>%n",
            LEFT,
            y0,
            plotW,
            PANEL_H));
    sb.append(
        String.format(
            Locale.ROOT,
            "<text x=\"%d\" y=\"%d\" font-weight=\"bold\" fill=\"%s\">%s</text>%n",
            LEFT + 6,
            y0 + 14,
            color,
            esc(label)));
    if (!Double.isNaN(limit)) {
      double y = y0 + PANEL_H - (limit - lo) / (hi - lo) * PANEL_H;
      sb.append(
          String.format(
              Locale.ROOT,
              "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#d62728\" "
                  + "stroke-dasharray=\"6,4\"/>%n",
              LEFT,
              y,
              LEFT + plotW,
              y));
      sb.append(
          String.format(
              Locale.ROOT,
              "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" fill=\"#d62728\">%s</text>" + "%n",
              LEFT + plotW - 4,
              y - 4,
              esc(limitLabel)));
    }
  }

  /** Draws the series as a path, with a dot per sample when asked; NaN breaks the line. */
  private static void plotSeries(
      StringBuilder sb,
      double[][] points,
      double tMax,
      int y0,
      double lo,
      double hi,
      String color,
      boolean dots) {
    int plotW = W - LEFT - RIGHT;
    // data
    StringBuilder path = new StringBuilder();
    boolean pen = false;
    for (double[] p : points) {
      if (Double.isNaN(p[1])) {
        pen = false;
        continue;
      }
      double x = LEFT + p[0] / tMax * plotW;
      double y = y0 + PANEL_H - (p[1] - lo) / (hi - lo) * PANEL_H;
      path.append(pen ? " L" : " M").append(String.format(Locale.ROOT, "%.1f %.1f", x, y));
      pen = true;
      if (dots) {
        sb.append(
            String.format(
                Locale.ROOT,
                "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"1.8\" fill=\"%s\"/>%n",
                x,
                y,
                color));
      }
    }
    if (path.length() > 0) {
      sb.append(
          String.format(
              Locale.ROOT,
              "<path d=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"%s\"/>%n",
              path.toString().trim(),
              color,
              dots ? "0.8" : "1.5"));
    }
  }

  private static void window(StringBuilder sb, double x1, double x2, int y0, String label) {
    sb.append(
        String.format(
            Locale.ROOT,
            "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#1f77b4\" "
                + "stroke-width=\"3\"/>%n",
            x1 + 2,
            y0 - 4,
            x2 - 2,
            y0 - 4));
    for (double x : new double[] {x1 + 2, x2 - 2}) {
      sb.append(
          String.format(
              Locale.ROOT,
              "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#1f77b4\" "
                  + "stroke-width=\"1.5\"/>%n",
              x,
              y0 - 9,
              x,
              y0 + 1));
    }
    sb.append(
        String.format(
            Locale.ROOT,
            "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" fill=\"#1f77b4\" "
                + "font-size=\"10\">%s</text>%n",
            (x1 + x2) / 2,
            y0 - 8,
            label));
  }

  private static String tick(double v) {
    if (v >= 1e6) {
      return String.format(Locale.ROOT, "%.1fM", v / 1e6);
    }
    if (v >= 1e4) {
      return String.format(Locale.ROOT, "%.0fk", v / 1e3);
    }
    return v == Math.rint(v)
        ? String.format(Locale.ROOT, "%.0f", v)
        : String.format(Locale.ROOT, "%.1f", v);
  }

  private static String esc(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }
}
