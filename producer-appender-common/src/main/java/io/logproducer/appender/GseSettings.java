package io.logproducer.appender;

import io.logproducer.gse.GseExporter;
import io.logproducer.gse.GseExporterBuilder;
import java.util.Map;

/**
 * The BlueKing GSE agent exporter's settings as a logging framework's XML sets them. Each setter
 * validates at once and throws {@link IllegalArgumentException} naming the setting. Not
 * thread-safe: filled once, before the appender starts.
 */
public final class GseSettings {

  private final GseExporterBuilder builder = GseExporter.builder();

  /**
   * Creates settings with the exporter's defaults (Unix socket {@value
   * GseExporter#DEFAULT_UNIX_SOCKET_PATH}).
   */
  public GseSettings() {}

  /**
   * See {@link GseExporterBuilder#setUnixSocketPath(String)}.
   *
   * @param path the agent's Unix-domain socket
   */
  public void setUnixSocketPath(String path) {
    builder.setUnixSocketPath(path);
  }

  /**
   * The agent's TCP endpoint instead of its Unix socket.
   *
   * @param hostAndPort {@code host:port}, e.g. {@code 127.0.0.1:47000}
   * @throws IllegalArgumentException if not {@code host:port} with a port in [1, 65535]
   */
  public void setTcpEndpoint(String hostAndPort) {
    int colon = hostAndPort == null ? -1 : hostAndPort.lastIndexOf(':');
    if (colon <= 0) {
      throw new IllegalArgumentException(
          "tcpEndpoint must be host:port, was '" + hostAndPort + "'");
    }
    int port;
    try {
      port = Integer.parseInt(hostAndPort.substring(colon + 1).trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "tcpEndpoint must be host:port, was '" + hostAndPort + "'", e);
    }
    builder.setTcpEndpoint(hostAndPort.substring(0, colon).trim(), port);
  }

  /**
   * See {@link GseExporterBuilder#setDataId(int)}.
   *
   * @param dataId the dataid of every event
   */
  public void setDataId(int dataId) {
    builder.setDataId(dataId);
  }

  /**
   * {@code dynamic} (the default) or {@code common}.
   *
   * @param frameType the name, any case
   * @throws IllegalArgumentException if unknown
   */
  public void setFrameType(String frameType) {
    builder.setFrameType(Text.enumValue(GseExporter.FrameType.class, "frameType", frameType));
  }

  /**
   * {@code record_json} (the default: bk-collector's record JSON) or {@code body} (the formatted
   * line only).
   *
   * @param itemFormat the name, any case
   * @throws IllegalArgumentException if unknown
   */
  public void setItemFormat(String itemFormat) {
    builder.setItemFormat(Text.enumValue(GseExporter.ItemFormat.class, "itemFormat", itemFormat));
  }

  /**
   * See {@link GseExporterBuilder#setWriteTimeoutMillis(long)}.
   *
   * @param millis how long a frame write may make no progress
   */
  public void setWriteTimeoutMillis(long millis) {
    builder.setWriteTimeoutMillis(millis);
  }

  /**
   * One meta entry of dynamic frames.
   *
   * @param meta {@code key=value}, e.g. {@code tag=app}
   * @throws IllegalArgumentException if not {@code key=value} or the meta area is full
   */
  public void addMeta(String meta) {
    for (Map.Entry<String, String> e : Text.keyValues("meta", meta).entrySet()) {
      builder.addMeta(e.getKey(), e.getValue());
    }
  }

  /**
   * String resource attributes of every record.
   *
   * @param attributes {@code key=value} items separated by commas
   * @throws IllegalArgumentException if an item is not {@code key=value}
   */
  public void setResourceAttributes(String attributes) {
    for (Map.Entry<String, String> e :
        Text.keyValues("resourceAttributes", attributes).entrySet()) {
      builder.setResourceAttribute(e.getKey(), e.getValue());
    }
  }

  /**
   * Builds the exporter.
   *
   * @return a new exporter
   * @throws IllegalArgumentException if the settings are invalid
   * @throws IllegalStateException if Unix sockets are not available here (Java 8–15 without
   *     junixsocket)
   */
  public GseExporter build() {
    return builder.build();
  }
}
