package io.logproducer.appender.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.testing.appender.AppenderContract;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * docs/appenders.md's mapping table and {@link AppenderContract} name the same fields: every name
 * in backticks in the table's right-hand column is asserted by the contract, and every field the
 * contract asserts is in the table.
 */
class AppenderMappingTableTest {

  private static final String HEADING =
      "## The mapping (OpenTelemetry's log data model and semantic conventions)";

  static Path docs() {
    for (Path d = Paths.get("").toAbsolutePath(); d != null; d = d.getParent()) {
      Path doc = d.resolve("docs").resolve("appenders.md");
      if (Files.isRegularFile(doc)) {
        return doc;
      }
    }
    throw new AssertionError("docs/appenders.md not found above " + Paths.get("").toAbsolutePath());
  }

  /** The right-hand cells of the table under {@link #HEADING}, one per row. */
  static List<String> rightHandCells(String markdown) {
    int at = markdown.indexOf(HEADING);
    assertTrue(at >= 0, "no heading '" + HEADING + "' in docs/appenders.md");
    List<String> cells = new ArrayList<>();
    boolean inTable = false;
    for (String line : markdown.substring(at).split("\n")) {
      if (line.startsWith("|")) {
        boolean header = !inTable;
        inTable = true;
        if (header || line.startsWith("|---")) {
          continue;
        }
        String[] parts = line.split("\\s\\|\\s");
        cells.add(parts[parts.length - 1].replaceAll("\\s*\\|\\s*$", ""));
      } else if (inTable) {
        break;
      }
    }
    return cells;
  }

  @Test
  void theTableNamesExactlyTheFieldsTheContractAsserts() throws Exception {
    String markdown = new String(Files.readAllBytes(docs()), StandardCharsets.UTF_8);
    List<String> cells = rightHandCells(markdown);
    assertEquals(13, cells.size(), "rows of the mapping table: " + cells);
    Set<String> named = new TreeSet<>();
    Pattern code = Pattern.compile("`([^`]+)`");
    for (String cell : cells) {
      Matcher m = code.matcher(cell);
      boolean any = false;
      while (m.find()) {
        named.add(m.group(1));
        any = true;
      }
      assertTrue(any, "a row whose field the contract cannot pin (no name in backticks): " + cell);
    }
    assertEquals(new TreeSet<>(AppenderContract.PINNED), named);
  }

  @Test
  void cellsAreSplitAtTheColumnBorderOnly() {
    assertEquals(
        List.of("`body`"),
        rightHandCells(HEADING + "\n\n| event | field |\n|---|---|\n| a `x` b | `body` |\n"));
  }
}
