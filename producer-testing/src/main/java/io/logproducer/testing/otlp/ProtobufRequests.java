package io.logproducer.testing.otlp;

import static io.logproducer.internal.proto.ProtoReader.FIXED32;
import static io.logproducer.internal.proto.ProtoReader.FIXED64;
import static io.logproducer.internal.proto.ProtoReader.LEN;
import static io.logproducer.internal.proto.ProtoReader.VARINT;
import static io.logproducer.internal.proto.ProtoReader.tag;

import io.logproducer.internal.proto.ProtoReader;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongConsumer;

/**
 * Reads a protobuf {@code ExportLogsServiceRequest} (field numbers of {@code
 * opentelemetry/proto/logs/v1} and {@code common/v1}) with the core's {@link ProtoReader}: {@link
 * #count} walks it without building objects (the counting mode), {@link #decode} builds {@link
 * ReceivedLogRecord}s (the strict mode). Both throw {@link IllegalArgumentException} on malformed
 * input. Stateless, thread-safe.
 */
final class ProtobufRequests {

  private static final int REQUEST_RESOURCE_LOGS = tag(1, LEN);
  private static final int RESOURCE_LOGS_RESOURCE = tag(1, LEN);
  private static final int RESOURCE_LOGS_SCOPE_LOGS = tag(2, LEN);
  private static final int RESOURCE_ATTRIBUTES = tag(1, LEN);
  private static final int SCOPE_LOGS_SCOPE = tag(1, LEN);
  private static final int SCOPE_LOGS_LOG_RECORDS = tag(2, LEN);
  private static final int SCOPE_NAME = tag(1, LEN);
  private static final int SCOPE_VERSION = tag(2, LEN);
  private static final int SCOPE_ATTRIBUTES = tag(3, LEN);
  private static final int LOG_TIME = tag(1, FIXED64);
  private static final int LOG_SEVERITY_NUMBER = tag(2, VARINT);
  private static final int LOG_SEVERITY_TEXT = tag(3, LEN);
  private static final int LOG_BODY = tag(5, LEN);
  private static final int LOG_ATTRIBUTES = tag(6, LEN);
  private static final int LOG_DROPPED_ATTRIBUTES = tag(7, VARINT);
  private static final int LOG_FLAGS = tag(8, FIXED32);
  private static final int LOG_TRACE_ID = tag(9, LEN);
  private static final int LOG_SPAN_ID = tag(10, LEN);
  private static final int LOG_OBSERVED_TIME = tag(11, FIXED64);
  private static final int LOG_EVENT_NAME = tag(12, LEN);
  private static final int KV_KEY = tag(1, LEN);
  private static final int KV_VALUE = tag(2, LEN);
  private static final int ANY_STRING = tag(1, LEN);
  private static final int ANY_BOOL = tag(2, VARINT);
  private static final int ANY_INT = tag(3, VARINT);
  private static final int ANY_DOUBLE = tag(4, FIXED64);
  private static final int ANY_ARRAY = tag(5, LEN);
  private static final int ANY_KVLIST = tag(6, LEN);
  private static final int ANY_BYTES = tag(7, LEN);
  private static final int LIST_VALUES = tag(1, LEN);
  private static final int MAX_DEPTH = 32;

  private ProtobufRequests() {}

  /**
   * The number of log records in {@code body[offset, offset + length)}. With a non-null {@code
   * idKey}, also passes {@code ids} each record's int attribute named {@code idKey} (UTF-8 bytes),
   * or -1 for a record without one.
   */
  static long count(byte[] body, int offset, int length, byte[] idKey, LongConsumer ids) {
    long count = 0;
    ProtoReader request = new ProtoReader(body, offset, length);
    while (request.hasMore()) {
      int tag = request.readTag();
      if (tag != REQUEST_RESOURCE_LOGS) {
        request.skip(tag);
        continue;
      }
      ProtoReader rl = request.readMessage();
      while (rl.hasMore()) {
        int t = rl.readTag();
        if (t != RESOURCE_LOGS_SCOPE_LOGS) {
          rl.skip(t);
          continue;
        }
        ProtoReader sl = rl.readMessage();
        while (sl.hasMore()) {
          int st = sl.readTag();
          if (st != SCOPE_LOGS_LOG_RECORDS) {
            sl.skip(st);
          } else if (idKey == null) {
            sl.skip(st);
            count++;
          } else {
            ids.accept(intAttribute(sl.readMessage(), idKey));
            count++;
          }
        }
      }
    }
    return count;
  }

