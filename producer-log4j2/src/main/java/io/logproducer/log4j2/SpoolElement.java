package io.logproducer.log4j2;

import io.logproducer.appender.AppenderSpoolSettings;
import org.apache.logging.log4j.core.config.Node;
import org.apache.logging.log4j.core.config.plugins.Plugin;
import org.apache.logging.log4j.core.config.plugins.PluginAttribute;
import org.apache.logging.log4j.core.config.plugins.PluginFactory;

/**
 * The {@code <Spool>} element of a {@code <Logproducer>} appender: the producer's disk spool
 * ({@code io.logproducer.SpoolConfig}), off when absent. Events not delivered within {@code
 * deliveryTimeoutMillis} or by the appender's stop are SPOOLED, and the next producer on the same
 * directory delivers them.
 */
@Plugin(name = "Spool", category = Node.CATEGORY, printObject = true)
public final class SpoolElement {

  private final AppenderSpoolSettings settings;
  private final boolean valid;

  private SpoolElement(AppenderSpoolSettings settings, boolean valid) {
    this.settings = settings;
    this.valid = valid;
  }

  /**
   * Creates the element from its XML attributes; an invalid value is reported on log4j2's status
   * channel (naming it) and keeps the appender from being created.
   *
   * @param directory the spool's directory (required)
   * @param maxBytes every byte the spool may take on disk (default 1 GiB)
   * @param segmentBytes the size of one segment file (default 64 MiB)
   * @param durability {@code none}, {@code group_commit} (default) or {@code every_batch}
   * @param groupCommitMillis the group-commit interval (default 200)
   * @param fullPolicy {@code drop_newest} (default), {@code drop_oldest} or {@code block}
   * @param maxBlockMillis how long {@code block} waits for room (default 0)
   * @param maxAgeMillis stored batches older than this are expired (default 7 days)
   * @param minFreeDiskShare the share of the file system the spool leaves free (default 0.05)
   * @param replayShare the share of the send threads' concurrent exports replay may use (default
   *     0.5)
   * @return the element
   */
  @PluginFactory
  public static SpoolElement createSpool(
      @PluginAttribute("directory") String directory,
      @PluginAttribute("maxBytes") String maxBytes,
      @PluginAttribute("segmentBytes") String segmentBytes,
      @PluginAttribute("durability") String durability,
      @PluginAttribute("groupCommitMillis") String groupCommitMillis,
      @PluginAttribute("fullPolicy") String fullPolicy,
      @PluginAttribute("maxBlockMillis") String maxBlockMillis,
      @PluginAttribute("maxAgeMillis") String maxAgeMillis,
      @PluginAttribute("minFreeDiskShare") String minFreeDiskShare,
      @PluginAttribute("replayShare") String replayShare) {
    final AppenderSpoolSettings s = new AppenderSpoolSettings();
    Settings a =
        new Settings("Spool")
            .apply("directory", directory, s::setDirectory)
            .apply("maxBytes", maxBytes, v -> s.setMaxBytes(Settings.parseLong("maxBytes", v)))
            .apply(
                "segmentBytes",
                segmentBytes,
                v -> s.setSegmentBytes(Settings.parseLong("segmentBytes", v)))
            .apply("durability", durability, s::setDurability)
            .apply(
                "groupCommitMillis",
                groupCommitMillis,
                v -> s.setGroupCommitMillis(Settings.parseLong("groupCommitMillis", v)))
            .apply("fullPolicy", fullPolicy, s::setFullPolicy)
            .apply(
                "maxBlockMillis",
                maxBlockMillis,
                v -> s.setMaxBlockMillis(Settings.parseLong("maxBlockMillis", v)))
            .apply(
                "maxAgeMillis",
                maxAgeMillis,
                v -> s.setMaxAgeMillis(Settings.parseLong("maxAgeMillis", v)))
            .apply(
                "minFreeDiskShare",
                minFreeDiskShare,
                v -> s.setMinFreeDiskShare(parseShare("minFreeDiskShare", v)))
            .apply("replayShare", replayShare, v -> s.setReplayShare(parseShare("replayShare", v)));
    return new SpoolElement(s, a.valid());
  }

  private static double parseShare(String setting, String value) {
    try {
      return Double.parseDouble(value.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(setting + " must be a number, was '" + value + "'", e);
    }
  }

  AppenderSpoolSettings settings() {
    return settings;
  }

  boolean valid() {
    return valid;
  }

  @Override
  public String toString() {
    return "Spool";
  }
}
