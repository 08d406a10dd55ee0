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

  public record Seen(
      String loggerName, String threadName, String message, long epochSecond, int nanoOfSecond) {
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
