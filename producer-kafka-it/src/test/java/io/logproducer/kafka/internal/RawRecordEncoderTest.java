package io.logproducer.kafka.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.logproducer.AnyValue;
import io.logproducer.LogRecord;
import io.logproducer.spi.EncodeBuffer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The raw encoding: the value is the body as the Collector's raw marshaler writes it, the key the
 * attribute.
 */
class RawRecordEncoderTest {

  private static byte[][] roundTrip(RawRecordEncoder encoder, LogRecord r) {
    EncodeBuffer out = new EncodeBuffer(64);
    out.setLimit(1 << 20);
    out.writeBytes(new byte[] {7, 7, 7}); // the record may sit anywhere in a batch
    int start = out.size();
    encoder.encode(r, out);
    return RawRecordEncoder.split(out.array(), start, out.size() - start);
  }

  private static String utf8(byte[] b) {
    return new String(b, StandardCharsets.UTF_8);
  }

  @Test
  void rawCarriesNoAttributesSoNoDroppedCountEither() {
    RawRecordEncoder e = new RawRecordEncoder("user");
    LogRecord.Builder b =
        LogRecord.builder().setBody("line").setAttribute("user", "u1").setAttribute("other", 1L);
    byte[][] plain = roundTrip(e, b.build());
    byte[][] withDropped = roundTrip(e, b.setDroppedAttributesCount(9).build());
    assertEquals("u1", utf8(withDropped[0]));
    assertEquals("line", utf8(withDropped[1]), "the body only: no attribute, no count");
    assertArrayEquals(plain[0], withDropped[0]);
    assertArrayEquals(plain[1], withDropped[1]);
  }

  @Test
  void bodiesOfEveryKind() {
    RawRecordEncoder e = new RawRecordEncoder(null);
    assertEquals(
        "日志 😀 line", utf8(roundTrip(e, LogRecord.builder().setBody("日志 😀 line").build())[1]));
    assertArrayEquals(
        new byte[] {0, (byte) 0xFF, 10},
        roundTrip(
            e, LogRecord.builder().setBody(AnyValue.of(new byte[] {0, (byte) 0xFF, 10})).build())[
            1]);
    assertEquals(
        "true", utf8(roundTrip(e, LogRecord.builder().setBody(AnyValue.of(true)).build())[1]));
    assertEquals(
        "-42", utf8(roundTrip(e, LogRecord.builder().setBody(AnyValue.of(-42L)).build())[1]));
    assertEquals(
        "2.5", utf8(roundTrip(e, LogRecord.builder().setBody(AnyValue.of(2.5)).build())[1]));
    Map<String, AnyValue> kv = new LinkedHashMap<>();
    kv.put("msg", AnyValue.of("say \"hi\"\n\u0001"));
    kv.put("n", AnyValue.of(1L));
    kv.put(
        "list",
        AnyValue.ofArray(AnyValue.of(false), AnyValue.of(new byte[] {1, 2}), AnyValue.ofArray()));
    assertEquals(
        "{\"msg\":\"say \\\"hi\\\"\\n\\u0001\",\"n\":1,\"list\":[false,\"AQI=\",[]]}",
        utf8(roundTrip(e, LogRecord.builder().setBody(AnyValue.ofKeyValueList(kv)).build())[1]));
    byte[][] none = roundTrip(e, LogRecord.builder().setAttribute("a", "b").build());
    assertNull(none[0]);
    assertEquals(0, none[1].length);
  }

  @Test
  void keysFromTheAttribute() {
    RawRecordEncoder e = new RawRecordEncoder("user");
    byte[][] kv =
        roundTrip(e, LogRecord.builder().setBody("b").setAttribute("user", "алиса").build());
    assertEquals("алиса", utf8(kv[0]));
    assertEquals("b", utf8(kv[1]));
    assertEquals("7", utf8(roundTrip(e, LogRecord.builder().setAttribute("user", 7L).build())[0]));
    assertArrayEquals(
        new byte[] {1, 2},
        roundTrip(e, LogRecord.builder().setAttribute("user", new byte[] {1, 2}).build())[0]);
    assertEquals(
        0,
        roundTrip(e, LogRecord.builder().setAttribute("user", "").build())[0].length,
        "empty key");
    assertNull(roundTrip(e, LogRecord.builder().setBody("no key").build())[0]);
    String longKey = new String(new char[300]).replace('\0', 'k'); // a two-byte length prefix
    assertEquals(
        longKey, utf8(roundTrip(e, LogRecord.builder().setAttribute("user", longKey).build())[0]));
  }
}
