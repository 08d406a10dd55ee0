package io.logproducer.log4j2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.ProducerConfigDef;
import io.logproducer.ProducerConfigDef.Setting;
import io.logproducer.appender.ProducerSettingsTest;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * {@code <ProducerSettings>}'s attributes are exactly the declared settings, and each reaches its
 * own setting.
 */
class ProducerSettingsElementTest {

  @Test
  void theAttributesAreTheDeclaredSettings() {
    Set<String> declared =
        new TreeSet<>(
            ProducerConfigDef.all().stream().map(Setting::name).collect(Collectors.toList()));
    assertEquals(declared, new TreeSet<>(ProducerSettingsElement.ATTRIBUTES));
    assertEquals(declared.size(), ProducerSettingsElement.ATTRIBUTES.size(), "no attribute twice");
  }

  @Test
  void eachAttributeSetsItsOwnSetting() throws Exception {
    Method factory =
        ProducerSettingsElement.class.getMethod(
            "createProducerSettings",
            ProducerSettingsElement.ATTRIBUTES.stream()
                .map(a -> String.class)
                .toArray(Class<?>[]::new));
    List<String> attributes = ProducerSettingsElement.ATTRIBUTES;
    for (int i = 0; i < attributes.size(); i++) {
      Setting s = ProducerConfigDef.setting(attributes.get(i));
      String sample = ProducerSettingsTest.SAMPLES.get(s.name());
      Object[] args = new Object[attributes.size()];
      args[i] = sample;
      ProducerSettingsElement e = (ProducerSettingsElement) factory.invoke(null, args);
      assertTrue(e.valid(), s.name());
      assertTrue(
          sample.equalsIgnoreCase(ProducerSettingsTest.valueIn(e.settings().toConfig("a"), s)),
          s.name() + " set by attribute " + attributes.get(i));
    }
  }
}
