package io.logproducer.benchmark.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Filling marked blocks: prose kept byte for byte, idempotent, loud about a block without data. */
public class PageTest {

  private static final String PAGE =
      "# Title\r\n\r\nProse with  two spaces, a tab\tand ünïcödé — kept. "
          + "Measured <!-- data:when --><!-- /data -->.\n\n<!-- data:table -->\nold | stale\n<!-- /data -->\n\n"
          + "Trailing prose   \n";

  private static final Map<String, String> DATA =
      Map.of("when", "2030-01-02", "table", "| a | b |\n|---|---|\n");

  @Test
  void fillsInlineAndBlockValues() {
    assertEquals(
        "# Title\r\n\r\nProse with  two spaces, a tab\tand ünïcödé — kept. "
            + "Measured <!-- data:when -->2030-01-02<!-- /data -->.\n\n<!-- data:table -->\n| a | b |\n|---|---|\n"
            + "<!-- /data -->\n\nTrailing prose   \n",
        Page.fill("p", PAGE, DATA::get));
  }

  @Test
  void fillingAFilledPageChangesNothing() {
    String once = Page.fill("p", PAGE, DATA::get);
    assertEquals(once, Page.fill("p", once, DATA::get));
  }

  @Test
  void proseOutsideTheBlocksIsKeptByteForByte() {
    String filled = Page.fill("p", PAGE, DATA::get);
    assertEquals(withoutBlockContents(PAGE), withoutBlockContents(filled));
  }

  @Test
  void aBlockWithoutDataFailsNamingIt() {
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class,
            () -> Page.fill("PERFORMANCE.md", PAGE, name -> name.equals("table") ? null : "x"));
    assertEquals("PERFORMANCE.md: block 'table' has no data", e.getMessage());
  }

  @Test
  void anUnclosedBlockFailsNamingIt() {
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class,
            () -> Page.fill("p", "<!-- data:a -->\n<!-- data:b -->x<!-- /data -->", DATA::get));
    assertEquals("p: block 'a' has no <!-- /data --> before the next block", e.getMessage());
  }

  /** The page with every block emptied: what people wrote. */
  public static String withoutBlockContents(String page) {
    return page.replaceAll("(?s)(<!-- data:[^ ]+ -->).*?(<!-- /data -->)", "$1$2");
  }
}
