package io.logproducer.gse.internal;

import io.logproducer.AnyValue;
import io.logproducer.LogRecord;
import io.logproducer.spi.EncodeBuffer;
import io.logproducer.spi.RecordEncoder;
import java.lang.ref.WeakReference;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * The two item encoders. Each writes the start of one {@code items[]} element, {@code {"data":"…"}} without its
 * closing brace: the framer appends {@code ,"iterationindex":i}}, because the index is the record's position in the
 * frame (bk-collector's {@code queue.NewEventsMapStr}).
 *
 * <ul>
 *   <li>{@link #recordJson}: {@code data} is the record as bk-collector's logs converter writes it
 *       ({@code exporter/converter/logs.go}, {@code Extract}): a JSON object with keys in Go's sorted map order,
 *       {@code attributes} (blank keys dropped, as {@code CleanAttributesMap}), {@code body}
 *       ({@code Value.AsString()}), {@code flags}, {@code resource}, {@code severity_number},
 *       {@code severity_text}, {@code span_id} and {@code trace_id} (lower-case hex, "" when absent),
 *       {@code time_unix} (microseconds; the observed time when the event time is 0), ending in the newline that
 *       Go's {@code json.Encoder.Encode} appends.</li>
 *   <li>{@link #body}: {@code data} is the body as text, one log line, as a log collector sends it.</li>
 * </ul>
 *
 * <p>Both validate the record's dataid (its destination) so that {@code send} refuses a bad one. Thread-safe; each
 * calling thread uses its own scratch buffer, held through a plain {@link ThreadLocal} of a JDK
 * {@link WeakReference}: application threads reference no class of this library (a redeployed web application's
 * class loader can be collected), and an idle scratch buffer is collectable at any GC (it is simply made anew).
 */
public final class ItemEncoders {

  private static final int SCRATCH_INITIAL_BYTES = 2048;
  private static final int SCRATCH_KEEP_BYTES = 1024 * 1024;
  private static final ThreadLocal<WeakReference<JsonBytes>> SCRATCH = new ThreadLocal<WeakReference<JsonBytes>>();

  private static final byte[] ITEM_START = ascii("{\"data\":\"");
  private static final byte[] RECORD_START = ascii("{\"data\":\"{\\\"attributes\\\":{");
  private static final byte[] KEY_BODY = ascii("},\\\"body\\\":");
  private static final byte[] KEY_FLAGS = ascii(",\\\"flags\\\":");
  private static final byte[] KEY_RESOURCE = ascii(",\\\"resource\\\":");
  private static final byte[] KEY_SEVERITY_NUMBER = ascii(",\\\"severity_number\\\":");
  private static final byte[] KEY_SEVERITY_TEXT = ascii(",\\\"severity_text\\\":");
  private static final byte[] KEY_SPAN_ID = ascii(",\\\"span_id\\\":\\\"");
  private static final byte[] KEY_TIME_UNIX = ascii("\\\",\\\"time_unix\\\":");
  private static final byte[] KEY_TRACE_ID = ascii(",\\\"trace_id\\\":\\\"");
  /** Closes trace_id, the inner object, writes the inner document's trailing newline, closes the data string. */
  private static final byte[] RECORD_END = ascii("\\\"}\\n\"");

  private ItemEncoders() {
  }

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  /**
   * bk-collector's record JSON.
   *
   * @param resource the resource attributes written into every record's {@code resource}
   */
  public static RecordEncoder recordJson(DataIds dataIds, Map<String, AnyValue> resource) {
    JsonBytes r = new JsonBytes(256);
    GoValues.map2(r, resource);
    byte[] resourceJson = r.toByteArray();
    return (record, out) -> {
      dataIds.of(record.getDestination());
      JsonBytes j = scratch();
      try {
        writeRecord(j, record, resourceJson);
        out.writeBytes(j.array(), 0, j.size());
      } finally {
        j.resetAndTrim(SCRATCH_KEEP_BYTES, SCRATCH_INITIAL_BYTES);
      }
    };
  }

  /** The body line. */
  public static RecordEncoder body(DataIds dataIds) {
    return (record, out) -> {
      dataIds.of(record.getDestination());
      JsonBytes j = scratch();
      try {
        j.raw(ITEM_START);
        AnyValue body = record.getBody();
        j.content1(body != null && body.getType() == AnyValue.Type.STRING ? body.asString()
            : GoValues.asString(body));
        j.raw('"');
        out.writeBytes(j.array(), 0, j.size());
      } finally {
        j.resetAndTrim(SCRATCH_KEEP_BYTES, SCRATCH_INITIAL_BYTES);
      }
    };
  }

  /** The calling thread's scratch buffer, empty. */
  static JsonBytes scratch() {
    WeakReference<JsonBytes> ref = SCRATCH.get();
    JsonBytes j = ref != null ? ref.get() : null;
    if (j == null) {
      j = new JsonBytes(SCRATCH_INITIAL_BYTES);
      SCRATCH.set(new WeakReference<JsonBytes>(j));
      return j;
    }
    j.reset();
    return j;
  }

  /** The thread-local holding the scratch buffers; for tests. */
  static ThreadLocal<WeakReference<JsonBytes>> scratchThreadLocal() {
    return SCRATCH;
  }

  static void writeRecord(JsonBytes j, LogRecord record, byte[] resourceJson) {
    j.raw(RECORD_START);
    writeAttributes(j, record);
    j.raw(KEY_BODY);
    AnyValue body = record.getBody();
    j.string2(body != null && body.getType() == AnyValue.Type.STRING ? body.asString() : GoValues.asString(body));
    j.raw(KEY_FLAGS).number(record.getFlags() & 0xFFFFFFFFL);
    j.raw(KEY_RESOURCE).raw(resourceJson);
    j.raw(KEY_SEVERITY_NUMBER).number(record.getSeverityNumber());
    String severityText = record.getSeverityText();
    j.raw(KEY_SEVERITY_TEXT).string2(severityText == null ? "" : severityText);
    j.raw(KEY_SPAN_ID).hex(record.getSpanId());
    long nanos = record.getTimeUnixNano() > 0 ? record.getTimeUnixNano() : record.getObservedTimeUnixNano();
    j.raw(KEY_TIME_UNIX).number(nanos / 1000);
    j.raw(KEY_TRACE_ID).hex(record.getTraceId());
    j.raw(RECORD_END);
  }

  /** The attributes as a level-2 object, keys sorted (Go map order), blank keys dropped; no braces. */
  private static void writeAttributes(JsonBytes j, LogRecord record) {
    int n = record.getAttributeCount();
    if (n == 0) {
      return;
    }
    int[] order = sortedOrder(record, n);
    boolean first = true;
    for (int k = 0; k < n; k++) {
      int i = order == null ? k : order[k];
      String key = record.getAttributeKey(i);
      if (isBlank(key)) {
        continue;
      }
      if (!first) {
        j.raw(',');
      }
      first = false;
      j.string2(key).raw(':');
      GoValues.value2(j, record.getAttributeValue(i));
    }
  }

  /** Attribute indices in key order, or null when they already are. */
  private static int[] sortedOrder(LogRecord record, int n) {
    boolean sorted = true;
    for (int i = 1; i < n && sorted; i++) {
      sorted = record.getAttributeKey(i - 1).compareTo(record.getAttributeKey(i)) <= 0;
    }
    if (sorted) {
      return null;
    }
    int[] order = new int[n];
    for (int i = 0; i < n; i++) {
      int k = i;
      String key = record.getAttributeKey(i);
      while (k > 0 && record.getAttributeKey(order[k - 1]).compareTo(key) > 0) {
        order[k] = order[k - 1];
        k--;
      }
      order[k] = i;
    }
    return order;
  }

  /** Go's {@code strings.TrimSpace(k) == ""}. */
  private static boolean isBlank(String key) {
    for (int i = 0; i < key.length(); i++) {
      char c = key.charAt(i);
      if (!(Character.isWhitespace(c) || Character.isSpaceChar(c) || c == '\u0085')) {
        return false;
      }
    }
    return true;
  }

  /** For tests: the encoded bytes of one record. */
  static byte[] encode(RecordEncoder encoder, LogRecord record) {
    EncodeBuffer b = new EncodeBuffer(256);
    encoder.encode(record, b);
    return java.util.Arrays.copyOf(b.array(), b.size());
  }
}
