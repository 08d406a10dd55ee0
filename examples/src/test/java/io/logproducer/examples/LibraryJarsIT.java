package io.logproducer.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;

/**
 * What the release ships for every library module (run by failsafe in {@code verify}; the reactor
 * has packaged the libraries before this module): the jar with its {@code Automatic-Module-Name},
 * the sources jar and the Javadoc jar.
 */
class LibraryJarsIT {

  private static final Map<String, String> MODULE_NAMES = new LinkedHashMap<>();

  static {
    MODULE_NAMES.put("producer-core", "io.logproducer.core");
    MODULE_NAMES.put("producer-otlp-encoding", "io.logproducer.otlp.encoding");
    MODULE_NAMES.put("producer-otlp", "io.logproducer.otlp");
    MODULE_NAMES.put("producer-gse", "io.logproducer.gse");
    MODULE_NAMES.put("producer-kafka", "io.logproducer.kafka");
    MODULE_NAMES.put("producer-appender-common", "io.logproducer.appender");
    MODULE_NAMES.put("producer-logback", "io.logproducer.logback");
    MODULE_NAMES.put("producer-log4j2", "io.logproducer.log4j2");
    MODULE_NAMES.put("producer-micrometer", "io.logproducer.micrometer");
    MODULE_NAMES.put(
        "producer-spring-boot-autoconfigure", "io.logproducer.spring.boot.autoconfigure");
  }

  private static Path root() {
    for (Path d = Paths.get("").toAbsolutePath(); d != null; d = d.getParent()) {
      if (Files.isDirectory(d.resolve("producer-core"))
          && Files.isRegularFile(d.resolve("pom.xml"))) {
        return d;
      }
    }
    throw new AssertionError("the reactor root was not found");
  }

  @Test
  void everyLibraryShipsItsJarWithAModuleNameAndItsSourcesAndJavadoc() throws Exception {
    String version = System.getProperty("project.version", "0.1.0-SNAPSHOT");
    for (Map.Entry<String, String> m : MODULE_NAMES.entrySet()) {
      Path target = root().resolve(m.getKey()).resolve("target");
      Path jar = target.resolve(m.getKey() + "-" + version + ".jar");
      assertTrue(Files.isRegularFile(jar), "missing " + jar);
      try (JarFile j = new JarFile(jar.toFile())) {
        assertEquals(
            m.getValue(),
            j.getManifest().getMainAttributes().getValue("Automatic-Module-Name"),
            jar.toString());
      }
      for (String classifier : new String[] {"sources", "javadoc"}) {
        Path extra = target.resolve(m.getKey() + "-" + version + "-" + classifier + ".jar");
        assertTrue(
            Files.isRegularFile(extra) && Files.size(extra) > 1_000, "missing or empty " + extra);
      }
    }
  }
}
