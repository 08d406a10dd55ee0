package io.logproducer.kafka.testing;

import io.logproducer.kafka.embedded.EmbeddedKafkaBroker;
import java.nio.file.Paths;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * One KRaft broker for every test class of the test JVM that asks for it ({@code
 * ExtendWith(SharedKafkaBroker.class)} and an {@link EmbeddedKafkaBroker} parameter): started by
 * the first, kept in the root {@link ExtensionContext.Store} and closed when the JVM's test run
 * ends. A broker start is a child JVM and seconds of a loaded machine; the module's classes started
 * seven of them.
 *
 * <p>The tests stay independent: each uses topics of its own ({@link #topic}); a test may stop and
 * restart the broker (it runs alone: the classes run one after the other), and a broker a failed
 * test left stopped is restarted for the next one that asks. The broker's data survives restarts,
 * as the tests that restart it expect of a broker of their own.
 */
public final class SharedKafkaBroker implements ParameterResolver {

  private static final ExtensionContext.Namespace NAMESPACE =
      ExtensionContext.Namespace.create(SharedKafkaBroker.class);
  private static final AtomicInteger TOPICS = new AtomicInteger();

  /** {@return a topic name no other test of this JVM uses: {@code prefix-n}} */
  public static String topic(String prefix) {
    return prefix + "-" + TOPICS.incrementAndGet();
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.getParameter().getType() == EmbeddedKafkaBroker.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    EmbeddedKafkaBroker broker =
        context
            .getRoot()
            .getStore(NAMESPACE)
            .getOrComputeIfAbsent(
                "broker",
                k ->
                    new Holder(
                        EmbeddedKafkaBroker.start(
                            Paths.get("target", "kafka-shared-" + System.nanoTime()))),
                Holder.class)
            .broker;
    if (!broker.isRunning()) {
      broker.restart(); // a test that stopped it failed before it restarted it
    }
    return broker;
  }

  /** Closes the broker with the root context: at the end of the JVM's test run. */
  private static final class Holder implements ExtensionContext.Store.CloseableResource {
    final EmbeddedKafkaBroker broker;

    Holder(EmbeddedKafkaBroker broker) {
      this.broker = broker;
    }

    @Override
    public void close() {
      broker.close();
    }
  }
}
