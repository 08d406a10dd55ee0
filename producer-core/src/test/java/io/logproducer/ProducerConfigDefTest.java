package io.logproducer;

import static io.logproducer.ProducerConfigTest.assertMessage;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.ProducerConfigDef.Setting;
import io.logproducer.ProducerConfigDef.Type;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The one declaration of the settings against ProducerConfig's builder, getters, defaults and docs.
 */
class ProducerConfigDefTest {

  private static final List<String> NAMES =
      List.of(
          "totalSizeInBytes",
          "maxBlockMillis",
          "bufferFullPolicy",
          "batchSizeInBytes",
          "batchCountThreshold",
          "lingerMillis",
          "sendThreads",
          "compression",
          "compressionLevel",
          "retries",
          "initialRetryBackoffMillis",
          "maxRetryBackoffMillis",
          "deliveryTimeoutMillis",
          "maxAttributesPerRecord",
          "maxAttributeValueLength",
          "clientId",
          "jmxEnabled",
          "shutdownHookEnabled",
          "shutdownHookTimeoutMillis");

  @Test
  void everyBuilderSetterIsDeclaredAndEveryDeclarationHasASetter() {
    Set<String> setters = new TreeSet<>();
    for (Method m : ProducerConfig.Builder.class.getDeclaredMethods()) {
      if (Modifier.isPublic(m.getModifiers())
          && m.getName().startsWith("set")
          && m.getParameterCount() == 1
          && m.getParameterTypes()[0] != Duration.class // setLinger(Duration) etc.: conveniences
          && m.getParameterTypes()[0] != SpoolConfig.class) { // nested: documented on its own
        setters.add(Character.toLowerCase(m.getName().charAt(3)) + m.getName().substring(4));
      }
    }
    assertEquals(setters, new TreeSet<>(names()));
    assertEquals(NAMES, names(), "the declared settings, in the docs' order");
  }

  @Test
  void theDeclaredDefaultsAreProducerConfigsDefaults() throws Exception {
    ProducerConfig d = ProducerConfig.defaults();
    for (Setting s : ProducerConfigDef.all()) {
      Object value = getter(s).invoke(d);
      switch (s.type()) {
        case LONG:
        case INT:
        case BOOLEAN:
          assertTrue(
              s.defaultText().equals(String.valueOf(value))
                  || s.defaultText().startsWith(value + " "),
              s + ": " + s.defaultText() + " vs " + value);
          break;
        case BUFFER_FULL_POLICY:
          assertEquals("`" + value + "`", s.defaultText());
          break;
        case COMPRESSION:
          assertTrue(value == null && s.defaultText().startsWith("unset"), s.defaultText());
          break;
        case STRING:
          assertTrue(
              ((String) value).startsWith("logproducer-")
                  && s.defaultText().startsWith("`logproducer-N`"),
              s.defaultText());
          break;
        default:
          throw new AssertionError(s);
      }
    }
  }

  @Test
  void theBuilderEnforcesExactlyTheDeclaredBounds() throws Exception {
    for (Setting s : ProducerConfigDef.all()) {
      if (s.type() != Type.LONG && s.type() != Type.INT) {
        continue;
      }
      long limit = s.type() == Type.INT ? Integer.MAX_VALUE : Long.MAX_VALUE;
      for (long ok : new long[] {s.min(), s.max()}) {
        ProducerConfig.Builder b = ProducerConfig.builder();
        s.apply(b, Long.toString(ok));
        assertEquals(ok, ((Number) getter(s).invoke(unchecked(b))).longValue(), s.toString());
      }
      if (s.min() > Long.MIN_VALUE) {
        assertMessage(
            s.name() + " must be in [" + s.min() + ", " + s.max() + "], was " + (s.min() - 1),
            () -> s.apply(ProducerConfig.builder(), Long.toString(s.min() - 1)));
      }
      if (s.max() < limit) {
        assertMessage(
            s.name() + " must be in [" + s.min() + ", " + s.max() + "], was " + (s.max() + 1),
            () -> s.apply(ProducerConfig.builder(), Long.toString(s.max() + 1)));
      }
    }
  }

  @Test
  void textIsParsedWithTheSettingNamed() {
    assertMessage(
        "lingerMillis must be an integer, was 'soon'",
        () -> ProducerConfigDef.LINGER_MILLIS.apply(ProducerConfig.builder(), "soon"));
    assertMessage(
        "sendThreads must be an integer (32 bits), was '9999999999'",
        () -> ProducerConfigDef.SEND_THREADS.apply(ProducerConfig.builder(), "9999999999"));
    assertMessage(
        "jmxEnabled must be true or false, was 'yes'",
        () -> ProducerConfigDef.JMX_ENABLED.apply(ProducerConfig.builder(), "yes"));
    assertMessage(
        "bufferFullPolicy must be one of BLOCK, DROP, was 'wait'",
        () -> ProducerConfigDef.BUFFER_FULL_POLICY.apply(ProducerConfig.builder(), "wait"));
    assertMessage(
        "compression must be one of none, gzip, lz4, zstd, was 'snappy'",
        () -> ProducerConfigDef.COMPRESSION.apply(ProducerConfig.builder(), "snappy"));
    assertMessage(
        "no producer setting named 'linger'; the settings are " + NAMES,
        () -> ProducerConfigDef.setting("linger"));
    ProducerConfig.Builder b = ProducerConfig.builder();
    ProducerConfigDef.setting("bufferFullPolicy").apply(b, " drop ");
    ProducerConfigDef.setting("compression").apply(b, "ZSTD");
    ProducerConfigDef.setting("clientId").apply(b, "cid");
    ProducerConfigDef.setting("shutdownHookEnabled").apply(b, "FALSE");
    ProducerConfig c = b.build();
    assertEquals(BufferFullPolicy.DROP, c.getBufferFullPolicy());
    assertEquals(Compression.ZSTD, c.getCompression());
    assertEquals("cid", c.getClientId());
    assertEquals(false, c.isShutdownHookEnabled());
  }

  @Test
  void docsConfigurationHoldsTheGeneratedTable() throws Exception {
    String page = new String(Files.readAllBytes(docs("configuration.md")), StandardCharsets.UTF_8);
    String table = ProducerConfigDef.markdownTable();
    assertTrue(
        page.contains("\n" + table + "\n"),
        "docs/configuration.md must hold, as a paragraph of its own:\n" + table);
    assertEquals(NAMES.size() + 2, table.split("\n").length);
  }

  private static List<String> names() {
    return ProducerConfigDef.all().stream().map(Setting::name).collect(Collectors.toList());
  }

  private static Method getter(Setting s) throws NoSuchMethodException {
    String cap = Character.toUpperCase(s.name().charAt(0)) + s.name().substring(1);
    try {
      return ProducerConfig.class.getMethod("get" + cap);
    } catch (NoSuchMethodException e) {
      return ProducerConfig.class.getMethod("is" + cap);
    }
  }

  /** The builder's values without build()'s cross-field rules (a bound alone may break them). */
  private static ProducerConfig unchecked(ProducerConfig.Builder b) throws Exception {
    var constructor = ProducerConfig.class.getDeclaredConstructor(ProducerConfig.Builder.class);
    constructor.setAccessible(true);
    return constructor.newInstance(b);
  }

  static Path docs(String page) {
    for (Path d = Paths.get("").toAbsolutePath(); d != null; d = d.getParent()) {
      Path p = d.resolve("docs").resolve(page);
      if (Files.isRegularFile(p)) {
        return p;
      }
    }
    throw new AssertionError("docs/" + page + " not found above " + Paths.get("").toAbsolutePath());
  }
}
