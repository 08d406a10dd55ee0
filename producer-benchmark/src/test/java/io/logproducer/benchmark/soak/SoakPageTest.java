package io.logproducer.benchmark.soak;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.benchmark.report.Page;
import io.logproducer.benchmark.report.PageTest;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hand-written soak page holds exactly the blocks the soak fills, and filling them keeps its
 * prose.
 */
class SoakPageTest {

  private static final Path PAGE = Path.of("..", "docs", SoakReport.PAGE);

  @Test
  void thePageHoldsEveryBlockTheSoakFillsOnceInOrder() throws IOException {
    String page = Files.readString(PAGE, StandardCharsets.UTF_8);
    List<String> names = new ArrayList<>();
    Matcher m = Pattern.compile("<!-- data:([^ ]+) -->").matcher(page);
    while (m.find()) {
      names.add(m.group(1));
    }
    assertEquals(SoakReport.BLOCKS, names);
  }

  @Test
  void fillingKeepsTheProseByteForByte() throws IOException {
    String page = Files.readString(PAGE, StandardCharsets.UTF_8);
    Map<String, String> data =
        new HashMap<>(
            Map.of(
                "result",
                "FAIL — 2030-01-02 03:04 UTC",
                "command",
                "```sh\nx\n```\n",
                "minutes",
                "3",
                "criteria",
                "| a |\n|---|\n",
                "problems",
                "",
                "machine",
                "| m |\n|---|\n"));
    data.putAll(
        Map.of(
            "outcomes",
            "| o |\n|---|\n",
            "failure-examples",
            "| f |\n|---|\n| `x` |\n",
            "receiver",
            "| r |\n|---|\n",
            "memory",
            "| mem |\n|---|\n",
            "periods",
            "| p |\n|---|\n",
            "outages",
            "none"));
    String filled = Page.fill(SoakReport.PAGE, page, data::get);
    assertEquals(PageTest.withoutBlockContents(page), PageTest.withoutBlockContents(filled));
    assertEquals(filled, Page.fill(SoakReport.PAGE, filled, data::get));
  }

  @Test
  @Timeout(120)
  void theChartIsRedrawnFromTheCommittedFilesAndThePageShowsIt(@TempDir Path out)
      throws IOException {
    Files.copy(PAGE, out.resolve(SoakReport.PAGE));
    Path dir = Files.createDirectories(out.resolve(SoakReport.DIR));
    for (String csv : List.of("samples.csv", "gc.csv")) {
      Files.copy(PAGE.resolveSibling(SoakReport.DIR).resolve(csv), dir.resolve(csv));
    }
    SoakChart.main(new String[] {out.toString()});
    BufferedImage png = ImageIO.read(dir.resolve(SoakChart.FILE).toFile());
    assertEquals(1000, png.getWidth());
    assertEquals(760, png.getHeight());
    assertTrue(
        Files.readString(PAGE, StandardCharsets.UTF_8)
            .contains("](" + SoakReport.DIR + "/" + SoakChart.FILE + ")"));
  }
}