  /**
   * The int_value of the attribute named {@code key} of one LogRecord, or -1 (the last one if
   * repeated).
   */
  private static long intAttribute(ProtoReader record, byte[] key) {
    long id = -1;
    while (record.hasMore()) {
      int tag = record.readTag();
      if (tag != LOG_ATTRIBUTES) {
        record.skip(tag);
        continue;
      }
      ProtoReader kv = record.readMessage();
      boolean matches = false;
      long value = -1;
      while (kv.hasMore()) {
        int t = kv.readTag();
        if (t == KV_KEY) {
          matches = kv.readBytesEqual(key);
        } else if (t == KV_VALUE) {
          ProtoReader v = kv.readMessage();
          while (v.hasMore()) {
            int vt = v.readTag();
            if (vt == ANY_INT) {
              value = v.readVarint();
            } else {
              v.skip(vt);
            }
          }
        } else {
          kv.skip(t);
        }
      }
      if (matches) {
        id = value;
      }
    }
    return id;
  }

  /**
   * The log records of {@code body[0, length)}, in order, with their resource's and scope's
   * attributes.
   */
  static List<ReceivedLogRecord> decode(byte[] body, int length) {
    List<ReceivedLogRecord> out = new ArrayList<>();
    ProtoReader request = new ProtoReader(body, 0, length);
    while (request.hasMore()) {
      int tag = request.readTag();
      if (tag != REQUEST_RESOURCE_LOGS) {
        request.skip(tag);
        continue;
      }
      ProtoReader rl = request.readMessage();
      Map<String, Object> resource = Collections.emptyMap();
      List<String> resourceRepeats = new ArrayList<>();
      List<ProtoReader> scopeLogs = new ArrayList<>();
      while (rl.hasMore()) { // the resource may follow its scope_logs on the wire: read it first
        int t = rl.readTag();
        if (t == RESOURCE_LOGS_RESOURCE) {
          resource = attributes(rl.readMessage(), RESOURCE_ATTRIBUTES, resourceRepeats);
        } else if (t == RESOURCE_LOGS_SCOPE_LOGS) {
          scopeLogs.add(rl.readMessage());
        } else {
          rl.skip(t);
        }
      }
      List<String> resourceRepeated = Collections.unmodifiableList(resourceRepeats);
      for (ProtoReader sl : scopeLogs) {
        decodeScopeLogs(sl, resource, resourceRepeated, out);
      }
    }
    return Collections.unmodifiableList(out);
  }

  private static void decodeScopeLogs(
      ProtoReader sl,
      Map<String, Object> resource,
      List<String> resourceRepeats,
      List<ReceivedLogRecord> out) {
    String name = "";
    String version = "";
    Map<String, Object> scopeAttributes = Collections.emptyMap();
    List<String> scopeRepeats = new ArrayList<>();
    int first = out.size();
    while (sl.hasMore()) {
      int t = sl.readTag();
      if (t == SCOPE_LOGS_SCOPE) {
        ProtoReader scope = sl.readMessage();
        Map<String, Object> attrs = new LinkedHashMap<>();
        while (scope.hasMore()) {
          int st = scope.readTag();
          if (st == SCOPE_NAME) {
            name = scope.readString();
          } else if (st == SCOPE_VERSION) {
            version = scope.readString();
          } else if (st == SCOPE_ATTRIBUTES) {
            keyValue(scope.readMessage(), attrs, 0, scopeRepeats);
          } else {
            scope.skip(st);
          }
        }
        scopeAttributes = Collections.unmodifiableMap(attrs);
      } else if (t == SCOPE_LOGS_LOG_RECORDS) {
        ReceivedLogRecord r = logRecord(sl.readMessage());
        r.resourceAttributes = resource;
        r.repeatedResourceAttributeKeys = resourceRepeats;
        out.add(r);
      } else {
        sl.skip(t);
      }
    }
    List<String> scopeRepeated = Collections.unmodifiableList(scopeRepeats);
    for (int i = first; i < out.size(); i++) { // the scope may follow its records on the wire
      out.get(i).scopeName = name;
      out.get(i).scopeVersion = version;
      out.get(i).scopeAttributes = scopeAttributes;
      out.get(i).repeatedScopeAttributeKeys = scopeRepeated;
    }
  }

