package io.logproducer.appender;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.LogRecord;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

class MappingHelpersTest {

  @Test
  void aLayoutsTrailingLineSeparatorsAreRemovedAndNothingElse() {
    assertEquals("a|b", EventMapper.trimLineSeparator("a|b\n"));
    assertEquals("a|b", EventMapper.trimLineSeparator("a|b\r\n"));
    assertEquals("a\nb", EventMapper.trimLineSeparator("a\nb\n\n"));
    assertEquals(" a ", EventMapper.trimLineSeparator(" a "));
    assertEquals("", EventMapper.trimLineSeparator("\r\n"));
    assertNull(EventMapper.trimLineSeparator(null));
  }

  private static Exception nested() {
    IllegalStateException root = new IllegalStateException("root cause ✓");
    Exception top = new RuntimeException("top", root);
    top.addSuppressed(new java.io.IOException("suppressed"));
    return top;
  }

  @Test
  void unlimitedStackTraceIsExactlyWhatPrintStackTraceWrites() {
    Exception e = nested();
    StringWriter expected = new StringWriter();
    e.printStackTrace(new PrintWriter(expected));
    assertEquals(
        expected.toString().replace(System.lineSeparator(), "\n"), ExceptionText.stackTrace(e, -1));
  }

  @Test
  void aFrameLimitCutsAndSaysSo() {
    Exception e = nested();
    String text = ExceptionText.stackTrace(e, 2);
    assertEquals(2, text.lines().filter(l -> l.trim().startsWith("at ")).count(), text);
    assertTrue(text.startsWith("java.lang.RuntimeException: top\n"), text);
    assertTrue(text.contains("Caused by: java.lang.IllegalStateException: root cause ✓\n"), text);
    assertTrue(text.endsWith(" frames omitted (limit 2)\n"), text);
  }

  @Test
  void exceptionAttributesFollowTheSemanticConventions() {
    LogRecord.Builder b = LogRecord.builder();
    ExceptionText.addTo(b, nested(), 0);
    LogRecord r = b.build();
    assertEquals("java.lang.RuntimeException", r.getAttribute("exception.type").asString());
    assertEquals("top", r.getAttribute("exception.message").asString());
    assertNull(r.getAttribute("exception.stacktrace"), "0 frames: no stack trace");
  }

  @Test
  void keyFilterIncludesExcludesAndNone() {
    assertTrue(KeyFilter.ALL.accepts("anything"));
    KeyFilter f = KeyFilter.of("user, order ,", "order");
    assertTrue(f.accepts("user"));
    assertFalse(f.accepts("order"), "exclude wins");
    assertFalse(f.accepts("other"));
    assertTrue(KeyFilter.of("", null).acceptsNone());
    assertFalse(KeyFilter.of("*", "secret").accepts("secret"));
    assertTrue(KeyFilter.of("*", "secret").accepts("user"));
  }

  @Test
  void traceContextOnlyFromValidIds() {
    LogRecord.Builder b = LogRecord.builder();
    assertTrue(TraceContext.apply(b, "0af7651916cd43dd8448eb211c80319c", "b7ad6b7169203331", "01"));
    LogRecord r = b.build();
    assertEquals(0x0a, r.getTraceId()[0] & 0xff);
    assertArrayEquals(
        new byte[] {(byte) 0xb7, (byte) 0xad, 0x6b, 0x71, 0x69, 0x20, 0x33, 0x31}, r.getSpanId());
    assertEquals(1, r.getFlags());
    assertFalse(
        TraceContext.apply(
            LogRecord.builder(), "00000000000000000000000000000000", "b7ad6b7169203331", null),
        "the invalid all-zero trace id");
    assertFalse(
        TraceContext.apply(
            LogRecord.builder(), "0af7651916cd43dd8448eb211c80319", "b7ad6b7169203331", null),
        "31 digits");
    assertFalse(
        TraceContext.apply(
            LogRecord.builder(), "0af7651916cd43dd8448eb211c80319c", "b7ad6b716920333g", null),
        "not hex");
  }
}
