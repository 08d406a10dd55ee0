package io.logproducer.appender;

import io.logproducer.LogRecord;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * An exception as OpenTelemetry's semantic conventions record it on a log record: {@code
 * exception.type}, {@code exception.message} and {@code exception.stacktrace}, the trace as {@link
 * Throwable#printStackTrace()} writes it (causes as {@code Caused by:}, suppressed as {@code
 * Suppressed:}, repeated frames as {@code ... n more}), with at most {@code maxFrames} frames in
 * all. Stateless; thread-safe.
 */
public final class ExceptionText {

  private ExceptionText() {}

  /**
   * Sets the three exception attributes on {@code builder}.
   *
   * @param builder the record being built
   * @param t the exception; nothing is set when null
   * @param maxFrames most stack frames written in all, causes included; 0 for no {@code
   *     exception.stacktrace}, negative for no limit
   */
  public static void addTo(LogRecord.Builder builder, Throwable t, int maxFrames) {
    if (t == null) {
      return;
    }
    builder.setAttribute(SemanticAttributes.EXCEPTION_TYPE, t.getClass().getName());
    if (t.getMessage() != null) {
      builder.setAttribute(SemanticAttributes.EXCEPTION_MESSAGE, t.getMessage());
    }
    if (maxFrames != 0) {
      builder.setAttribute(SemanticAttributes.EXCEPTION_STACKTRACE, stackTrace(t, maxFrames));
    }
  }

  /**
   * The stack trace text.
   *
   * @param t the exception, not null
   * @param maxFrames most frames written in all; negative for no limit. When frames are left out
   *     the text ends with {@code \t... n frames omitted (limit m)}
   * @return the text, lines separated by {@code \n}
   */
  public static String stackTrace(Throwable t, int maxFrames) {
    StringBuilder sb = new StringBuilder(1024);
    int[] budget = {maxFrames < 0 ? Integer.MAX_VALUE : maxFrames};
    int[] omitted = {0};
    write(sb, t, null, "", "", budget, omitted, new IdentityHashMap<Throwable, Boolean>());
    if (omitted[0] > 0) {
      sb.append("\t... ")
          .append(omitted[0])
          .append(" frames omitted (limit ")
          .append(maxFrames)
          .append(")\n");
    }
    return sb.toString();
  }

  private static void write(
      StringBuilder sb,
      Throwable t,
      StackTraceElement[] enclosing,
      String caption,
      String prefix,
      int[] budget,
      int[] omitted,
      Map<Throwable, Boolean> seen) {
    if (seen.put(t, Boolean.TRUE) != null) {
      sb.append(prefix).append(caption).append("[CIRCULAR REFERENCE: ").append(t).append("]\n");
      return;
    }
    sb.append(prefix).append(caption).append(t).append('\n');
    StackTraceElement[] trace = t.getStackTrace();
    int common = 0;
    if (enclosing != null) {
      int m = trace.length - 1;
      int n = enclosing.length - 1;
      while (m >= 0 && n >= 0 && trace[m].equals(enclosing[n])) {
        m--;
        n--;
      }
      common = trace.length - 1 - m;
    }
    int own = trace.length - common;
    for (int i = 0; i < own; i++) {
      if (budget[0] <= 0) {
        omitted[0] += own - i;
        break;
      }
      budget[0]--;
      sb.append(prefix).append("\tat ").append(trace[i]).append('\n');
    }
    if (common > 0) {
      sb.append(prefix).append("\t... ").append(common).append(" more\n");
    }
    for (Throwable s : t.getSuppressed()) {
      write(sb, s, trace, "Suppressed: ", prefix + "\t", budget, omitted, seen);
    }
    if (t.getCause() != null) {
      write(sb, t.getCause(), trace, "Caused by: ", prefix, budget, omitted, seen);
    }
  }
}
