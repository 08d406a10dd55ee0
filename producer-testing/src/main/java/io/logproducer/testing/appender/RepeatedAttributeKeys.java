package io.logproducer.testing.appender;

import io.logproducer.testing.otlp.ReceivedLogRecord;
import io.logproducer.testing.otlp.ReceivedRequest;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Attribute keys that occur more than once in one attribute list of a request, as the receiver's
 * decoder recorded them ({@link ReceivedLogRecord#repeatedAttributeKeys()} and its resource and
 * scope counterparts): a {@link ReceivedLogRecord} keeps only the last value of a repeated key, so
 * a test that must see each key once asks this. Looks at the resource's, the instrumentation
 * scope's and each log record's attributes, protobuf and JSON alike. Stateless, thread-safe.
 */
public final class RepeatedAttributeKeys {

  private RepeatedAttributeKeys() {}

  /**
   * The keys repeated within one attribute list of {@code request}, each as {@code "resource:
   * key"}, {@code "scope: key"} or {@code "record i: key"} (i counts the request's log records from
   * 0); a resource's or scope's keys are listed once, before those of its first record.
   *
   * @param request a request, as {@link io.logproducer.testing.otlp.OtlpReceiver} received it
   * @return the repeated keys, empty if every list's keys are distinct; unmodifiable
   */
  public static List<String> in(ReceivedRequest request) {
    List<String> out = new ArrayList<>();
    Map<List<String>, Boolean> listed = new IdentityHashMap<>(); // one list per resource / scope
    List<ReceivedLogRecord> records = request.records();
    for (int i = 0; i < records.size(); i++) {
      ReceivedLogRecord r = records.get(i);
      add("resource", r.repeatedResourceAttributeKeys(), listed, out);
      add("scope", r.repeatedScopeAttributeKeys(), listed, out);
      for (String key : r.repeatedAttributeKeys()) {
        out.add("record " + i + ": " + key);
      }
    }
    return Collections.unmodifiableList(out);
  }

  private static void add(
      String where, List<String> keys, Map<List<String>, Boolean> listed, List<String> out) {
    if (!keys.isEmpty() && listed.put(keys, Boolean.TRUE) == null) {
      for (String key : keys) {
        out.add(where + ": " + key);
      }
    }
  }
}
