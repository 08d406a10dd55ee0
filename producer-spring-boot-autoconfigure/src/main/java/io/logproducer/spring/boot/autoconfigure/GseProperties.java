package io.logproducer.spring.boot.autoconfigure;

import java.time.Duration;

/**
 * The BlueKing GSE exporter's properties ({@code logproducer.gse.*}).
 *
 * <p>Not thread-safe: bound once, at start-up, before any use.
 */
public class GseProperties {

  /** The GSE agent's Unix socket, e.g. /var/run/ipc.state.report. */
  private String socketPath;

  /** host:port of the agent's TCP port, instead of the socket (Windows agents). */
  private String tcpEndpoint;

  /** The dataid every record is reported under (required for gse). */
  private Integer dataId;

  /** The frame type of the agent's protocol. Default: the exporter's. */
  private String frameType;

  /** How a record is written into a frame. Default: the exporter's. */
  private String itemFormat;

  /** The longest one write to the agent may take. Default: the exporter's. */
  private Duration writeTimeout;

  /** Creates the defaults. */
  public GseProperties() {}

  /** {@return {@code logproducer.gse.socket-path}} */
  public String getSocketPath() {
    return socketPath;
  }

  /**
   * Sets {@code logproducer.gse.socket-path}.
   *
   * @param socketPath the GSE agent's Unix socket, e.g. /var/run/ipc.state.report.
   */
  public void setSocketPath(String socketPath) {
    this.socketPath = socketPath;
  }

  /** {@return {@code logproducer.gse.tcp-endpoint}} */
  public String getTcpEndpoint() {
    return tcpEndpoint;
  }

  /**
   * Sets {@code logproducer.gse.tcp-endpoint}.
   *
   * @param tcpEndpoint host:port of the agent's TCP port, instead of the socket (Windows agents).
   */
  public void setTcpEndpoint(String tcpEndpoint) {
    this.tcpEndpoint = tcpEndpoint;
  }

  /** {@return {@code logproducer.gse.data-id}} */
  public Integer getDataId() {
    return dataId;
  }

  /**
   * Sets {@code logproducer.gse.data-id}.
   *
   * @param dataId the dataid every record is reported under (required for gse).
   */
  public void setDataId(Integer dataId) {
    this.dataId = dataId;
  }

  /** {@return {@code logproducer.gse.frame-type}} */
  public String getFrameType() {
    return frameType;
  }

  /**
   * Sets {@code logproducer.gse.frame-type}.
   *
   * @param frameType the frame type of the agent's protocol. Default: the exporter's.
   */
  public void setFrameType(String frameType) {
    this.frameType = frameType;
  }

  /** {@return {@code logproducer.gse.item-format}} */
  public String getItemFormat() {
    return itemFormat;
  }

  /**
   * Sets {@code logproducer.gse.item-format}.
   *
   * @param itemFormat how a record is written into a frame. Default: the exporter's.
   */
  public void setItemFormat(String itemFormat) {
    this.itemFormat = itemFormat;
  }

  /** {@return {@code logproducer.gse.write-timeout}} */
  public Duration getWriteTimeout() {
    return writeTimeout;
  }

  /**
   * Sets {@code logproducer.gse.write-timeout}.
   *
   * @param writeTimeout the longest one write to the agent may take. Default: the exporter's.
   */
  public void setWriteTimeout(Duration writeTimeout) {
    this.writeTimeout = writeTimeout;
  }
}
