package io.logproducer.gse.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.internal.bind.TypeAdapters;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;
import io.logproducer.AnyValue;
import io.logproducer.LogRecord;
import io.logproducer.Severity;
import io.logproducer.spi.RecordEncoder;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The item encoders, checked byte for byte and by decoding with an independent JSON parser (Gson,
 * strict).
 */
class ItemEncodersTest {

  private static final DataIds IDS = new DataIds(1500001, 1);

  private static String encode(RecordEncoder encoder, LogRecord record) {
    return new String(ItemEncoders.encode(encoder, record), StandardCharsets.UTF_8);
  }

  /** Completes the item as the framer does and parses it strictly. */
  private static JsonObject item(String encoded) throws IOException {
    return strict(encoded + ",\"iterationindex\":0}");
  }

  private static JsonObject strict(String text) throws IOException {
    JsonReader r = new JsonReader(new StringReader(text));
    r.setLenient(false);
    JsonElement e = TypeAdapters.JSON_ELEMENT.read(r);
    assertEquals(JsonToken.END_DOCUMENT, r.peek());
    return e.getAsJsonObject();
  }

  @Test
  void recordJsonIsByteForByteWhatBkCollectorWrites() {
    LogRecord r =
        LogRecord.builder()
            .setTimeUnixNano(1_700_000_000_123_456_789L)
            .setSeverity(Severity.WARN)
            .setBody("disk <full> & \"slow\"")
            .setAttribute("z", "last")
            .setAttribute("a", 1L)
            .setAttribute("m", true)
            .build();
    Map<String, AnyValue> resource = new LinkedHashMap<>();
    resource.put("service.name", AnyValue.of("svc"));
    resource.put("host.name", AnyValue.of("h"));
    String expected =
        "{\"data\":\"{\\\"attributes\\\":{\\\"a\\\":1,\\\"m\\\":true,\\\"z\\\":\\\"last\\\"},"
            + "\\\"body\\\":\\\"disk \\u003cfull\\u003e \\u0026 \\\\\\\"slow\\\\\\\"\\\",\\\"flags\\\":0,"
            + "\\\"resource\\\":{\\\"host.name\\\":\\\"h\\\",\\\"service.name\\\":\\\"svc\\\"},"
            + "\\\"severity_number\\\":13,\\\"severity_text\\\":\\\"WARN\\\",\\\"span_id\\\":\\\"\\\","
            + "\\\"time_unix\\\":1700000000123456,\\\"trace_id\\\":\\\"\\\"}\\n\"";
    assertEquals(expected, encode(ItemEncoders.recordJson(IDS, resource), r));
  }

  @Test
  void theDroppedAttributesCountIsAnAttributeInItsSortedPlaceOnlyWhenAboveZero()
      throws IOException {
    RecordEncoder encoder = ItemEncoders.recordJson(IDS, Map.of());
    LogRecord.Builder b =
        LogRecord.builder()
            .setObservedTimeUnixNano(1_000)
            .setAttribute("z", "last")
            .setAttribute("a", 1L)
            .setAttribute("p", true);
    String none = encode(encoder, b.build());
    assertEquals(
        List.of("a", "p", "z"),
        new ArrayList<>(attributes(none).keySet()),
        "no such attribute when nothing was dropped");
    String withCount = encode(encoder, b.setDroppedAttributesCount(42).build());
    assertEquals(
        none.replace("\\\"p\\\":true,", "\\\"otel.dropped_attributes_count\\\":42,\\\"p\\\":true,"),
        withCount,
        "byte for byte: the entry in its sorted place");
    assertEquals(
        List.of("a", ItemEncoders.DROPPED_ATTRIBUTES_COUNT_KEY, "p", "z"),
        new ArrayList<>(attributes(withCount).keySet()));
    assertEquals(
        Integer.MAX_VALUE,
        attributes(
                encode(
                    encoder,
                    LogRecord.builder().setDroppedAttributesCount(Integer.MAX_VALUE).build()))
            .get(ItemEncoders.DROPPED_ATTRIBUTES_COUNT_KEY)
            .getAsInt(),
        "alone, and last");
    JsonObject last =
        attributes(
            encode(
                encoder,
                LogRecord.builder().setAttribute("a", 1L).setDroppedAttributesCount(3).build()));
    assertEquals(
        List.of("a", ItemEncoders.DROPPED_ATTRIBUTES_COUNT_KEY), new ArrayList<>(last.keySet()));
    JsonObject own =
        attributes(
            encode(
                encoder,
                LogRecord.builder()
                    .setAttribute(ItemEncoders.DROPPED_ATTRIBUTES_COUNT_KEY, "mine")
                    .setDroppedAttributesCount(3)
                    .build()));
    assertEquals("mine", own.get(ItemEncoders.DROPPED_ATTRIBUTES_COUNT_KEY).getAsString());
    assertEquals(1, own.size(), "the record's own attribute of that name wins");
  }

