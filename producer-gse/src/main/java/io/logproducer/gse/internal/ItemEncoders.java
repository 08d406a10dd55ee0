package io.logproducer.gse.internal;

import io.logproducer.AnyValue;
import io.logproducer.LogRecord;
import io.logproducer.spi.EncodeBuffer;
import io.logproducer.spi.RecordEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * The two item encoders. Each writes the start of one {@code items[]} element, {@code {"data":"…"}}
 * without its closing brace: the framer appends {@code ,"iterationindex":i}}, because the index is
 * the record's position in the frame (bk-collector's {@code queue.NewEventsMapStr}).
 *
 * <ul>
 *   <li>{@link #recordJson}: {@code data} is the record as bk-collector's logs converter writes it
 *       ({@code exporter/converter/logs.go}, {@code Extract}): a JSON object with keys in Go's
 *       sorted map order, {@code attributes} (blank keys dropped, as {@code CleanAttributesMap}),
 *       {@code body} ({@code Value.AsString()}), {@code flags}, {@code resource}, {@code
 *       severity_number}, {@code severity_text}, {@code span_id} and {@code trace_id} (lower-case
 *       hex, "" when absent), {@code time_unix} (microseconds; the observed time when the event
 *       time is 0), ending in the newline that Go's {@code json.Encoder.Encode} appends.
 *   <li>{@link #body}: {@code data} is the body as text, one log line, as a log collector sends it.
 * </ul>
 *
 * <p>Both validate the record's dataid (its destination) so that {@code send} refuses a bad one.
 * Both write straight into the buffer the producer gives them (one copy, no buffer of their own),
 * so a record that would take it past its limit is refused with {@link
 * io.logproducer.RecordTooLargeException} before anything of its size is allocated. Stateless;
 * thread-safe.
 */
public final class ItemEncoders {

  /**
   * The attribute that carries a record's {@code dropped_attributes_count} in {@code RECORD_JSON}
   * items (bk-collector's record has no such field), an integer written only when the count is
   * above 0, in its sorted place among the attributes; a record's own attribute of that name wins.
   */
  public static final String DROPPED_ATTRIBUTES_COUNT_KEY = "otel.dropped_attributes_count";

  /** Up to this many attributes are sorted by insertion (no allocation); more with a merge sort. */
  private static final int INSERTION_SORT_MAX = 32;

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

  /**
   * Closes trace_id, the inner object, writes the inner document's trailing newline, closes the
   * data string.
   */
  private static final byte[] RECORD_END = ascii("\\\"}\\n\"");

  private ItemEncoders() {}

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  /**
   * bk-collector's record JSON.
   *
   * @param resource the resource attributes written into every record's {@code resource}
   */
  public static RecordEncoder recordJson(DataIds dataIds, Map<String, AnyValue> resource) {
    EncodeBuffer r = new EncodeBuffer(256);
    GoValues.map2(r, resource);
    byte[] resourceJson = GoJson.toByteArray(r);
    return (record, out) -> {
      dataIds.of(record.getDestination());
      writeRecord(out, record, resourceJson);
    };
  }

  /** The body line. */
  public static RecordEncoder body(DataIds dataIds) {
    return (record, out) -> {
      dataIds.of(record.getDestination());
      GoJson.raw(out, ITEM_START);
      AnyValue body = record.getBody();
      GoJson.content1(
          out,
          body != null && body.getType() == AnyValue.Type.STRING
              ? body.asString()
              : GoValues.asString(body));
      out.writeByte('"');
    };
  }

  static void writeRecord(EncodeBuffer j, LogRecord record, byte[] resourceJson) {
    GoJson.raw(j, RECORD_START);
    writeAttributes(j, record);
    GoJson.raw(j, KEY_BODY);
    AnyValue body = record.getBody();
    GoJson.string2(
        j,
        body != null && body.getType() == AnyValue.Type.STRING
            ? body.asString()
            : GoValues.asString(body));
    GoJson.raw(j, KEY_FLAGS);
    GoJson.number(j, record.getFlags() & 0xFFFFFFFFL);
    GoJson.raw(j, KEY_RESOURCE);
    GoJson.raw(j, resourceJson);
    GoJson.raw(j, KEY_SEVERITY_NUMBER);
    GoJson.number(j, record.getSeverityNumber());
    String severityText = record.getSeverityText();
    GoJson.raw(j, KEY_SEVERITY_TEXT);
    GoJson.string2(j, severityText == null ? "" : severityText);
    GoJson.raw(j, KEY_SPAN_ID);
    GoJson.hex(j, record.getSpanId());
    long nanos =
        record.getTimeUnixNano() > 0 ? record.getTimeUnixNano() : record.getObservedTimeUnixNano();
    GoJson.raw(j, KEY_TIME_UNIX);
    GoJson.number(j, nanos / 1000);
    GoJson.raw(j, KEY_TRACE_ID);
    GoJson.hex(j, record.getTraceId());
    GoJson.raw(j, RECORD_END);
  }

  /**
   * The attributes as a level-2 object, keys sorted (Go map order), blank keys dropped, with {@link
   * #DROPPED_ATTRIBUTES_COUNT_KEY} when the record dropped some; no braces.
   */
  private static void writeAttributes(EncodeBuffer j, LogRecord record) {
    int n = record.getAttributeCount();
    int dropped = record.getDroppedAttributesCount();
    if (n == 0 && dropped == 0) {
      return;
    }
    int[] order = n == 0 ? null : sortedOrder(record, n);
    boolean droppedPending = dropped > 0;
    boolean first = true;
    for (int k = 0; k < n; k++) {
      int i = order == null ? k : order[k];
      String key = record.getAttributeKey(i);
      if (droppedPending) {
        int c = DROPPED_ATTRIBUTES_COUNT_KEY.compareTo(key);
        if (c < 0) {
          first = writeDropped(j, dropped, first);
        }
        droppedPending = c > 0; // c == 0: the record's own attribute of that name wins
      }
      if (isBlank(key)) {
        continue;
      }
      if (!first) {
        j.writeByte(',');
      }
      first = false;
      GoJson.string2(j, key);
      j.writeByte(':');
      GoValues.value2(j, record.getAttributeValue(i));
    }
    if (droppedPending) {
      writeDropped(j, dropped, first);
    }
  }

  /** Writes the dropped count's entry; returns false (the next entry is not the first). */
  private static boolean writeDropped(EncodeBuffer j, int dropped, boolean first) {
    if (!first) {
      j.writeByte(',');
    }
    GoJson.string2(j, DROPPED_ATTRIBUTES_COUNT_KEY);
    j.writeByte(':');
    GoJson.number(j, dropped);
    return false;
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
    if (n > INSERTION_SORT_MAX) { // insertion sort is quadratic
      Integer[] boxed = new Integer[n];
      for (int i = 0; i < n; i++) {
        boxed[i] = i;
      }
      java.util.Arrays.sort(
          boxed, (a, b) -> record.getAttributeKey(a).compareTo(record.getAttributeKey(b)));
      int[] order = new int[n];
      for (int i = 0; i < n; i++) {
        order[i] = boxed[i];
      }
      return order;
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
