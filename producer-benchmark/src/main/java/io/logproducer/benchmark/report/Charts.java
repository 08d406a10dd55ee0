package io.logproducer.benchmark.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.Stroke;
import java.awt.geom.AffineTransform;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javax.imageio.ImageIO;

/**
 * Line and grouped-bar charts drawn with Java2D in headless mode and written as PNG: no plotting
 * dependency. Categorical x axis; linear or logarithmic y axis; values may be NaN (point omitted).
 */
public final class Charts {

  static {
    System.setProperty("java.awt.headless", "true");
  }

  static final Color[] PALETTE = {
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
  private static final int LEFT = 90;
  private static final int RIGHT = 30;
  private static final int TOP = 60;
  private static final int BOTTOM = 90;

  private Charts() {}

  /**
   * One named series of y values, one per category; {@code low} and {@code high}, when not null,
   * are the slowest and fastest of the runs behind each value, drawn as a whisker.
   */
  public record Series(String name, double[] values, boolean dashed, double[] low, double[] high) {
    public Series(String name, double[] values) {
      this(name, values, false, null, null);
    }

    public Series(String name, double[] values, boolean dashed) {
      this(name, values, dashed, null, null);
    }

    /** A solid series with a whisker from {@code low[i]} to {@code high[i]} at every point. */
    public Series(String name, double[] values, double[] low, double[] high) {
      this(name, values, false, low, high);
    }
  }

  /** A line chart over categories. */
  public static void line(
      Path file,
      String title,
      String xLabel,
      String yLabel,
      List<String> categories,
      List<Series> series,
      boolean logY)
      throws IOException {
    draw(file, title, xLabel, yLabel, categories, series, logY, false);
  }

  /** A grouped bar chart: one group per category, one bar per series. */
  public static void bars(
      Path file,
      String title,
      String xLabel,
      String yLabel,
      List<String> categories,
      List<Series> series,
      boolean logY)
      throws IOException {
    draw(file, title, xLabel, yLabel, categories, series, logY, true);
  }

  private static void draw(
      Path file,
      String title,
      String xLabel,
      String yLabel,
      List<String> categories,
      List<Series> series,
      boolean logY,
      boolean bars)
      throws IOException {
    BufferedImage img = new BufferedImage(W, H, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = img.createGraphics();
    try {
      g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
      g.setRenderingHint(
          RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
      g.setColor(Color.WHITE);
      g.fillRect(0, 0, W, H);
      Axis axis = axis(series, logY);
      int plotW = W - LEFT - RIGHT;
      int plotH = H - TOP - BOTTOM;
      frame(g, title, xLabel, yLabel, categories, axis, logY);
      double slot = plotW / (double) Math.max(1, categories.size());
      g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
      for (int si = 0; si < series.size(); si++) {
        Color color = PALETTE[si % PALETTE.length];
        g.setColor(color);
        if (bars) {
          bars(g, series.get(si), si, series.size(), categories.size(), slot, axis, color);
        } else {
          line(g, series.get(si), categories.size(), slot, axis, color);
        }
      }
      legend(g, series, bars);
    } finally {
      g.dispose();
    }
    Files.createDirectories(file.toAbsolutePath().getParent());
    ImageIO.write(img, "png", file.toFile());
  }

  /** The y axis that holds every value, low and high of {@code series}. */
  private static Axis axis(List<Series> series, boolean logY) {
    double max = 0;
    double min = Double.MAX_VALUE;
    for (Series s : series) {
      for (double[] values : new double[][] {s.values(), s.low(), s.high()}) {
        for (double v : values == null ? new double[0] : values) {
          if (!Double.isNaN(v) && v > 0) {
            max = Math.max(max, v);
            min = Math.min(min, v);
          }
        }
      }
    }
    if (max <= 0) {
      max = 1;
      min = 1;
    }
    Axis axis = logY ? Axis.log(min, max) : Axis.linear(max);

    return logY ? Axis.log(min, max) : Axis.linear(max);
  }

  /** Title, grid, y ticks, x categories and axis labels. */
  private static void frame(
      Graphics2D g,
      String title,
      String xLabel,
      String yLabel,
      List<String> categories,
      Axis axis,
      boolean logY) {
    int plotW = W - LEFT - RIGHT;
    int plotH = H - TOP - BOTTOM;
    // title
    g.setColor(Color.BLACK);
    g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 18));
    centered(g, title, LEFT + plotW / 2, 30);
    // grid and y ticks
    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
    for (double t : axis.ticks()) {
      int y = TOP + plotH - (int) Math.round(axis.fraction(t) * plotH);
      g.setColor(new Color(0xE6E6E6));
      g.drawLine(LEFT, y, LEFT + plotW, y);
      g.setColor(Color.DARK_GRAY);
      String label = tickLabel(t);
      FontMetrics fm = g.getFontMetrics();
      g.drawString(label, LEFT - 8 - fm.stringWidth(label), y + fm.getAscent() / 2 - 1);
    }
    g.setColor(Color.BLACK);
    g.drawLine(LEFT, TOP, LEFT, TOP + plotH);
    g.drawLine(LEFT, TOP + plotH, LEFT + plotW, TOP + plotH);
    // x categories
    int n = categories.size();
    double slot = plotW / (double) Math.max(1, n);
    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
    FontMetrics fm = g.getFontMetrics();
    for (int i = 0; i < n; i++) {
      int x = LEFT + (int) Math.round(slot * (i + 0.5));
      g.setColor(Color.DARK_GRAY);
      g.drawLine(x, TOP + plotH, x, TOP + plotH + 4);
      String c = categories.get(i);
      if (fm.stringWidth(c) > slot - 4) {
        // rotate long labels
        AffineTransform saved = g.getTransform();
        g.rotate(-Math.PI / 10, x, TOP + plotH + 18);
        centered(g, c, x, TOP + plotH + 18);
        g.setTransform(saved);
      } else {
        centered(g, c, x, TOP + plotH + 18);
      }
    }
    // axis labels
    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
    g.setColor(Color.BLACK);
    centered(g, xLabel, LEFT + plotW / 2, H - 40);
    AffineTransform saved = g.getTransform();
    g.rotate(-Math.PI / 2, 20, TOP + plotH / 2.0);
    centered(g, yLabel + (logY ? " (log scale)" : ""), 20, TOP + plotH / 2 + 5);
    g.setTransform(saved);
  }

  /** Series {@code si} of {@code k} as bars beside the others', with whiskers and value labels. */
  private static void bars(
      Graphics2D g, Series s, int si, int k, int n, double slot, Axis axis, Color color) {
    int plotH = H - TOP - BOTTOM;
    double groupW = slot * 0.8;
    double barW = groupW / k;
    for (int i = 0; i < n && i < s.values().length; i++) {
      double v = s.values()[i];
      if (Double.isNaN(v) || v <= 0) {
        continue;
      }
      int x0 = (int) Math.round(LEFT + slot * i + slot * 0.1 + barW * si);
      int h = (int) Math.round(axis.fraction(v) * plotH);
      g.setColor(color);
      g.fillRect(x0, TOP + plotH - h, Math.max(1, (int) Math.floor(barW) - 2), h);
      g.setColor(Color.BLACK);
      int top = TOP + plotH - h;
      if (whisker(g, axis, plotH, x0 + (int) (barW / 2) - 1, s, i)) {
        top = Math.min(top, TOP + plotH - (int) Math.round(axis.fraction(s.high()[i]) * plotH));
      }
      if (barW >= 26) {
        centered(g, valueLabel(v), x0 + (int) (barW / 2) - 1, top - 4);
      }
    }
  }

  /** A series as a line with points, whiskers and value labels. */
  private static void line(Graphics2D g, Series s, int n, double slot, Axis axis, Color color) {
    int plotH = H - TOP - BOTTOM;
    g.setStroke(
        s.dashed()
            ? new BasicStroke(
                2f, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND, 1f, new float[] {6f, 5f}, 0f)
            : new BasicStroke(2.5f));
    // the lines first, then points, whiskers and labels on top of them
    int px = -1;
    int py = -1;
    for (int i = 0; i < n && i < s.values().length; i++) {
      double v = s.values()[i];
      if (Double.isNaN(v) || v <= 0) {
        px = -1;
        continue;
      }
      int x = LEFT + (int) Math.round(slot * (i + 0.5));
      int y = TOP + plotH - (int) Math.round(axis.fraction(v) * plotH);
      if (px >= 0) {
        g.drawLine(px, py, x, y);
      }
      px = x;
      py = y;
    }
    g.setStroke(new BasicStroke(1.5f));
    for (int i = 0; i < n && i < s.values().length; i++) {
      double v = s.values()[i];
      if (Double.isNaN(v) || v <= 0) {
        continue;
      }
      int x = LEFT + (int) Math.round(slot * (i + 0.5));
      int y = TOP + plotH - (int) Math.round(axis.fraction(v) * plotH);
      g.setColor(color);
      g.fillOval(x - 4, y - 4, 8, 8);
      whisker(g, axis, plotH, x, s, i);
      // the label goes right of the point, on white, when a whisker runs through the space above it
      if (s.high() != null && !Double.isNaN(s.high()[i]) && s.high()[i] > v) {
        String label = valueLabel(v);
        FontMetrics lm = g.getFontMetrics();
        g.setColor(Color.WHITE);
        g.fillRect(x + 8, y - lm.getAscent() + 2, lm.stringWidth(label) + 3, lm.getAscent() + 1);
        g.setColor(color);
        g.drawString(label, x + 9, y + 3);
      } else {
        centered(g, valueLabel(v), x, y - 9);
      }
    }
    g.setStroke(new BasicStroke(1f));
  }

  private static void legend(Graphics2D g, List<Series> series, boolean bars) {
    int k = series.size();
    // legend
    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
    int lx = LEFT + 10;
    int ly = H - 18;
    for (int si = 0; si < k; si++) {
      Series s = series.get(si);
      g.setColor(PALETTE[si % PALETTE.length]);
      if (bars) {
        g.fillRect(lx, ly - 10, 14, 10);
      } else {
        Stroke saved2 = g.getStroke();
        g.setStroke(
            s.dashed()
                ? new BasicStroke(
                    2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 1f, new float[] {4f, 3f}, 0f)
                : new BasicStroke(2.5f));
        g.drawLine(lx, ly - 5, lx + 14, ly - 5);
        g.setStroke(saved2);
      }
      g.setColor(Color.BLACK);
      g.drawString(s.name(), lx + 18, ly);
      lx += 18 + g.getFontMetrics().stringWidth(s.name()) + 24;
    }
  }

  /**
   * Draws the whisker of point {@code i} of {@code s} (from its low to its high value, with caps)
   * at {@code x} in the current colour; false when the series has none there.
   */
  private static boolean whisker(Graphics2D g, Axis axis, int plotH, int x, Series s, int i) {
    if (s.low() == null
        || s.high() == null
        || i >= s.low().length
        || i >= s.high().length
        || Double.isNaN(s.low()[i])
        || Double.isNaN(s.high()[i])
        || s.high()[i] <= s.low()[i]) {
      return false;
    }
    int yLo = TOP + plotH - (int) Math.round(axis.fraction(s.low()[i]) * plotH);
    int yHi = TOP + plotH - (int) Math.round(axis.fraction(s.high()[i]) * plotH);
    g.drawLine(x, yLo, x, yHi);
    g.drawLine(x - 5, yLo, x + 5, yLo);
    g.drawLine(x - 5, yHi, x + 5, yHi);
    return true;
  }

  private static void centered(Graphics2D g, String s, int x, int y) {
    g.drawString(s, x - g.getFontMetrics().stringWidth(s) / 2, y);
  }

  /** A short label: 1234567 → 1.23M, 0.5 → 0.5. */
  public static String valueLabel(double v) {
    if (v >= 1e6) {
      return String.format(Locale.ROOT, "%.2fM", v / 1e6);
    }
    if (v >= 1e4) {
      return String.format(Locale.ROOT, "%.0fk", v / 1e3);
    }
    if (v >= 100) {
      return String.format(Locale.ROOT, "%.0f", v);
    }
    if (v >= 10) {
      return String.format(Locale.ROOT, "%.1f", v);
    }
    return String.format(Locale.ROOT, "%.2f", v);
  }

  static String tickLabel(double v) {
    if (v >= 1e6) {
      return trimmed(v / 1e6) + "M";
    }
    if (v >= 1e3) {
      return trimmed(v / 1e3) + "k";
    }
    if (v >= 1 || v == 0) {
      return String.format(Locale.ROOT, "%.0f", v);
    }
    return String.format(Locale.ROOT, "%.2g", v);
  }

  /** Up to two decimals, trailing zeros dropped: 1.25, 1.5, 2. */
  private static String trimmed(double v) {
    String s = String.format(Locale.ROOT, "%.2f", v);
    return s.replaceAll("\\.?0+$", "");
  }

  /** A y axis mapping values to [0, 1]. */
  public record Axis(boolean log, double lo, double hi, List<Double> ticks) {

    public static Axis linear(double max) {
      double step = niceStep(max / 5);
      double hi = Math.ceil(max * 1.12 / step) * step;
      List<Double> t = new ArrayList<>();
      for (double v = 0; v <= hi + step / 2; v += step) {
        t.add(v);
      }
      return new Axis(false, 0, hi, t);
    }

    static Axis log(double min, double max) {
      double lo = Math.pow(10, Math.floor(Math.log10(min)));
      double hi = Math.pow(10, Math.ceil(Math.log10(max * 1.3)));
      List<Double> t = new ArrayList<>();
      for (double v = lo; v <= hi * 1.001; v *= 10) {
        t.add(v);
      }
      return new Axis(true, lo, hi, t);
    }

    public double fraction(double v) {
      if (log) {
        return (Math.log10(Math.max(v, lo)) - Math.log10(lo)) / (Math.log10(hi) - Math.log10(lo));
      }
      return hi == lo ? 0 : (v - lo) / (hi - lo);
    }

    public static double niceStep(double raw) {
      if (raw <= 0) {
        return 1;
      }
      double p = Math.pow(10, Math.floor(Math.log10(raw)));
      double f = raw / p;
      double nice = f <= 1 ? 1 : f <= 2 ? 2 : f <= 2.5 ? 2.5 : f <= 5 ? 5 : 10;
      return nice * p;
    }
  }
}
