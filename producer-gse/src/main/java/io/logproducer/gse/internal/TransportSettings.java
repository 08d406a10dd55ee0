package io.logproducer.gse.internal;

/** The GSE transport's timeouts, intervals and buffer size. Immutable. */
public final class TransportSettings {
  final long connectTimeoutMillis;
  final long writeTimeoutMillis;
  final int sendBufferBytes;
  final long agentInfoIntervalMillis;
  final long agentInfoTimeoutMillis;
  final boolean waitForAgentInfo;
  final long initialBackoffMillis;
  final long maxBackoffMillis;

  /**
   * @param connectTimeoutMillis how long one connection attempt may take, in ms
   * @param writeTimeoutMillis how long a write may make no progress before the connection is
   *     closed, in ms
   * @param sendBufferBytes the socket's send buffer in bytes, 0 for the system default
   * @param agentInfoIntervalMillis how often the agent-info request is re-sent, in ms
   * @param agentInfoTimeoutMillis how long the first data frame waits for the first agent-info
   *     reply, in ms
   * @param waitForAgentInfo whether the first data frame waits for it at all
   * @param initialBackoffMillis the delay after the first failed connection attempt, in ms
   * @param maxBackoffMillis the largest delay between attempts, in ms (raised to {@code
   *     initialBackoffMillis})
   */
  public TransportSettings(
      long connectTimeoutMillis,
      long writeTimeoutMillis,
      int sendBufferBytes,
      long agentInfoIntervalMillis,
      long agentInfoTimeoutMillis,
      boolean waitForAgentInfo,
      long initialBackoffMillis,
      long maxBackoffMillis) {
    this.connectTimeoutMillis = connectTimeoutMillis;
    this.writeTimeoutMillis = writeTimeoutMillis;
    this.sendBufferBytes = sendBufferBytes;
    this.agentInfoIntervalMillis = agentInfoIntervalMillis;
    this.agentInfoTimeoutMillis = agentInfoTimeoutMillis;
    this.waitForAgentInfo = waitForAgentInfo;
    this.initialBackoffMillis = initialBackoffMillis;
    this.maxBackoffMillis = Math.max(initialBackoffMillis, maxBackoffMillis);
  }
}
