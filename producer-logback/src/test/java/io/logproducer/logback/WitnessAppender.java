package io.logproducer.logback;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import io.logproducer.testing.appender.SequenceSet;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.event.KeyValuePair;

/**
 * Test appender beside the one under test: records the {@code seq} key-value of every event logback
 * hands it, started or not (what logback handed to the appenders of the logger), into the set
 * registered under its {@code run} (shared by every instance a reconfiguration creates).
 */
public class WitnessAppender extends AppenderBase<ILoggingEvent> {

  static final Map<String, SequenceSet> RUNS = new ConcurrentHashMap<>();

  private volatile SequenceSet seen;

  /**
   * @param run the key of the set in {@link #RUNS}
   */
  public void setRun(String run) {
    seen = RUNS.get(run);
  }

  @Override
  public void doAppend(ILoggingEvent e) {
    record(seen, e); // every call, whatever the state: logback stops appenders before it detaches
  }

  @Override
  protected void append(ILoggingEvent e) {
    // all the work is in doAppend
  }

  static void record(SequenceSet set, ILoggingEvent e) {
    if (set == null || e.getKeyValuePairs() == null) {
      return;
    }
    for (KeyValuePair kv : e.getKeyValuePairs()) {
      if ("seq".equals(kv.key)) {
        set.add(((Number) kv.value).longValue());
      }
    }
  }
}
