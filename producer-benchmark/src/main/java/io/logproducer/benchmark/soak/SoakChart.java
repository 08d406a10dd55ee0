package io.logproducer.benchmark.soak;

import static io.logproducer.benchmark.soak.SoakMain.MIB;
import static io.logproducer.benchmark.soak.SoakMain.fmt;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.annotations.XYTextAnnotation;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.CombinedDomainXYPlot;
import org.jfree.chart.plot.IntervalMarker;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.ui.Layer;
import org.jfree.chart.ui.RectangleAnchor;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * The soak's chart ({@code soak/soak.png}, JFreeChart): heap after GC, buffered bytes, live threads
 * and delivered records/s over time in four stacked panels, the outages shaded (red: connection
 * refused, orange: 503) and the windows the heap rule compares marked. {@link #main} redraws it
 * from a finished soak's files: {@code java -cp producer-benchmark/target/benchmarks.jar
 * io.logproducer.benchmark.soak.SoakChart docs}.
 */
final class SoakChart {

  static final String FILE = "soak.png";

  private static final Color RED = new Color(0xd62728);
  private static final Color ORANGE = new Color(0xff7f0e);
  private static final Color BLUE = new Color(0x1f77b4);

  private SoakChart() {}

  /**
   * Redraws {@code DIR/soak/soak.png} from {@code DIR/SOAK.md} (the run's options from its command
   * block, its verdict from its result block, its outages from its outages table) and {@code
   * DIR/soak/samples.csv} and {@code gc.csv}; {@code DIR} is the soak's {@code --out}, {@code docs}
   * by default. The command's options must be unquoted (as {@code run-soak.sh} writes them).
   */
  public static void main(String[] args) throws IOException {
    Path out = Path.of(args.length > 0 ? args[0] : "docs");
    Path dir = out.resolve(SoakReport.DIR);
    String page = Files.readString(out.resolve(SoakReport.PAGE), StandardCharsets.UTF_8);
    String command = block(page, "command").replaceAll("(?s)```sh\\s*|\\s*```", "").trim();
    String[] argv = command.split("\\s+");
    SoakOptions o = new SoakOptions();
    new picocli.CommandLine(o)
        .setCaseInsensitiveEnumValuesAllowed(true)
        .parseArgs(List.of(argv).subList(1, argv.length).toArray(new String[0]));
    List<SoakMain.Outage> outages = new ArrayList<>();
    for (String row : block(page, "outages").split("\n")) {
      String[] c = row.split("\\s*\\|\\s*");
      if (c.length > 4 && c[1].matches("\\d+")) {
        outages.add(
            new SoakMain.Outage(
                Integer.parseInt(c[1]), c[2], Double.parseDouble(c[3]), Double.parseDouble(c[4])));
      }
    }
    List<SoakMain.Sample> samples = new ArrayList<>();
    for (String[] f : csv(dir.resolve("samples.csv"))) {
      samples.add(
          new SoakMain.Sample(
              Double.parseDouble(f[0]),
              f[1],
              l(f[3]),
              l(f[4]),
              (int) l(f[5]),
              l(f[6]),
              (int) l(f[7]),
              l(f[8]),
              l(f[9]),
              l(f[10]),
              l(f[11]),
              f[2],
              l(f[12]),
              l(f[13]),
              l(f[14])));
    }
    List<SoakMain.GcEvent> gcs = new ArrayList<>();
    for (String[] f : csv(dir.resolve("gc.csv"))) {
      gcs.add(new SoakMain.GcEvent(Double.parseDouble(f[0]), f[1], f[2], f[3], l(f[4]), l(f[5])));
    }
    boolean pass = block(page, "result").startsWith("PASS");
    write(dir.resolve(FILE), o, pass, samples, gcs, outages);
    System.out.println("wrote " + dir.resolve(FILE));
  }

  private static String block(String page, String name) {
    int from = page.indexOf("<!-- data:" + name + " -->");
    if (from < 0) {
      throw new IllegalArgumentException("no block '" + name + "' in the soak page");
    }
    from = page.indexOf("-->", from) + 3;
    return page.substring(from, page.indexOf("<!-- /data -->", from)).trim();
  }

  private static List<String[]> csv(Path file) throws IOException {
    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    return lines.subList(1, lines.size()).stream().map(s -> s.split(",", -1)).toList();
  }

  private static long l(String s) {
    return Long.parseLong(s);
  }