  private static ReceivedLogRecord logRecord(ProtoReader in) {
    ReceivedLogRecord r = new ReceivedLogRecord();
    Map<String, Object> attributes = new LinkedHashMap<>();
    List<String> repeats = new ArrayList<>();
    while (in.hasMore()) {
      int t = in.readTag();
      if (t == LOG_TIME) {
        r.timeUnixNano = in.readFixed64();
      } else if (t == LOG_OBSERVED_TIME) {
        r.observedTimeUnixNano = in.readFixed64();
      } else if (t == LOG_SEVERITY_NUMBER) {
        r.severityNumber = (int) in.readVarint();
      } else if (t == LOG_SEVERITY_TEXT) {
        r.severityText = in.readString();
      } else if (t == LOG_BODY) {
        r.body = anyValue(in.readMessage(), 0);
      } else if (t == LOG_ATTRIBUTES) {
        keyValue(in.readMessage(), attributes, 0, repeats);
      } else if (t == LOG_DROPPED_ATTRIBUTES) {
        r.droppedAttributesCount = (int) in.readVarint();
      } else if (t == LOG_FLAGS) {
        r.flags = in.readFixed32();
      } else if (t == LOG_TRACE_ID) {
        r.traceId = hex(in.readBytes());
      } else if (t == LOG_SPAN_ID) {
        r.spanId = hex(in.readBytes());
      } else if (t == LOG_EVENT_NAME) {
        r.eventName = in.readString();
      } else {
        in.skip(t);
      }
    }
    r.attributes = Collections.unmodifiableMap(attributes);
    r.repeatedAttributeKeys = Collections.unmodifiableList(repeats);
    return r;
  }

  /**
   * The KeyValues of field {@code fieldTag} of a message (a Resource's attributes); keys seen
   * before in the list are added to {@code repeats}.
   */
  private static Map<String, Object> attributes(
      ProtoReader message, int fieldTag, List<String> repeats) {
    Map<String, Object> out = new LinkedHashMap<>();
    while (message.hasMore()) {
      int t = message.readTag();
      if (t == fieldTag) {
        keyValue(message.readMessage(), out, 0, repeats);
      } else {
        message.skip(t);
      }
    }
    return Collections.unmodifiableMap(out);
  }

  /**
   * Puts one KeyValue into {@code into}; a key already there is added to {@code repeats} (null: not
   * tracked, inside a value) and takes the new value.
   */
  private static void keyValue(
      ProtoReader kv, Map<String, Object> into, int depth, List<String> repeats) {
    String key = "";
    Object value = null;
    while (kv.hasMore()) {
      int t = kv.readTag();
      if (t == KV_KEY) {
        key = kv.readString();
      } else if (t == KV_VALUE) {
        value = anyValue(kv.readMessage(), depth + 1);
      } else {
        kv.skip(t);
      }
    }
    if (into.containsKey(key) && repeats != null) {
      repeats.add(key);
    }
    into.put(key, value);
  }

  private static Object anyValue(ProtoReader v, int depth) {
    if (depth > MAX_DEPTH) {
      throw new IllegalArgumentException(
          "malformed protobuf: AnyValue nested deeper than " + MAX_DEPTH);
    }
    Object value = null; // a oneof: the last one on the wire wins
    while (v.hasMore()) {
      int t = v.readTag();
      if (t == ANY_STRING) {
        value = v.readString();
      } else if (t == ANY_BOOL) {
        value = v.readVarint() != 0;
      } else if (t == ANY_INT) {
        value = v.readVarint();
      } else if (t == ANY_DOUBLE) {
        value = Double.longBitsToDouble(v.readFixed64());
      } else if (t == ANY_BYTES) {
        value = v.readBytes();
      } else if (t == ANY_ARRAY) {
        List<Object> list = new ArrayList<>();
        ProtoReader array = v.readMessage();
        while (array.hasMore()) {
          int at = array.readTag();
          if (at == LIST_VALUES) {
            list.add(anyValue(array.readMessage(), depth + 1));
          } else {
            array.skip(at);
          }
        }
        value = Collections.unmodifiableList(list);
      } else if (t == ANY_KVLIST) {
        Map<String, Object> map = new LinkedHashMap<>();
        ProtoReader kvlist = v.readMessage();
        while (kvlist.hasMore()) {
          int kt = kvlist.readTag();
          if (kt == LIST_VALUES) {
            keyValue(kvlist.readMessage(), map, depth + 1, null);
          } else {
            kvlist.skip(kt);
          }
        }
        value = Collections.unmodifiableMap(map);
      } else {
        v.skip(t);
      }
    }
    return value;
  }

  static String hex(byte[] bytes) {
    char[] out = new char[bytes.length * 2];
    for (int i = 0; i < bytes.length; i++) {
      out[2 * i] = Character.forDigit((bytes[i] >> 4) & 0xF, 16);
      out[2 * i + 1] = Character.forDigit(bytes[i] & 0xF, 16);
    }
    return new String(out);
  }
}
