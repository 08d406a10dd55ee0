package io.logproducer.log4j2;

import io.logproducer.testing.appender.SequenceSet;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.logging.log4j.core.Appender;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Node;
import org.apache.logging.log4j.core.config.Property;
import org.apache.logging.log4j.core.config.plugins.Plugin;
import org.apache.logging.log4j.core.config.plugins.PluginAttribute;
import org.apache.logging.log4j.core.config.plugins.PluginFactory;
import org.apache.logging.log4j.message.MapMessage;

/**
 * A test appender beside the Logproducer one: records the {@code seq} of every MapMessage log4j2
 * hands it into the set registered under its {@code run} (shared by the instances every
 * reconfiguration creates).
 */
@Plugin(name = "SeqWitness", category = Node.CATEGORY, elementType = Appender.ELEMENT_TYPE)
public final class SeqWitness extends AbstractAppender {

  static final Map<String, SequenceSet> RUNS = new ConcurrentHashMap<>();

  private final SequenceSet seen;

  private SeqWitness(String name, SequenceSet seen) {
    super(name, null, null, true, Property.EMPTY_ARRAY);
    this.seen = seen;
  }

  @PluginFactory
  public static SeqWitness create(
      @PluginAttribute("name") String name, @PluginAttribute("run") String run) {
    return new SeqWitness(name, RUNS.get(run));
  }

  @Override
  public void append(LogEvent event) {
    if (seen != null && event.getMessage() instanceof MapMessage<?, ?>) {
      Object seq = ((MapMessage<?, ?>) event.getMessage()).get("seq");
      if (seq != null) {
        seen.add(Long.parseLong(seq.toString()));
      }
    }
  }
}
