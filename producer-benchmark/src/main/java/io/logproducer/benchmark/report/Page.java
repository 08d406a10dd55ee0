package io.logproducer.benchmark.report;

import java.util.function.Function;

/**
 * Fills the data blocks of a hand-written Markdown page. A block is {@code <!-- data:NAME -->…<!--
 * /data -->}: the text between the two markers is replaced by the block's data, everything outside
 * the markers is kept byte for byte. A value with a line break is a block of lines (a table),
 * written on the lines between the markers; a value without one is written inline, between the
 * markers on the same line. Filling a filled page again with the same data changes nothing.
 */
public final class Page {

  static final String OPEN = "<!-- data:";
  static final String CLOSE = "<!-- /data -->";
  private static final String OPEN_END = " -->";

  private Page() {}

  /**
   * {@return {@code page} with every block filled}
   *
   * @param name the page's name, for the messages
   * @param data the value of a block by its name: null when the data it needs is missing
   * @throws IllegalStateException naming the block when a marker is malformed or a block has no
   *     data
   */
  public static String fill(String name, String page, Function<String, String> data) {
    StringBuilder out = new StringBuilder(page.length());
    int at = 0;
    for (int open = page.indexOf(OPEN); open >= 0; open = page.indexOf(OPEN, at)) {
      int nameEnd = page.indexOf(OPEN_END, open);
      if (nameEnd < 0) {
        throw new IllegalStateException(name + ": unterminated block marker at offset " + open);
      }
      String block = page.substring(open + OPEN.length(), nameEnd);
      int contentStart = nameEnd + OPEN_END.length();
      int close = page.indexOf(CLOSE, contentStart);
      int next = page.indexOf(OPEN, contentStart);
      if (close < 0 || (next >= 0 && next < close)) {
        throw new IllegalStateException(
            name + ": block '" + block + "' has no " + CLOSE + " before the next block");
      }
      String value = data.apply(block);
      if (value == null) {
        throw new IllegalStateException(name + ": block '" + block + "' has no data");
      }
      out.append(page, at, contentStart).append(value.indexOf('\n') >= 0 ? "\n" + value : value);
      at = close;
    }
    return out.append(page, at, page.length()).toString();
  }
}
