package io.logproducer.appender;

import io.logproducer.LogRecord;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.Set;

/**
 * An exception as OpenTelemetry's semantic conventions record it on a log record: {@code
 * exception.type}, {@code exception.message} and {@code exception.stacktrace}, the trace as {@link
 * Throwable#printStackTrace()} writes it (causes as {@code Caused by:}, suppressed as {@code
 * Suppressed:} one tab further in, repeated frames as {@code ... n more}, an exception seen before
 * as {@code [CIRCULAR REFERENCE: …]}).
 *
 * <p>Whatever the exception, the text is bounded and built without recursion (an explicit work
 * stack: a chain of 100,000 causes needs no more thread stack than one cause):
 *
 * <ul>
 *   <li><b>frames</b>: at most {@code maxFrames} {@code at} lines in all, causes included ({@code
 *       exceptionMaxFrames}, default 200); the text then ends with {@code \t... n frames omitted
 *       (limit m)};
 *   <li><b>depth</b>: causes and suppressed exceptions nested at most {@value #MAX_DEPTH} levels
 *       below the logged exception (each {@code Caused by:} or {@code Suppressed:} is one level);
 *       deeper ones are left out and the text ends with {@code \t... causes and suppressed
 *       exceptions nested deeper than 64 omitted (depth limit 64)};
 *   <li><b>characters</b>: at most {@value #MAX_CHARS} characters; the text is cut there and ends
 *       with a line {@code \t... rest of the stack trace omitted (character limit 65536)} (no other
 *       marker then).
 * </ul>
 *
 * <p>An exception whose {@code toString()}, {@code getMessage()}, {@code getStackTrace()} or {@code
 * getCause()} throws does not lose the event: the text says so in its place, e.g. {@code
 * <toString() threw java.lang.IllegalStateException>}. Only a {@link VirtualMachineError} (out of
 * memory, stack overflow, an internal error) is passed on to the caller, which counts the event as
 * dropped ({@link AppenderProducer#mapAndSend}). Stateless; thread-safe.
 */
public final class ExceptionText {

  /**
   * Most levels of causes and suppressed exceptions written below the logged exception: {@value}.
   */
  public static final int MAX_DEPTH = 64;

  /** Most characters of {@code exception.stacktrace} before its closing marker line: {@value}. */
  public static final int MAX_CHARS = 65_536;

  private ExceptionText() {}

  /**
   * Sets the three exception attributes on {@code builder}.
   *
   * @param builder the record being built
   * @param t the exception; nothing is set when null
   * @param maxFrames most stack frames written in all, causes included; 0 for no {@code
   *     exception.stacktrace}, negative for no limit
   * @throws VirtualMachineError if the exception's own methods raise one (any other throwable they
   *     raise becomes a placeholder in the text)
   */
  public static void addTo(LogRecord.Builder builder, Throwable t, int maxFrames) {
    if (t == null) {
      return;
    }
    builder.setAttribute(SemanticAttributes.EXCEPTION_TYPE, t.getClass().getName());
    String message;
    try {
      message = t.getMessage();
    } catch (Throwable e) {
      message = threw("getMessage()", e);
    }
    if (message != null) {
      builder.setAttribute(SemanticAttributes.EXCEPTION_MESSAGE, message);
    }
    if (maxFrames != 0) {
      builder.setAttribute(SemanticAttributes.EXCEPTION_STACKTRACE, stackTrace(t, maxFrames));
    }
  }

  /**
   * The stack trace text, within {@value #MAX_DEPTH} levels and {@value #MAX_CHARS} characters (see
   * the class comment).
   *
   * @param t the exception, not null
   * @param maxFrames most frames written in all; negative for no limit. When frames are left out
   *     the text ends with {@code \t... n frames omitted (limit m)}
   * @return the text, lines separated by {@code \n}; at most {@value #MAX_CHARS} characters plus
   *     its closing marker lines
   * @throws VirtualMachineError if the exception's own methods raise one
   */
  public static String stackTrace(Throwable t, int maxFrames) {
    return stackTrace(t, maxFrames, MAX_DEPTH, MAX_CHARS);
  }

