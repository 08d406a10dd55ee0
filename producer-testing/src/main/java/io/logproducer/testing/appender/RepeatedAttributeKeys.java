package io.logproducer.testing.appender;

import static io.logproducer.internal.proto.ProtoReader.LEN;
import static io.logproducer.internal.proto.ProtoReader.tag;

import io.logproducer.internal.proto.ProtoReader;
import io.logproducer.testing.otlp.ReceivedLogRecord;
import io.logproducer.testing.otlp.ReceivedRequest;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Attribute keys that occur more than once in one attribute list of a protobuf request: a {@link
 * ReceivedLogRecord} keeps only the last value of a repeated key, so a test that must see each key
 * once reads the raw body ({@link ReceivedRequest#body()}) with this. Looks at the resource's, the
 * instrumentation scope's and each log record's attributes. Stateless, thread-safe.
 */
public final class RepeatedAttributeKeys {

  private static final int REQUEST_RESOURCE_LOGS = tag(1, LEN);
  private static final int RESOURCE_LOGS_RESOURCE = tag(1, LEN);
  private static final int RESOURCE_LOGS_SCOPE_LOGS = tag(2, LEN);
  private static final int RESOURCE_ATTRIBUTES = tag(1, LEN);
  private static final int SCOPE_LOGS_SCOPE = tag(1, LEN);
  private static final int SCOPE_LOGS_LOG_RECORDS = tag(2, LEN);
  private static final int SCOPE_ATTRIBUTES = tag(3, LEN);
  private static final int LOG_ATTRIBUTES = tag(6, LEN);
  private static final int KV_KEY = tag(1, LEN);

  private RepeatedAttributeKeys() {}

  /**
   * The keys repeated within one attribute list of {@code request}, each as {@code "resource:
   * key"}, {@code "scope: key"} or {@code "record i: key"} (i counts the request's log records from
   * 0), in wire order.
   *
   * @param request a protobuf request, as {@link io.logproducer.testing.otlp.OtlpReceiver} received
   *     it
   * @return the repeated keys, empty if every list's keys are distinct; unmodifiable
   * @throws IllegalArgumentException if {@code request} is OTLP/JSON (it must be protobuf), or its
   *     body is not a well-formed protobuf message
   */
  public static List<String> in(ReceivedRequest request) {
    if (request.isJson()) {
      throw new IllegalArgumentException("request must be protobuf, was " + request.contentType());
    }
    byte[] body = request.body();
    List<String> out = new ArrayList<>();
    ProtoReader in = new ProtoReader(body, 0, body.length);
    int record = 0;
    while (in.hasMore()) {
      int t = in.readTag();
      if (t != REQUEST_RESOURCE_LOGS) {
        in.skip(t);
        continue;
      }
      ProtoReader rl = in.readMessage();
      while (rl.hasMore()) {
        int rt = rl.readTag();
        if (rt == RESOURCE_LOGS_RESOURCE) {
          repeated(rl.readMessage(), RESOURCE_ATTRIBUTES, "resource", out);
        } else if (rt == RESOURCE_LOGS_SCOPE_LOGS) {
          ProtoReader sl = rl.readMessage();
          while (sl.hasMore()) {
            int st = sl.readTag();
            if (st == SCOPE_LOGS_SCOPE) {
              repeated(sl.readMessage(), SCOPE_ATTRIBUTES, "scope", out);
            } else if (st == SCOPE_LOGS_LOG_RECORDS) {
              repeated(sl.readMessage(), LOG_ATTRIBUTES, "record " + record++, out);
            } else {
              sl.skip(st);
            }
          }
        } else {
          rl.skip(rt);
        }
      }
    }
    return Collections.unmodifiableList(out);
  }

  /**
   * Adds to {@code out} each key of the KeyValues in field {@code fieldTag} of {@code message} seen
   * before.
   */
  private static void repeated(ProtoReader message, int fieldTag, String where, List<String> out) {
    Set<String> seen = new HashSet<>();
    while (message.hasMore()) {
      int t = message.readTag();
      if (t != fieldTag) {
        message.skip(t);
        continue;
      }
      ProtoReader kv = message.readMessage();
      String key = "";
      while (kv.hasMore()) {
        int kt = kv.readTag();
        if (kt == KV_KEY) {
          key = kv.readString();
        } else {
          kv.skip(kt);
        }
      }
      if (!seen.add(key)) {
        out.add(where + ": " + key);
      }
    }
  }
}