  @Test
  void manyAttributesAreSortedAsFew() throws IOException {
    LogRecord.Builder b = LogRecord.builder();
    List<String> keys = new ArrayList<>();
    for (int i = 999; i >= 0; i--) {
      b.setAttribute("k" + i, (long) i);
      keys.add("k" + i);
    }
    keys.sort(null);
    JsonObject a = attributes(encode(ItemEncoders.recordJson(IDS, Map.of()), b.build()));
    assertEquals(keys, new ArrayList<>(a.keySet()));
  }

  private static JsonObject attributes(String encoded) throws IOException {
    return strict(item(encoded).get("data").getAsString()).getAsJsonObject("attributes");
  }

  @Test
  void recordJsonDecodesToTheRecordWhateverItHolds() throws IOException {
    String nasty =
        "q\" b\\ nl\n cr\r tab\t bs\b ff\f nul\u0000 us\u001f del\u007f <>& \u2028\u2029 é 中 😀 lone\ud800x";
    Map<String, AnyValue> nested = new LinkedHashMap<>();
    nested.put("y", AnyValue.of(nasty));
    nested.put("x", AnyValue.ofArray(AnyValue.of(1L), AnyValue.of(2.5), AnyValue.of(false)));
    LogRecord r =
        LogRecord.builder()
            .setObservedTimeUnixNano(5_000_000L)
            .setSeverityNumber(3)
            .setBody(nasty)
            .setAttribute(nasty, nasty)
            .setAttribute("  ", "blank keys are dropped")
            .setAttribute("bytes", new byte[] {0, 1, (byte) 0xFF})
            .setAttribute("double", 0.1)
            .setAttribute("big", 1e21)
            .setAttribute("small", 1.5e-7)
            .setAttribute("long", Long.MIN_VALUE)
            .setAttribute("kv", AnyValue.ofKeyValueList(nested))
            .setTraceId("00112233445566778899aabbccddeeff")
            .setSpanId("0011223344556677")
            .setFlags(0x80000001)
            .build();
    JsonObject item = item(encode(ItemEncoders.recordJson(IDS, Map.of()), r));
    String data = item.get("data").getAsString();
    assertEquals('\n', data.charAt(data.length() - 1), "json.Encoder.Encode's newline");
    JsonObject inner = strict(data);
    String expectedNasty = nasty.replace("\ud800", "\ufffd");
    assertEquals(expectedNasty, inner.get("body").getAsString());
    JsonObject a = inner.getAsJsonObject("attributes");
    assertEquals(
        List.of("big", "bytes", "double", "kv", "long", expectedNasty, "small"),
        new ArrayList<>(a.keySet()),
        "sorted keys, the blank one dropped");
    assertEquals(expectedNasty, a.get(expectedNasty).getAsString());
    assertEquals("AAH/", a.get("bytes").getAsString());
    assertEquals("0.1", a.get("double").toString());
    assertEquals("1e+21", a.get("big").toString());
    assertEquals("1.5e-7", a.get("small").toString());
    assertEquals(Long.MIN_VALUE, a.get("long").getAsLong());
    JsonObject kv = a.getAsJsonObject("kv");
    assertEquals(List.of("x", "y"), new ArrayList<>(kv.keySet()));
    assertEquals(expectedNasty, kv.get("y").getAsString());
    JsonArray x = kv.getAsJsonArray("x");
    assertEquals("[1,2.5,false]", x.toString());
    assertEquals("00112233445566778899aabbccddeeff", inner.get("trace_id").getAsString());
    assertEquals("0011223344556677", inner.get("span_id").getAsString());
    assertEquals(2147483649L, inner.get("flags").getAsLong());
    assertEquals(5000, inner.get("time_unix").getAsLong());
    assertEquals(3, inner.get("severity_number").getAsInt());
    assertEquals("", inner.get("severity_text").getAsString());
  }

