package io.logproducer.otlp.internal.grpc;

import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hc.core5.reactor.IOSession;
import org.apache.hc.core5.reactor.IOSessionListener;

/** Counts the I/O sessions (TCP connections) a client opens. Thread-safe. */
final class ConnectionCounter implements IOSessionListener {

  private final AtomicInteger count;

  ConnectionCounter(AtomicInteger count) {
    this.count = count;
  }

  @Override
  public void connected(IOSession session) {
    count.incrementAndGet();
  }

  @Override
  public void startTls(IOSession session) {}

  @Override
  public void inputReady(IOSession session) {}

  @Override
  public void outputReady(IOSession session) {}

  @Override
  public void timeout(IOSession session) {}

  @Override
  public void exception(IOSession session, Exception ex) {}

  @Override
  public void disconnected(IOSession session) {}
}