  /** Draws the chart of a soak run into {@code file} (1000×760 PNG). */
  static void write(
      Path file,
      SoakOptions o,
      boolean pass,
      List<SoakMain.Sample> samples,
      List<SoakMain.GcEvent> gcs,
      List<SoakMain.Outage> outages)
      throws IOException {
    double tMax =
        Math.max(
            1,
            Math.max(
                o.durationSeconds(), samples.isEmpty() ? 0 : samples.get(samples.size() - 1).t()));
    // heap after every GC; without GC notifications, the sampled heap after GC
    XYSeries heap = new XYSeries("heap", false, true);
    gcs.forEach(g -> heap.add(g.t(), g.heapAfterBytes() / (double) MIB));
    if (gcs.isEmpty()) {
      samples.forEach(
          s ->
              heap.add(
                  s.t(), s.heapAfterGcBytes() < 0 ? null : s.heapAfterGcBytes() / (double) MIB));
    }
    XYSeries rate = new XYSeries("rate", false, true);
    for (int i = 1; i < samples.size(); i++) {
      SoakMain.Sample a = samples.get(i - 1);
      SoakMain.Sample b = samples.get(i);
      rate.add(b.t(), (b.delivered() - a.delivered()) / Math.max(1e-3, b.t() - a.t()));
    }
    NumberAxis time =
        new NumberAxis("time (s); end of sending at " + fmt(o.durationSeconds()) + " s");
    time.setRange(0, tMax);
    CombinedDomainXYPlot plot = new CombinedDomainXYPlot(time);
    plot.setGap(14);
    XYPlot heapPanel = panel("heap after GC (MB)", heap, BLUE, true);
    double w0 = o.warmup();
    double end = o.durationSeconds();
    double top = heap.isEmpty() ? 1 : heap.getMaxY() * 1.08;
    window(heapPanel, w0, w0 + o.window(), top, "first window");
    window(heapPanel, end - o.window(), end, top, "last window");
    plot.add(heapPanel);
    XYPlot buffered =
        panel("buffered (MB)", series(samples, s -> s.bufferedBytes() / (double) MIB), 0x2ca02c);
    ValueMarker limit = new ValueMarker(o.totalSizeBytes / (double) MIB, RED, dashed(1f));
    limit.setLabel("totalSizeInBytes");
    limit.setLabelPaint(RED);
    limit.setLabelAnchor(RectangleAnchor.TOP_RIGHT);
    limit.setLabelTextAnchor(TextAnchor.BOTTOM_RIGHT);
    buffered.addRangeMarker(limit);
    plot.add(buffered);
    XYPlot threads = panel("live threads", series(samples, s -> s.threads()), 0x9467bd);
    ((NumberAxis) threads.getRangeAxis()).setAutoRangeIncludesZero(false);
    plot.add(threads);
    plot.add(panel("delivered records/s", rate, ORANGE, false));
    for (XYPlot p : plot.getSubplots()) {
      for (SoakMain.Outage out : outages) {
        Color c = out.mode().startsWith("503") ? ORANGE : RED;
        p.addDomainMarker(
            new IntervalMarker(out.from(), out.to(), c, new BasicStroke(), null, null, 0.2f),
            Layer.BACKGROUND);
      }
      p.addDomainMarker(new ValueMarker(end, Color.DARK_GRAY, dashed(1f)));
    }
    String title =
        "Soak: %s min, receiver down every %d s for %d s, %s, %s"
            .formatted(
                fmt(o.minutes),
                o.downEveryS,
                o.downForS,
                o.rate == 0 ? "max rate" : String.format(Locale.ROOT, "%,d records/s", o.rate),
                pass ? "PASS" : "FAIL");
    JFreeChart chart = new JFreeChart(title, new Font(Font.SANS_SERIF, Font.BOLD, 16), plot, false);
    chart.setBackgroundPaint(Color.WHITE);
    Files.createDirectories(file.toAbsolutePath().getParent());
    ChartUtils.saveChartAsPNG(file.toFile(), chart, 1000, 760);
  }

  private static XYSeries series(
      List<SoakMain.Sample> samples, ToDoubleFunction<SoakMain.Sample> f) {
    XYSeries s = new XYSeries("s", false, true);
    samples.forEach(x -> s.add(x.t(), f.applyAsDouble(x)));
    return s;
  }

  private static XYPlot panel(String label, XYSeries s, int rgb) {
    return panel(label, s, new Color(rgb), false);
  }

  /** One panel: a line in {@code color}, with a dot per point when {@code dots}. */
  private static XYPlot panel(String label, XYSeries s, Color color, boolean dots) {
    XYLineAndShapeRenderer r = new XYLineAndShapeRenderer(true, dots);
    r.setSeriesPaint(0, color);
    r.setSeriesStroke(0, new BasicStroke(dots ? 0.8f : 1.5f));
    r.setSeriesShape(0, new java.awt.geom.Ellipse2D.Double(-1.8, -1.8, 3.6, 3.6));
    NumberAxis y = new NumberAxis(label);
    y.setLabelPaint(color);
    XYPlot p = new XYPlot(new XYSeriesCollection(s), null, y, r);
    p.setBackgroundPaint(Color.WHITE);
    p.setRangeGridlinePaint(new Color(0xC8C8C8));
    p.setDomainGridlinePaint(new Color(0xE6E6E6));
    return p;
  }

  /** Marks one of the two windows the heap rule compares, as a labelled blue band. */
  private static void window(XYPlot p, double from, double to, double top, String label) {
    p.addDomainMarker(
        new IntervalMarker(
            from, to, BLUE, new BasicStroke(1.5f), BLUE, new BasicStroke(1.5f), 0.1f),
        Layer.BACKGROUND);
    XYTextAnnotation a = new XYTextAnnotation(label, (from + to) / 2, top);
    a.setPaint(BLUE);
    a.setTextAnchor(TextAnchor.TOP_CENTER);
    p.addAnnotation(a);
  }

  private static BasicStroke dashed(float width) {
    return new BasicStroke(
        width, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 1f, new float[] {6f, 4f}, 0f);
  }
}
