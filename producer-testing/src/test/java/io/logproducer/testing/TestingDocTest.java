package io.logproducer.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.junit.jupiter.api.Test;

/**
 * docs/testing.md shows a user's unit test; the same code runs here as {@code
 * docs.OrderLoggingTest}. This test keeps them identical: the doc's {@code ```java} block after the
 * marker equals the test file's region between {@code // begin docs/testing.md} and {@code // end
 * docs/testing.md}, so neither can change alone.
 */
class TestingDocTest {

  private static final String MARKER =
      "<!-- the code below is producer-testing/src/test/java/io/logproducer/testing/"
          + "docs/OrderLoggingTest.java, checked by TestingDocTest -->";

  @Test
  void theDocsExampleIsTheTestThatRuns() throws Exception {
    String doc = read(Paths.get("..", "docs", "testing.md"));
    int marker = doc.indexOf(MARKER);
    assertTrue(marker >= 0, "docs/testing.md has the marker " + MARKER);
    int start = doc.indexOf("```java\n", marker) + "```java\n".length();
    int end = doc.indexOf("\n```\n", start) + 1;
    String block = doc.substring(start, end);

    String source =
        read(
            Paths.get(
                "src",
                "test",
                "java",
                "io",
                "logproducer",
                "testing",
                "docs",
                "OrderLoggingTest.java"));
    String begin = "// begin docs/testing.md\n";
    int from = source.indexOf(begin) + begin.length();
    int to = source.indexOf("// end docs/testing.md\n");
    assertTrue(from > begin.length() && to > from, "OrderLoggingTest.java has both markers");
    assertEquals(source.substring(from, to), block);
  }

  private static String read(Path p) throws Exception {
    return new String(Files.readAllBytes(p), StandardCharsets.UTF_8).replace("\r\n", "\n");
  }
}
