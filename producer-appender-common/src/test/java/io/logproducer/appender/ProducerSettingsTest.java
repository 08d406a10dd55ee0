package io.logproducer.appender;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.BufferFullPolicy;
import io.logproducer.ProducerConfig;
import io.logproducer.ProducerConfigDef;
import io.logproducer.ProducerConfigDef.Setting;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The appenders' producer settings are exactly the declared ones ({@link ProducerConfigDef}): a
 * setting added there fails here until {@link ProducerSettings} (logback's {@code <producer>}) has
 * its setter, and in log4j2's {@code ProducerSettingsElementTest} until {@code <ProducerSettings>}
 * has its attribute.
 */
public class ProducerSettingsTest {

  /** A valid value, not the default, for every declared setting (in the declaration's order). */
  public static final Map<String, String> SAMPLES = samples();

  private static Map<String, String> samples() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("totalSizeInBytes", "2097152");
    m.put("maxBlockMillis", "5");
    m.put("bufferFullPolicy", "BLOCK");
    m.put("batchSizeInBytes", "4096");
    m.put("batchCountThreshold", "7");
    m.put("lingerMillis", "3");
    m.put("sendThreads", "2");
    m.put("compression", "GZIP");
    m.put("compressionLevel", "5");
    m.put("retries", "3");
    m.put("initialRetryBackoffMillis", "10");
    m.put("maxRetryBackoffMillis", "20000");
    m.put("deliveryTimeoutMillis", "99999");
    m.put("maxAttributesPerRecord", "64");
    m.put("maxAttributeValueLength", "1000");
    m.put("clientId", "sample-client");
    m.put("jmxEnabled", "false");
    m.put("shutdownHookEnabled", "false");
    m.put("shutdownHookTimeoutMillis", "7");
    return m;
  }

  /** The value of {@code setting} in {@code config}, as text ({@code getX()} / {@code isX()}). */
  public static String valueIn(ProducerConfig config, Setting setting) throws Exception {
    String cap = Character.toUpperCase(setting.name().charAt(0)) + setting.name().substring(1);
    Method getter;
    try {
      getter = ProducerConfig.class.getMethod("get" + cap);
    } catch (NoSuchMethodException e) {
      getter = ProducerConfig.class.getMethod("is" + cap);
    }
    return String.valueOf(getter.invoke(config));
  }

  @Test
  void everyDeclaredSettingHasASampleAndATypedSetter() {
    assertEquals(
        ProducerConfigDef.all().stream().map(Setting::name).collect(Collectors.toList()),
        List.copyOf(SAMPLES.keySet()),
        "a sample per declared setting");
    Map<String, Class<?>> setters = new TreeMap<>();
    for (Method m : ProducerSettings.class.getDeclaredMethods()) {
      if (Modifier.isPublic(m.getModifiers())
          && m.getName().startsWith("set")
          && m.getName().length() > 3
          && m.getParameterCount() == 1) {
        setters.put(
            Character.toLowerCase(m.getName().charAt(3)) + m.getName().substring(4),
            m.getParameterTypes()[0]);
      }
    }
    Map<String, Class<?>> expected = new TreeMap<>();
    for (Setting s : ProducerConfigDef.all()) {
      expected.put(s.name(), javaType(s.type()));
    }
    assertEquals(
        expected,
        setters,
        "ProducerSettings' setters: one per declared setting, typed as declared");
  }

  private static Class<?> javaType(ProducerConfigDef.Type type) {
    switch (type) {
      case LONG:
        return long.class;
      case INT:
        return int.class;
      case BOOLEAN:
        return boolean.class;
      default:
        return String.class;
    }
  }

  @Test
  void everySettingReachesTheConfigBySetterAndByName() throws Exception {
    for (Setting s : ProducerConfigDef.all()) {
      String sample = SAMPLES.get(s.name());
      ProducerSettings byName = new ProducerSettings();
      byName.set(s.name(), sample);
      assertTrue(sample.equalsIgnoreCase(valueIn(byName.toConfig("a"), s)), s.name());

      ProducerSettings bySetter = new ProducerSettings();
      String cap = Character.toUpperCase(s.name().charAt(0)) + s.name().substring(1);
      Method setter = null;
      for (Method m : ProducerSettings.class.getMethods()) {
        if (m.getName().equals("set" + cap)) {
          setter = m;
        }
      }
      Class<?> t = setter.getParameterTypes()[0];
      setter.invoke(
          bySetter,
          t == long.class
              ? (Object) Long.parseLong(sample)
              : t == int.class
                  ? (Object) Integer.parseInt(sample)
                  : t == boolean.class ? (Object) Boolean.parseBoolean(sample) : sample);
      assertTrue(sample.equalsIgnoreCase(valueIn(bySetter.toConfig("a"), s)), s.name());
    }
  }

  @Test
  void appenderDefaultsAndMessages() {
    ProducerConfig c = new ProducerSettings().toConfig("My App");
    assertEquals(BufferFullPolicy.DROP, c.getBufferFullPolicy());
    assertEquals("logproducer-my_app", c.getClientId());
    ProducerSettings s = new ProducerSettings();
    assertEquals(
        "lingerMillis must be in [0, 3600000], was -1",
        assertThrows(IllegalArgumentException.class, () -> s.set("lingerMillis", "-1"))
            .getMessage());
    assertEquals(
        "lingerMillis must be an integer, was 'x'",
        assertThrows(IllegalArgumentException.class, () -> s.set("lingerMillis", "x"))
            .getMessage());
    assertEquals(
        "bufferFullPolicy must be one of BLOCK, DROP, was 'x'",
        assertThrows(IllegalArgumentException.class, () -> s.setBufferFullPolicy("x"))
            .getMessage());
  }
}
