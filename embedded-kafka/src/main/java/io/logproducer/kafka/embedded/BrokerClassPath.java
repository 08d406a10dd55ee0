package io.logproducer.kafka.embedded;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The class path of the broker's JVM: the one this module was built with (the {@code
 * broker.classpath} resource next to this class, written by the build) followed by this module's
 * own jar or classes directory, when every recorded entry exists on this machine; otherwise the
 * caller's {@code java.class.path} made absolute (a shaded jar that holds the broker itself).
 * Stateless.
 */
final class BrokerClassPath {

  /**
   * The resource, next to this class, that lists the broker's class path (written by this module's
   * build).
   */
  static final String RESOURCE = "broker.classpath";

  private static final Logger log = LoggerFactory.getLogger(BrokerClassPath.class);

  private BrokerClassPath() {}

  /**
   * The class path for the broker's JVM, entries joined by {@link File#pathSeparator}.
   *
   * @return the recorded class path and this module's location, or this JVM's class path (absolute)
   */
  static String resolve() {
    List<String> recorded = recorded();
    if (recorded.isEmpty()) {
      // Absolute: the broker's JVM runs in the data directory.
      List<String> entries = new ArrayList<>();
      for (String entry : System.getProperty("java.class.path", "").split(File.pathSeparator)) {
        if (!entry.isEmpty()) {
          entries.add(new File(entry).getAbsolutePath());
        }
      }
      return String.join(File.pathSeparator, entries);
    }
    List<String> entries = new ArrayList<>(recorded);
    ownLocation().ifPresent(entries::add);
    return String.join(File.pathSeparator, entries);
  }

  /**
   * The entries of the {@code broker.classpath} resource.
   *
   * @return the entries, or none when the resource is missing or names a file that does not exist
   *     here
   */
  static List<String> recorded() {
    String text;
    try (InputStream in = BrokerClassPath.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        return Collections.emptyList();
      }
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
    } catch (IOException e) {
      return Collections.emptyList();
    }
    List<String> entries = new ArrayList<>();
    for (String entry : text.split(File.pathSeparator)) {
      String trimmed = entry.trim();
      if (trimmed.isEmpty()) {
        continue;
      }
      if (!Files.exists(Paths.get(trimmed))) {
        log.debug(
            "{} names {}, which does not exist here: the broker runs on java.class.path",
            RESOURCE,
            trimmed);
        return Collections.emptyList();
      }
      entries.add(trimmed);
    }
    return entries;
  }

  /** The jar or classes directory {@link BrokerMain} was loaded from. */
  private static Optional<String> ownLocation() {
    try {
      CodeSource source = BrokerMain.class.getProtectionDomain().getCodeSource();
      if (source == null || source.getLocation() == null) {
        return Optional.empty();
      }
      Path path = Paths.get(source.getLocation().toURI());
      return Files.exists(path) ? Optional.of(path.toString()) : Optional.empty();
    } catch (URISyntaxException | RuntimeException e) {
      return Optional.empty();
    }
  }
}
