package io.logproducer.gse.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The frame encoders against golden vectors produced by the unmodified libgse encoder
 * (bkmonitor-datalink).
 */
class GseProtocolTest {

  private static final int DATA_ID = 1500001; // 0x0016E361
  private static final int UTC = 0x01020304;
  private static final byte[] BODY = "{\"a\":1}".getBytes(StandardCharsets.US_ASCII);

  private static byte[] hex(String s) {
    return parseHex(s.replaceAll("[\\s|]", ""));
  }

  @Test
  void commonFrameMatchesTheGoldenVector() {
    byte[] expected = hex("00000c01 0016e361 01020304 00000007 00000000 00000000 | 7b2261223a317d");
    assertEquals(31, expected.length);
    assertArrayEquals(expected, GseProtocol.commonFrame(DATA_ID, UTC, BODY));
  }

  @Test
  void dynamicFrameMatchesTheGoldenVector() {
    byte[] expected = new byte[463];
    byte[] first48 =
        hex(
            "00000009 0016e361 01020304 000001b7 00000000 00000000"
                + "0000000000000000 00000000 00000000 00000198 00000000");
    System.arraycopy(first48, 0, expected, 0, 48);
    // bytes 48..455: 408 x 00
    System.arraycopy(BODY, 0, expected, 456, BODY.length);
    byte[] actual = GseProtocol.dynamicFrame(DATA_ID, UTC, GseProtocol.Meta.EMPTY, BODY);
    assertEquals(463, actual.length);
    assertEquals(0x1b7, 24 + 408 + BODY.length, "bodylen = len(body) + 24 + metaMaxLen");
    assertArrayEquals(expected, actual);
  }

  @Test
  void dynamicFrameWithMetaTagMatchesTheGoldenVector() {
    GseProtocol.Meta meta = GseProtocol.Meta.of(List.of(Map.entry("tag", "v1")));
    byte[] actual = GseProtocol.dynamicFrame(DATA_ID, UTC, meta, BODY);
    byte[] expected = GseProtocol.dynamicFrame(DATA_ID, UTC, GseProtocol.Meta.EMPTY, BODY);
    System.arraycopy(hex("0000000d 00000198 00000001"), 0, expected, 36, 12);
    byte[] entry = hex("00000003 00000002 746167 7631");
    System.arraycopy(entry, 0, expected, 48, entry.length);
    assertEquals(463, actual.length, "total still 463 bytes");
    assertArrayEquals(expected, actual);
    for (int i = 48 + entry.length; i < 456; i++) {
      assertEquals(0, actual[i], "meta area zero padded at " + i);
    }
  }

  @Test
  void agentInfoRequestMatchesTheGoldenVector() {
    assertArrayEquals(
        hex("0000000a 00000000 00000000 00000000 00000000 00000000"),
        GseProtocol.agentInfoRequest());
  }

  @Test
  void metaThatDoesNotFitTheAreaIsRefused() {
    String big = "v".repeat(400 - 3);
    GseProtocol.Meta ok = GseProtocol.Meta.of(List.of(Map.entry("tag", big)));
    assertEquals(408, ok.length);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> GseProtocol.Meta.of(List.of(Map.entry("tag", big + "v"))));
    assertEquals(
        "meta entries must fit metaMaxLen 408 bytes (8 + key bytes + value bytes each), was 409",
        e.getMessage());
  }

  @Test
  void envelopeRendersTheSameHeaderAsTheCodecAroundItsDocument() throws Exception {
    Envelope envelope =
        new Envelope(
            true,
            GseProtocol.Meta.of(List.of(Map.entry("tag", "v1"))),
            new Envelope.Attach(1, 2, 3, "1.2.3.4", "host", "agent", 5),
            10 * 1024 * 1024,
            () -> UTC * 1000L + 999,
            ZoneOffset.ofHours(8));
    byte[] items = "{\"data\":\"x\",\"iterationindex\":0}".getBytes(StandardCharsets.US_ASCII);
    byte[] frame = envelope.render(DATA_ID, items, items.length, AgentInfo.NONE).toByteArray();
    String json = new String(frame, 456, frame.length - 456, StandardCharsets.UTF_8);
    // 0x01020304 = 16909060 s = 195 days + 61060 s = 1970-07-15 16:57:40 UTC
    assertEquals(
        "{\"bizid\":1,\"bk_agent_id\":\"agent\",\"bk_biz_id\":2,\"bk_host_id\":5,\"cloudid\":3,"
            + "\"dataid\":1500001,\"datetime\":\"1970-07-16 00:57:40\",\"gseindex\":1,\"hostname\":\"host\","
            + "\"ip\":\"1.2.3.4\",\"items\":[{\"data\":\"x\",\"iterationindex\":0}],\"time\":16909060,"
            + "\"utctime\":\"1970-07-15 16:57:40\"}",
        json);
    byte[] expected =
        GseProtocol.dynamicFrame(
            DATA_ID,
            UTC,
            GseProtocol.Meta.of(List.of(Map.entry("tag", "v1"))),
            json.getBytes(StandardCharsets.UTF_8));
    assertArrayEquals(expected, frame);
    assertEquals(json.length() + 432, ByteBuffer.wrap(frame).getInt(12), "bodylen");
    envelope.render(DATA_ID, items, items.length, AgentInfo.NONE);
    assertEquals(2, envelope.lastGseIndex(DATA_ID), "gseindex counts frames per dataid");
    assertEquals(0, envelope.lastGseIndex(DATA_ID + 1));
  }

  @Test
  void envelopeRefusesADocumentAtOrAboveTheMaximum() throws Exception {
    byte[] items = new byte[2000];
    Envelope common =
        new Envelope(
            false,
            GseProtocol.Meta.EMPTY,
            new Envelope.Attach(null, null, null, null, null, null, null),
            4096,
            () -> 0L,
            ZoneOffset.UTC);
    byte[] frame = common.render(7, items, items.length, AgentInfo.NONE).toByteArray();
    int docLength = frame.length - 24;
    assertEquals(0x0C01, ByteBuffer.wrap(frame).getInt(0));
    assertEquals(docLength, ByteBuffer.wrap(frame).getInt(12));
    int fits = 4096 - 1 - (docLength - items.length);
    common.render(7, new byte[fits], fits, AgentInfo.NONE);
    Envelope.FrameTooLargeException e =
        assertThrows(
            Envelope.FrameTooLargeException.class,
            () -> common.render(7, new byte[fits + 1], fits + 1, AgentInfo.NONE));
    assertEquals(
        "the frame's JSON body would be 4,096 bytes, not below maxFrameBodyBytes 4,096",
        e.getMessage());
  }

  /** {@code HexFormat.of().parseHex} of Java 17, for the Java 11 test runs. */
  static byte[] parseHex(String hex) {
    byte[] out = new byte[hex.length() / 2];
    for (int i = 0; i < out.length; i++) {
      out[i] = (byte) Integer.parseInt(hex.substring(2 * i, 2 * i + 2), 16);
    }
    return out;
  }
}
