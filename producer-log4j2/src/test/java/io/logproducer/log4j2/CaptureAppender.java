package io.logproducer.log4j2;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.logging.log4j.core.Appender;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Node;
import org.apache.logging.log4j.core.config.Property;
import org.apache.logging.log4j.core.config.plugins.Plugin;
import org.apache.logging.log4j.core.config.plugins.PluginAttribute;
import org.apache.logging.log4j.core.config.plugins.PluginFactory;

/**
 * A test appender next to the Logproducer one: records what log4j2 handed to appenders (copied
 * during append).
 */
@Plugin(name = "Capture", category = Node.CATEGORY, elementType = Appender.ELEMENT_TYPE)
public final class CaptureAppender extends AbstractAppender {

  public static final class Seen {
    private final String loggerName;
    private final String threadName;
    private final String message;
    private final long epochSecond;
    private final int nanoOfSecond;

    public Seen(
        String loggerName, String threadName, String message, long epochSecond, int nanoOfSecond) {
      this.loggerName = loggerName;
      this.threadName = threadName;
      this.message = message;
      this.epochSecond = epochSecond;
      this.nanoOfSecond = nanoOfSecond;
    }

    public String loggerName() {
      return loggerName;
    }

    public String threadName() {
      return threadName;
    }

    public String message() {
      return message;
    }

    public long epochSecond() {
      return epochSecond;
    }

    public int nanoOfSecond() {
      return nanoOfSecond;
    }

    @Override
    public boolean equals(Object o) {
      if (!(o instanceof Seen)) {
        return false;
      }
      Seen other = (Seen) o;
      return java.util.Objects.equals(loggerName, other.loggerName)
          && java.util.Objects.equals(threadName, other.threadName)
          && java.util.Objects.equals(message, other.message)
          && epochSecond == other.epochSecond
          && nanoOfSecond == other.nanoOfSecond;
    }

    @Override
    public int hashCode() {
      return java.util.Objects.hash(loggerName, threadName, message, epochSecond, nanoOfSecond);
    }

    @Override
    public String toString() {
      return "Seen[loggerName="
          + loggerName
          + ", threadName="
          + threadName
          + ", message="
          + message
          + ", epochSecond="
          + epochSecond
          + ", nanoOfSecond="
          + nanoOfSecond
          + "]";
    }

    long timeUnixNano() {
      return epochSecond * 1_000_000_000L + nanoOfSecond;
    }
  }

  private final List<Seen> seen = new CopyOnWriteArrayList<>();

  private CaptureAppender(String name) {
    super(name, null, null, true, Property.EMPTY_ARRAY);
  }

  @PluginFactory
  public static CaptureAppender create(@PluginAttribute("name") String name) {
    return new CaptureAppender(name);
  }

  @Override
  public void append(LogEvent event) {
    seen.add(
        new Seen(
            event.getLoggerName(),
            event.getThreadName(),
            event.getMessage().getFormattedMessage(),
            event.getInstant().getEpochSecond(),
            event.getInstant().getNanoOfSecond()));
  }

  public List<Seen> seen() {
    return List.copyOf(seen);
  }
}
