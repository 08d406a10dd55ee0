package io.logproducer.internal;

import io.logproducer.ProducerMetricsMXBean;
import java.lang.management.ManagementFactory;
import javax.management.InstanceAlreadyExistsException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.management.StandardMBean;

/**
 * A producer's metrics MBean in the platform MBean server, under {@code
 * io.logproducer:type=Producer,clientId="<clientId>"}. A second producer with the same {@code
 * clientId} (or the same default id from another class loader) gets a distinct name with {@code
 * ,instance=2} (3, …) added, and a log line saying so; each producer unregisters exactly its own
 * name at close.
 */
final class JmxRegistration {

  private static final InternalLogger log = InternalLogger.get(JmxRegistration.class);
  private static final int MAX_INSTANCES = 10_000;

  private final ObjectName name;

  private JmxRegistration(ObjectName name) {
    this.name = name;
  }

  /** Registers {@code metrics}; returns null (and logs why) if JMX is unavailable. */
  static JmxRegistration register(String clientId, Metrics metrics) {
    try {
      MBeanServer server = ManagementFactory.getPlatformMBeanServer();
      StandardMBean bean = new StandardMBean(metrics, ProducerMetricsMXBean.class, true);
      String base = "io.logproducer:type=Producer,clientId=" + ObjectName.quote(clientId);
      for (int instance = 1; instance <= MAX_INSTANCES; instance++) {
        ObjectName name = new ObjectName(instance == 1 ? base : base + ",instance=" + instance);
        try {
          server.registerMBean(bean, name);
          if (instance > 1) {
            log.info(
                "JMX name for clientId {} is taken by another producer; registered as {}",
                clientId,
                name);
          }
          return new JmxRegistration(name);
        } catch (InstanceAlreadyExistsException taken) {
          // try the next instance number
        }
      }
      log.warn(
          "could not register JMX metrics for producer {}: {} producers share its clientId",
          clientId,
          MAX_INSTANCES);
      return null;
    } catch (Exception | LinkageError e) {
      log.warn("could not register JMX metrics for producer {}: {}", clientId, e.toString());
      return null;
    }
  }

  void unregister() {
    try {
      ManagementFactory.getPlatformMBeanServer().unregisterMBean(name);
    } catch (Exception | LinkageError e) {
      log.debug("could not unregister {}", name, e);
    }
  }
}
