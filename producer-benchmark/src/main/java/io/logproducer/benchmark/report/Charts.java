package io.logproducer.benchmark.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Component;
import java.awt.Font;
import java.awt.Graphics;
import java.awt.geom.Ellipse2D;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.FieldPosition;
import java.text.NumberFormat;
import java.text.ParsePosition;
import java.util.List;
import java.util.Locale;
import java.util.function.DoubleFunction;
import javax.swing.Icon;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.axis.ValueAxis;
import org.jfree.chart.labels.ItemLabelAnchor;
import org.jfree.chart.labels.ItemLabelPosition;
import org.jfree.chart.labels.StandardCategoryItemLabelGenerator;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.DatasetRenderingOrder;
import org.jfree.chart.renderer.category.AbstractCategoryItemRenderer;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.renderer.category.LineAndShapeRenderer;
import org.jfree.chart.renderer.category.MinMaxCategoryRenderer;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.chart.ui.RectangleEdge;
import org.jfree.chart.ui.RectangleInsets;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.category.DefaultCategoryDataset;

/**
 * Line and grouped-bar charts over categories, drawn with JFreeChart in headless mode and written
 * as 960×540 PNG. Linear or logarithmic y axis; values may be NaN (point omitted).
 */
public final class Charts {

  static {
    System.setProperty("java.awt.headless", "true");
  }

  private static final Color[] PALETTE = {
    new Color(0x1f77b4),
    new Color(0xd62728),
    new Color(0x2ca02c),
    new Color(0xff7f0e),
    new Color(0x9467bd),
    new Color(0x8c564b),
    new Color(0x7f7f7f)
  };

  private static final int W = 960;
  private static final int H = 540;

  private Charts() {}

  /**
   * One named series of y values, one per category; {@code low} and {@code high}, when not null,
   * are the slowest and fastest of the runs behind each value, drawn as a whisker.
   */
  public record Series(String name, double[] values, double[] low, double[] high) {
    public Series(String name, double[] values) {
      this(name, values, null, null);
    }

    private double at(double[] a, int i) {
      return a == null || i >= a.length || !(a[i] > 0) ? Double.NaN : a[i];
    }
  }

  /**
   * Draws a line chart, or a grouped bar chart when {@code bars} (one group per category, one bar
   * per series), into {@code file}.
   */
  static void draw(
      Path file,
      String title,
      String xLabel,
      String yLabel,
      List<String> categories,
      List<Series> series,
      boolean logY,
      boolean bars)
      throws IOException {
    var values = new DefaultCategoryDataset();
    var whiskers = new DefaultCategoryDataset();
    double max = 0;
    double min = Double.MAX_VALUE;
    for (Series s : series) {
      for (int i = 0; i < categories.size(); i++) {
        double v = s.at(s.values(), i);
        double lo = s.at(s.low(), i);
        double hi = s.at(s.high(), i);
        values.addValue(Double.isNaN(v) ? null : v, s.name(), categories.get(i));
        if (s.low() != null) { // a row for every category, so that both datasets' columns align
          boolean whisker = hi > lo; // NaN compares false
          whiskers.addValue(whisker ? lo : null, s.name() + " slowest", categories.get(i));
          whiskers.addValue(whisker ? hi : null, s.name() + " fastest", categories.get(i));
        }
        for (double d : new double[] {v, lo, hi}) {
          max = Double.isNaN(d) ? max : Math.max(max, d);
          min = Double.isNaN(d) ? min : Math.min(min, d);
        }
      }
    }
    AbstractCategoryItemRenderer renderer = bars ? barRenderer() : new LineAndShapeRenderer();
    for (int si = 0; si < series.size(); si++) {
      renderer.setSeriesPaint(si, PALETTE[si % PALETTE.length]);
      renderer.setSeriesStroke(si, new BasicStroke(2.5f));
      renderer.setSeriesShape(si, new Ellipse2D.Double(-4, -4, 8, 8));
    }
    // value labels only where they fit: the old hand-drawn charts' rule, a bar at least 26 px wide
    boolean labels = !bars || W * 0.8 / Math.max(1, categories.size() * series.size()) >= 26;
    renderer.setDefaultItemLabelGenerator(
        new StandardCategoryItemLabelGenerator("{2}", format(Charts::valueLabel)));
    renderer.setDefaultItemLabelsVisible(labels);
    renderer.setDefaultItemLabelFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
    if (whiskers.getRowCount() > 0) { // the label beside the point or mid-bar, off the whisker
      renderer.setDefaultPositiveItemLabelPosition(
          bars
              ? new ItemLabelPosition(ItemLabelAnchor.CENTER, TextAnchor.CENTER)
              : new ItemLabelPosition(ItemLabelAnchor.OUTSIDE3, TextAnchor.CENTER_LEFT));
      renderer.setItemLabelInsets(new RectangleInsets(4, 8, 4, 8));
    }
    CategoryAxis x = new CategoryAxis(xLabel);
    x.setMaximumCategoryLabelLines(3);
    x.setMaximumCategoryLabelWidthRatio(1.2f);
    ValueAxis y = yAxis(yLabel, logY, max > 0 ? min : 1, max > 0 ? max : 1);
    if (renderer instanceof BarRenderer b) {
      b.setBase(y.getLowerBound()); // bars start at the axis, also on a log axis
      b.setPositiveItemLabelPositionFallback( // above a bar too short to hold its label
          new ItemLabelPosition(ItemLabelAnchor.OUTSIDE12, TextAnchor.BOTTOM_CENTER));
    }
    CategoryPlot plot = new CategoryPlot(values, x, y, renderer);
    plot.setBackgroundPaint(Color.WHITE);
    plot.setRangeGridlinePaint(new Color(0xC8C8C8));
    if (whiskers.getRowCount() > 0) {
      plot.setDataset(1, whiskers);
      plot.setRenderer(1, whiskerRenderer());
      plot.setDatasetRenderingOrder(DatasetRenderingOrder.FORWARD);
    }
    JFreeChart chart = new JFreeChart(title, new Font(Font.SANS_SERIF, Font.BOLD, 18), plot, true);
    chart.setBackgroundPaint(Color.WHITE);
    chart.getLegend().setPosition(RectangleEdge.BOTTOM);
    Files.createDirectories(file.toAbsolutePath().getParent());
    ChartUtils.saveChartAsPNG(file.toFile(), chart, W, H);
  }

