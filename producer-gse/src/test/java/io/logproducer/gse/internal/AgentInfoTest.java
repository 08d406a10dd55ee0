package io.logproducer.gse.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The agent-info reply is parsed leniently. */
class AgentInfoTest {

  private static AgentInfo parse(String json) {
    byte[] b = json.getBytes(StandardCharsets.UTF_8);
    return AgentInfo.parse(b, 0, b.length);
  }

  @Test
  void readsEveryKnownField() {
    AgentInfo a =
        parse(
            "{\"bizid\":2,\"bk_biz_id\":3,\"cloudid\":4,\"ip\":\"10.0.0.5\",\"bk_agent_id\":\"id\","
                + "\"bk_host_id\":77,\"bk_tenant_id\":\"system\",\"static_dataid\":1001,\"hostname\":\"h\"}");
    assertEquals(2, a.bizId);
    assertEquals(3, a.bkBizId);
    assertEquals(4, a.cloudId);
    assertEquals("10.0.0.5", a.ip);
    assertEquals("id", a.bkAgentId);
    assertEquals(77, a.bkHostId);
    assertEquals("system", a.bkTenantId);
    assertEquals(1001, a.staticDataId);
    assertEquals("h", a.hostname);
  }

  @Test
  void isLenientAboutSpellingsTypesExtrasAndPadding() {
    AgentInfo a =
        parse(
            "\uFEFF  {\"cloud_id\":\"12\",\"bizid\":\" 5 \",\"bk_biz_id\":3.0,\"ip\":\"1.1.1.1\","
                + "\"unknown\":{\"deep\":[1,{\"x\":null},true]},\"bk_host_id\":1e2,\"bk_agent_id\":123}\n\0\0");
    assertEquals(12, a.cloudId);
    assertEquals(5, a.bizId);
    assertEquals(3, a.bkBizId);
    assertEquals(100, a.bkHostId);
    assertEquals("123", a.bkAgentId);
    assertEquals("1.1.1.1", a.ip);
    assertNull(a.staticDataId);
  }

  @Test
  void cloudidWinsOverCloudUnderscoreId() {
    assertEquals(1, parse("{\"cloud_id\":2,\"cloudid\":1}").cloudId);
  }

  @Test
  void outOfRangeOrFractionalNumbersAreAbsent() {
    AgentInfo a = parse("{\"bizid\":2147483648,\"cloudid\":1.5,\"bk_host_id\":\"x\"}");
    assertNull(a.bizId);
    assertNull(a.cloudId);
    assertNull(a.bkHostId);
  }

  @Test
  void overlongStringsAreCut() {
    String ip = "9".repeat(300);
    assertEquals(255, parse("{\"ip\":\"" + ip + "\"}").ip.length());
  }

  @Test
  void refusesWhatIsNotAJsonObject() {
    assertEquals(
        "expected a JSON object at offset 0",
        assertThrows(IllegalArgumentException.class, () -> parse("[1]")).getMessage());
    assertEquals(
        "unterminated string at offset 8",
        assertThrows(IllegalArgumentException.class, () -> parse("{\"ip\":\"x")).getMessage());
    assertEquals(
        "unexpected text after the object at offset 3",
        assertThrows(IllegalArgumentException.class, () -> parse("{} x")).getMessage());
    byte[] bad = {'{', '"', 'a', '"', ':', '"', (byte) 0xC3, '"', '}'};
    assertThrows(IllegalArgumentException.class, () -> AgentInfo.parse(bad, 0, bad.length));
  }
}
