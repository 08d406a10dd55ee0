package io.logproducer.appender;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.LogRecord;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link ExceptionText}: printStackTrace's text for ordinary exceptions, and bounds and
 * placeholders for hostile ones.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ExceptionTextTest {

  private static final String DEPTH_MARKER =
      "\t... causes and suppressed exceptions nested deeper than 64 omitted (depth limit 64)\n";
  private static final String CHAR_MARKER =
      "\t... rest of the stack trace omitted (character limit 65536)\n";

  private static String printed(Throwable t) {
    StringWriter out = new StringWriter();
    t.printStackTrace(new PrintWriter(out));
    return out.toString().replace(System.lineSeparator(), "\n");
  }

  /** Causes, suppressed with causes and suppressed of their own, a frame-sharing nest. */
  private static Exception tree() {
    IllegalStateException root = new IllegalStateException("root cause ✓");
    Exception middle = new IOException("middle", root);
    Exception top = new RuntimeException("top", middle);
    Exception s1 = new IllegalArgumentException("suppressed one", new ArithmeticException("inner"));
    s1.addSuppressed(new UnsupportedOperationException("nested suppressed"));
    top.addSuppressed(s1);
    top.addSuppressed(new IOException("suppressed two"));
    root.addSuppressed(new IllegalStateException("suppressed by the root"));
    return top;
  }

  @Test
  void anOrdinaryTraceIsExactlyWhatPrintStackTraceWrites() {
    Exception e = tree();
    assertEquals(printed(e), ExceptionText.stackTrace(e, -1));
  }

  @Test
  void cyclesAreWrittenAsPrintStackTraceWritesThem() {
    Exception a = new Exception("a");
    Exception b = new Exception("b", a);
    a.initCause(b); // a → b → a
    assertEquals(printed(a), ExceptionText.stackTrace(a, -1));
    assertTrue(ExceptionText.stackTrace(a, -1).contains("[CIRCULAR REFERENCE: "));

    Exception c = new Exception("c");
    Exception d = new Exception("d", c);
    c.addSuppressed(d); // c suppresses d, whose cause is c
    assertEquals(printed(c), ExceptionText.stackTrace(c, -1));
    assertTrue(
        ExceptionText.stackTrace(c, -1)
            .contains("\tCaused by: [CIRCULAR REFERENCE: java.lang.Exception: c]\n"));
  }

  private static Throwable chain(int depth) {
    Throwable t = new IllegalStateException("root");
    for (int i = 1; i < depth; i++) {
      t = new RuntimeException("level " + i, t);
    }
    return t;
  }

  @Test
  void causesDeeperThanTheDepthLimitAreLeftOutAndSaidSo() {
    String text = ExceptionText.stackTrace(chain(200), 200);
    assertEquals(64, text.lines().filter(l -> l.startsWith("Caused by: ")).count(), text);
    assertTrue(text.contains("Caused by: java.lang.RuntimeException: level 135\n"), text);
    assertTrue(!text.contains("level 134\n"), text);
    assertTrue(text.endsWith(DEPTH_MARKER), text);

    // Exactly at the limit nothing is cut.
    String exact = ExceptionText.stackTrace(chain(65), 200);
    assertEquals(64, exact.lines().filter(l -> l.startsWith("Caused by: ")).count(), exact);
    assertEquals(printed(chain(65)).length(), exact.length());
  }

  @Test
  void suppressedNestingCountsTowardsTheDepthLimit() {
    Exception top = new Exception("s0");
    Exception at = top;
    for (int i = 1; i < 100; i++) {
      Exception next = new Exception("s" + i);
      at.addSuppressed(next);
      at = next;
    }
    String text = ExceptionText.stackTrace(top, -1);
    assertEquals(64, text.lines().filter(l -> l.trim().startsWith("Suppressed: ")).count());
    assertTrue(text.contains("\t".repeat(64) + "Suppressed: java.lang.Exception: s64\n"), text);
    assertTrue(text.endsWith(DEPTH_MARKER), text);
  }

  @Test
  void theTextIsCutAtTheCharacterLimitAndSaysSo() {
    Exception big = new RuntimeException("x".repeat(1_000_000));
    String text = ExceptionText.stackTrace(big, -1);
    assertEquals(ExceptionText.MAX_CHARS + 1 + CHAR_MARKER.length(), text.length());
    assertTrue(text.startsWith("java.lang.RuntimeException: xxx"), text.substring(0, 50));
    assertTrue(text.endsWith("x\n" + CHAR_MARKER));

    // With a small limit: the exact prefix of the full text, then the marker.
    Exception e = tree();
    String full = printed(e);
    String cut = ExceptionText.stackTrace(e, -1, 64, 100);
    assertEquals(
        full.substring(0, 100)
            + (full.charAt(99) == '\n' ? "" : "\n")
            + "\t... rest of the stack trace omitted (character limit 100)\n",
        cut);
  }

  @Test
  void aChainOfOneHundredThousandCausesNeedsNoDeepStack() throws Exception {
    Throwable deep = chain(100_000);
    String[] text = new String[1];
    Throwable[] thrown = new Throwable[1];
    Thread t =
        new Thread(
            null,
            () -> {
              try {
                text[0] = ExceptionText.stackTrace(deep, 200);
              } catch (Throwable e) {
                thrown[0] = e;
              }
            },
            "t",
            256 * 1024);
    t.start();
    t.join(30_000);
    assertNull(thrown[0], () -> "thrown: " + thrown[0]);
    assertTrue(text[0].startsWith("java.lang.RuntimeException: level 99999\n"), text[0]);
    assertTrue(text[0].endsWith(DEPTH_MARKER));
  }

  /** An exception whose every overridable accessor throws. */
  static final class Hostile extends RuntimeException {
    private static final long serialVersionUID = 1L;

    @Override
    public String getMessage() {
      throw new IllegalStateException();
    }

    @Override
    public String toString() {
      throw new IllegalArgumentException();
    }

    @Override
    public StackTraceElement[] getStackTrace() {
      throw new UnsupportedOperationException();
    }

    @Override
    public synchronized Throwable getCause() {
      throw new AssertionError("an Error that is not the JVM's");
    }
  }

  @Test
  void throwingAccessorsBecomePlaceholders() {
    Exception top = new RuntimeException("top", new Hostile());
    String text = ExceptionText.stackTrace(top, -1);
    String expectedTail =
        "Caused by: <toString() threw java.lang.IllegalArgumentException>\n"
            + "\t<getStackTrace() threw java.lang.UnsupportedOperationException>\n"
            + "\t<getCause() threw java.lang.AssertionError>\n";
    assertTrue(text.startsWith("java.lang.RuntimeException: top\n\tat "), text);
    assertTrue(text.endsWith(expectedTail), text);

    LogRecord.Builder b = LogRecord.builder();
    ExceptionText.addTo(b, new Hostile(), 200);
    LogRecord r = b.build();
    assertEquals(Hostile.class.getName(), r.getAttribute("exception.type").asString());
    assertEquals(
        "<getMessage() threw java.lang.IllegalStateException>",
        r.getAttribute("exception.message").asString());
    assertTrue(
        r.getAttribute("exception.stacktrace")
            .asString()
            .startsWith("<toString() threw java.lang.IllegalArgumentException>\n"));
  }

  @Test
  void theJvmsOwnErrorsArePassedOn() {
    Exception e =
        new RuntimeException("no trace") {
          private static final long serialVersionUID = 1L;

          @Override
          public StackTraceElement[] getStackTrace() {
            throw new StackOverflowError();
          }
        };
    assertThrows(StackOverflowError.class, () -> ExceptionText.stackTrace(e, -1));
  }

  @Test
  void aCauseThatIsNewEachTimeIsBoundedByDepth() {
    Exception endless =
        new RuntimeException("endless") {
          private static final long serialVersionUID = 1L;

          @Override
          public synchronized Throwable getCause() {
            return new RuntimeException("fresh") {
              private static final long serialVersionUID = 1L;

              @Override
              public synchronized Throwable getCause() {
                return new IllegalStateException("fresher", null);
              }
            };
          }
        };
    String text = ExceptionText.stackTrace(endless, 10);
    assertEquals(2, text.lines().filter(l -> l.startsWith("Caused by: ")).count(), text);

    Exception reallyEndless = new SelfRenewing(0);
    String bounded = ExceptionText.stackTrace(reallyEndless, 10);
    assertEquals(64, bounded.lines().filter(l -> l.startsWith("Caused by: ")).count());
    assertTrue(bounded.endsWith(DEPTH_MARKER), bounded);
  }

  /** A cause chain without end: each {@code getCause()} makes the next. */
  static final class SelfRenewing extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final int n;

    SelfRenewing(int n) {
      super("n" + n, null, false, false);
      this.n = n;
    }

    @Override
    public synchronized Throwable getCause() {
      return new SelfRenewing(n + 1);
    }
  }
}