  /** {@link #stackTrace(Throwable, int)} with other bounds (for tests). */
  static String stackTrace(Throwable t, int maxFrames, int maxDepth, int maxChars) {
    Writer w = new Writer(maxFrames < 0 ? Integer.MAX_VALUE : maxFrames, maxChars);
    Deque<Item> work = new ArrayDeque<Item>();
    work.push(new Item(t, null, "", "", 0));
    Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<Throwable, Boolean>());
    boolean depthCut = false;
    while (!work.isEmpty() && !w.full) {
      Item item = work.pop();
      if (!seen.add(item.t)) {
        w.line(item.prefix, item.caption, "[CIRCULAR REFERENCE: ", safeToString(item.t), "]");
        continue;
      }
      StackTraceElement[] trace = w.write(item);
      Throwable cause = cause(item, w);
      Throwable[] suppressed = item.t.getSuppressed();
      if (item.depth >= maxDepth) {
        depthCut |= cause != null || suppressed.length > 0;
        continue;
      }
      // Pushed in reverse: the suppressed, in order, then the cause, as printStackTrace writes
      // them.
      if (cause != null) {
        work.push(new Item(cause, trace, "Caused by: ", item.prefix, item.depth + 1));
      }
      for (int i = suppressed.length - 1; i >= 0; i--) {
        work.push(
            new Item(suppressed[i], trace, "Suppressed: ", item.prefix + "\t", item.depth + 1));
      }
    }
    return w.close(maxFrames, depthCut ? maxDepth : -1);
  }

  private static Throwable cause(Item item, Writer w) {
    try {
      return item.t.getCause();
    } catch (Throwable e) {
      w.line(item.prefix, "\t", threw("getCause()", e), "", "");
      return null;
    }
  }

  /** {@code t.toString()}, or a placeholder if it throws. */
  static String safeToString(Throwable t) {
    try {
      return String.valueOf(t);
    } catch (Throwable e) {
      return threw("toString()", e);
    }
  }

  /**
   * The placeholder for a method of the exception that threw {@code e}.
   *
   * @throws VirtualMachineError {@code e} itself, if it is one
   */
  static String threw(String method, Throwable e) {
    if (e instanceof VirtualMachineError) {
      throw (VirtualMachineError) e;
    }
    return "<" + method + " threw " + e.getClass().getName() + ">";
  }

  /** One exception to write: where it hangs in the tree. */
  private static final class Item {
    final Throwable t;
    final StackTraceElement[] enclosing;
    final String caption;
    final String prefix;
    final int depth;

    Item(Throwable t, StackTraceElement[] enclosing, String caption, String prefix, int depth) {
      this.t = t;
      this.enclosing = enclosing;
      this.caption = caption;
      this.prefix = prefix;
      this.depth = depth;
    }
  }

  /** The text under its frame and character budgets. */
  private static final class Writer {
    private final StringBuilder sb = new StringBuilder(1024);
    private final int maxChars;
    private int frames;
    private int omitted;
    boolean full;

    Writer(int frames, int maxChars) {
      this.frames = frames;
      this.maxChars = maxChars;
    }

    /** Writes the exception's line, its own frames and {@code ... n more}; returns its trace. */
    StackTraceElement[] write(Item item) {
      line(item.prefix, item.caption, safeToString(item.t), "", "");
      StackTraceElement[] trace;
      try {
        trace = item.t.getStackTrace();
      } catch (Throwable e) {
        line(item.prefix, "\t", threw("getStackTrace()", e), "", "");
        return new StackTraceElement[0];
      }
      if (trace == null) {
        return new StackTraceElement[0];
      }
      int common = common(trace, item.enclosing);
      int own = trace.length - common;
      for (int i = 0; i < own && !full; i++) {
        if (frames <= 0) {
          omitted += own - i;
          break;
        }
        frames--;
        line(item.prefix, "\tat ", String.valueOf(trace[i]), "", "");
      }
      if (common > 0) {
        line(item.prefix, "\t... ", Integer.toString(common), " more", "");
      }
      return trace;
    }

    /** Frames at the end of {@code trace} that {@code enclosing} ends with too. */
    private static int common(StackTraceElement[] trace, StackTraceElement[] enclosing) {
      if (enclosing == null) {
        return 0;
      }
      int m = trace.length - 1;
      int n = enclosing.length - 1;
      while (m >= 0 && n >= 0 && trace[m] != null && trace[m].equals(enclosing[n])) {
        m--;
        n--;
      }
      return trace.length - 1 - m;
    }

    /** Appends the five parts and a line end, as far as the character budget allows. */
    void line(String a, String b, String c, String d, String e) {
      append(a);
      append(b);
      append(c);
      append(d);
      append(e);
      append("\n");
    }

    private void append(String s) {
      if (full) {
        return;
      }
      int room = maxChars - sb.length();
      if (s.length() <= room) {
        sb.append(s);
      } else {
        sb.append(s, 0, room);
        full = true;
      }
    }

    /** The text with its closing markers: what was cut, by which limit. */
    String close(int maxFrames, int depthLimit) {
      if (full) {
        if (sb.length() > 0 && sb.charAt(sb.length() - 1) != '\n') {
          sb.append('\n');
        }
        return sb.append("\t... rest of the stack trace omitted (character limit ")
            .append(maxChars)
            .append(")\n")
            .toString();
      }
      if (omitted > 0) {
        sb.append("\t... ")
            .append(omitted)
            .append(" frames omitted (limit ")
            .append(maxFrames)
            .append(")\n");
      }
      if (depthLimit >= 0) {
        sb.append("\t... causes and suppressed exceptions nested deeper than ")
            .append(depthLimit)
            .append(" omitted (depth limit ")
            .append(depthLimit)
            .append(")\n");
      }
      return sb.toString();
    }
  }
}