  @Test
  void bodyFormatWritesTheLineAsAGoJsonString() throws IOException {
    RecordEncoder e = ItemEncoders.body(IDS);
    assertEquals(
        "{\"data\":\"a \\\"b\\\" \\\\ \\n \\u003c\\u003e\\u0026 \\u2028 \\u0001 中\"",
        encode(e, LogRecord.builder().setBody("a \"b\" \\ \n <>& \u2028 \u0001 中").build()));
    assertEquals("{\"data\":\"\"", encode(e, LogRecord.builder().build()));
    assertEquals(
        "{\"data\":\"true\"", encode(e, LogRecord.builder().setBody(AnyValue.of(true)).build()));
    assertEquals(
        "{\"data\":\"1e-7\"", encode(e, LogRecord.builder().setBody(AnyValue.of(1e-7)).build()));
    Map<String, AnyValue> m = new LinkedHashMap<>();
    m.put("b", AnyValue.of("<"));
    m.put("a", AnyValue.of(1L));
    JsonObject item =
        item(encode(e, LogRecord.builder().setBody(AnyValue.ofKeyValueList(m)).build()));
    assertEquals(
        "{\"a\":1,\"b\":\"\\u003c\"}",
        item.get("data").getAsString(),
        "a map body is its json.Marshal text (sorted, HTML-escaped)");
  }

  @Test
  void encodersRefuseBadDestinations() {
    RecordEncoder e = ItemEncoders.body(IDS);
    IllegalArgumentException ex =
        assertThrows(
            IllegalArgumentException.class,
            () -> encode(e, LogRecord.builder().setDestination("-1").build()));
    assertEquals(
        "destination (GSE dataid) must be a decimal integer in [1, 2147483647], was '-1'",
        ex.getMessage());
    assertThrows(
        IllegalArgumentException.class,
        () ->
            encode(
                ItemEncoders.recordJson(new DataIds(0, 1), Map.of()), LogRecord.builder().build()));
  }

  @Test
  void goFloatFormatsAsGoEncodingJson() {
    assertEquals("1", GoJson.goFloat(1.0));
    assertEquals("-2.5", GoJson.goFloat(-2.5));
    assertEquals("0.1", GoJson.goFloat(0.1));
    assertEquals("0.000001", GoJson.goFloat(1e-6));
    assertEquals("1e-7", GoJson.goFloat(1e-7));
    assertEquals("1.5e-10", GoJson.goFloat(1.5e-10));
    assertEquals("100000000000000000000", GoJson.goFloat(1e20));
    assertEquals("1e+21", GoJson.goFloat(1e21));
    assertEquals("1.7976931348623157e+308", GoJson.goFloat(Double.MAX_VALUE));
    assertEquals("5e-324", GoJson.goFloat(Double.MIN_VALUE));
    assertEquals("123456789.125", GoJson.goFloat(123456789.125));
    assertEquals("0", GoJson.goFloat(0.0));
    assertEquals("-0", GoJson.goFloat(-0.0));
    assertThrows(IllegalArgumentException.class, () -> GoJson.goFloat(Double.NaN));
  }

  @Test
  void dataIdsParseAndCacheDestinations() {
    DataIds ids = new DataIds(0, 1);
    assertEquals(7, ids.of("7"));
    assertEquals(2147483647, ids.of("2147483647"));
    assertEquals(ids.of("1500001"), ids.of(new String("1500001")));
    for (String bad :
        new String[] {"", "0", "+1", " 1", "1.0", "2147483648", "99999999999", "abc"}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ids.of(bad));
      assertEquals(
          "destination (GSE dataid) must be a decimal integer in [1, 2147483647], was '"
              + bad
              + "'",
          e.getMessage());
    }
    assertEquals(9, new DataIds(9, 1).of(null));
  }

  @Test
  void shardKeysStripeADataIdByThreadAndNeverSpanDataIds() throws Exception {
    DataIds ids = new DataIds(5, 4);
    DataIds.ShardKey mine = ids.shardKey(null);
    assertEquals(5, mine.dataId);
    assertSame(mine, ids.shardKey(null), "no allocation: the same key for the same thread");
    assertSame(mine, ids.shardKey("5"), "the default dataid given explicitly is the same shard");
    assertEquals(6, ids.shardKey("6").dataId);
    java.util.Set<DataIds.ShardKey> seen = new java.util.HashSet<>();
    for (int t = 0; t < 16; t++) {
      Thread th =
          new Thread(
              () -> {
                synchronized (seen) {
                  seen.add(ids.shardKey(null));
                }
              });
      th.start();
      th.join();
    }
    assertEquals(4, seen.size(), "16 threads spread over the 4 stripes of dataid 5");
    for (DataIds.ShardKey k : seen) {
      assertEquals(5, k.dataId);
    }
    assertSame(new DataIds(5, 1).shardKey(null).getClass(), mine.getClass());
  }
}