  private static BarRenderer barRenderer() {
    BarRenderer r = new BarRenderer();
    r.setBarPainter(new StandardBarPainter());
    r.setShadowVisible(false);
    r.setItemMargin(0.02);
    return r;
  }

  /**
   * Draws each category's slowest-to-fastest pair of the whisker dataset as a black line with caps.
   */
  private static MinMaxCategoryRenderer whiskerRenderer() {
    Icon cap =
        new Icon() {
          @Override
          public void paintIcon(Component c, Graphics g, int x, int y) {
            g.setColor(Color.BLACK);
            g.drawLine(x - 5, y, x + 5, y);
          }

          @Override
          public int getIconWidth() {
            return 10;
          }

          @Override
          public int getIconHeight() {
            return 1;
          }
        };
    MinMaxCategoryRenderer r = new MinMaxCategoryRenderer();
    r.setObjectIcon(cap);
    r.setMinIcon(cap);
    r.setMaxIcon(cap);
    r.setGroupPaint(Color.BLACK);
    r.setGroupStroke(new BasicStroke(1.5f));
    r.setDefaultSeriesVisibleInLegend(false);
    return r;
  }

  /** A y axis that holds every value: whole decades when {@code logY}, else {@link Axis#linear}. */
  private static ValueAxis yAxis(String label, boolean logY, double min, double max) {
    if (logY) {
      LogAxis y = new LogAxis(label + " (log scale)");
      y.setNumberFormatOverride(format(Charts::tickLabel));
      y.setTickUnit(new NumberTickUnit(1), false, true); // one tick a decade: units of log10
      y.setRange(
          Math.pow(10, Math.floor(Math.log10(min))),
          Math.pow(10, Math.ceil(Math.log10(max * 1.3))));
      return y;
    }
    Axis a = Axis.linear(max);
    NumberAxis y = new NumberAxis(label);
    y.setRange(0, a.hi());
    y.setTickUnit(new NumberTickUnit(a.step(), format(Charts::tickLabel)));
    return y;
  }

  /** A {@link NumberFormat} that formats with {@code f} and does not parse. */
  private static NumberFormat format(DoubleFunction<String> f) {
    return new NumberFormat() {
      @Override
      public StringBuffer format(double v, StringBuffer sb, FieldPosition p) {
        return sb.append(f.apply(v));
      }

      @Override
      public StringBuffer format(long v, StringBuffer sb, FieldPosition p) {
        return sb.append(f.apply(v));
      }

      @Override
      public Number parse(String s, ParsePosition p) {
        throw new UnsupportedOperationException("format only");
      }
    };
  }

  /** A short label: 1234567 → 1.23M, 0.5 → 0.5. */
  public static String valueLabel(double v) {
    if (v >= 1e6) {
      return String.format(Locale.ROOT, "%.2fM", v / 1e6);
    }
    if (v >= 1e4) {
      return String.format(Locale.ROOT, "%.0fk", v / 1e3);
    }
    return String.format(Locale.ROOT, v >= 100 ? "%.0f" : v >= 10 ? "%.1f" : "%.2f", v);
  }

  static String tickLabel(double v) {
    if (v >= 1e6) {
      return trimmed(v / 1e6) + "M";
    }
    if (v >= 1e3) {
      return trimmed(v / 1e3) + "k";
    }
    return String.format(Locale.ROOT, v >= 1 || v == 0 ? "%.0f" : "%.2g", v);
  }

  /** Up to two decimals, trailing zeros dropped: 1.25, 1.5, 2. */
  private static String trimmed(double v) {
    return String.format(Locale.ROOT, "%.2f", v).replaceAll("\\.?0+$", "");
  }

  /**
   * A linear y axis from 0 to {@code hi} with ticks every {@code step}: about five ticks, 12% head
   * room above the highest value for its label.
   */
  public record Axis(double hi, double step) {

    public static Axis linear(double max) {
      double step = niceStep(max / 5);
      return new Axis(Math.ceil(max * 1.12 / step) * step, step);
    }

    /** {@return where {@code v} falls on this axis, 0 at the bottom and 1 at the top} */
    public double fraction(double v) {
      return v / hi;
    }

    /** {@return the 1, 2, 2.5 or 5 × 10^n at or above {@code raw}; 1 when not positive} */
    public static double niceStep(double raw) {
      if (raw <= 0) {
        return 1;
      }
      double p = Math.pow(10, Math.floor(Math.log10(raw)));
      double f = raw / p;
      return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 2.5 ? 2.5 : f <= 5 ? 5 : 10) * p;
    }
  }
}
