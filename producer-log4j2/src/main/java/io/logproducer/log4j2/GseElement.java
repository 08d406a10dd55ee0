package io.logproducer.log4j2;

import io.logproducer.appender.GseSettings;
import org.apache.logging.log4j.core.config.Node;
import org.apache.logging.log4j.core.config.plugins.Plugin;
import org.apache.logging.log4j.core.config.plugins.PluginAttribute;
import org.apache.logging.log4j.core.config.plugins.PluginFactory;

/**
 * The {@code <Gse>} element of a {@code <Logproducer>} appender: the BlueKing GSE agent exporter,
 * on the agent's Unix-domain socket (default) or a TCP endpoint.
 */
@Plugin(name = "Gse", category = Node.CATEGORY, printObject = true)
public final class GseElement {

  private final GseSettings settings;
  private final boolean valid;

  private GseElement(GseSettings settings, boolean valid) {
    this.settings = settings;
    this.valid = valid;
  }

  /**
   * Creates the element from its XML attributes; an invalid value is reported on log4j2's status
   * channel (naming it) and keeps the appender from being created.
   *
   * @param unixSocketPath the agent's Unix-domain socket
   * @param tcpEndpoint {@code host:port} of the agent's TCP endpoint, instead of the socket
   * @param dataId the dataid of every event
   * @param frameType {@code dynamic} (default) or {@code common}
   * @param itemFormat {@code record_json} (default) or {@code body}
   * @param writeTimeoutMillis how long a frame write may make no progress
   * @param meta meta entries of dynamic frames, {@code key=value} items separated by commas
   * @param resourceAttributes string resource attributes, {@code key=value} items separated by
   *     commas
   * @return the element
   */
  @PluginFactory
  public static GseElement createGse(
      @PluginAttribute("unixSocketPath") String unixSocketPath,
      @PluginAttribute("tcpEndpoint") String tcpEndpoint,
      @PluginAttribute("dataId") String dataId,
      @PluginAttribute("frameType") String frameType,
      @PluginAttribute("itemFormat") String itemFormat,
      @PluginAttribute("writeTimeoutMillis") String writeTimeoutMillis,
      @PluginAttribute("meta") String meta,
      @PluginAttribute("resourceAttributes") String resourceAttributes) {
    final GseSettings s = new GseSettings();
    Settings a =
        new Settings("Gse")
            .apply("unixSocketPath", unixSocketPath, s::setUnixSocketPath)
            .apply("tcpEndpoint", tcpEndpoint, s::setTcpEndpoint)
            .apply("dataId", dataId, v -> s.setDataId(Settings.parseInt("dataId", v)))
            .apply("frameType", frameType, s::setFrameType)
            .apply("itemFormat", itemFormat, s::setItemFormat)
            .apply(
                "writeTimeoutMillis",
                writeTimeoutMillis,
                v -> s.setWriteTimeoutMillis(Settings.parseLong("writeTimeoutMillis", v)))
            .apply("meta", meta, s::addMeta)
            .apply("resourceAttributes", resourceAttributes, s::setResourceAttributes);
    return new GseElement(s, a.valid());
  }

  GseSettings settings() {
    return settings;
  }

  boolean valid() {
    return valid;
  }

  @Override
  public String toString() {
    return "Gse";
  }
}
