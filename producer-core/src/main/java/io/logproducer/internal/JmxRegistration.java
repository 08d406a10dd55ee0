package io.logproducer.internal;

import io.logproducer.ProducerMetricsMXBean;
import java.lang.management.ManagementFactory;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import javax.management.InstanceAlreadyExistsException;
import javax.management.MBeanServer;
import javax.management.MBeanServerDelegate;
import javax.management.MBeanServerNotification;
import javax.management.Notification;
import javax.management.NotificationListener;
import javax.management.ObjectName;
import javax.management.StandardMBean;
import javax.management.relation.MBeanServerNotificationFilter;

/**
 * A producer's metrics MBean in the platform MBean server, under {@code
 * io.logproducer:type=Producer,clientId="<clientId>"} (the plain name). A second producer with the
 * same {@code clientId} (or the same default id from another class loader) gets a distinct name
 * with {@code ,instance=2} (3, …) added, and a log line saying so.
 *
 * <p>A producer under an instance name takes the plain name back when it is free again, so that a
 * JMX scraper keyed on the name keeps finding the live producer (a log4j2 reconfiguration starts
 * the new appender's producer before it stops the old one): it listens to the MBean server's
 * delegate for the unregistration of the plain name ({@link
 * MBeanServerNotification#UNREGISTRATION_NOTIFICATION}; this works across class loaders, as the
 * server is the JVM's), then registers itself under the plain name and only then unregisters its
 * instance name, logging the move at INFO. Several producers may race for it: the MBean server lets
 * exactly one register it, and the others keep their names and keep listening. The listener is
 * removed when the producer moves or closes; each producer unregisters exactly its own name at
 * close.
 *
 * <p>Thread-safe: the notification arrives on the thread that unregistered the plain name (the
 * closing producer's); a move and {@link #unregister()} are serialized by this object's lock, which
 * is never held while another producer's listener could run.
 */
final class JmxRegistration implements NotificationListener {

  private static final InternalLogger log = InternalLogger.get(JmxRegistration.class);
  private static final int MAX_INSTANCES = 10_000;

  private final MBeanServer server;
  private final Metrics metrics;
  private final String clientId;
  private final ObjectName plain;
  private ObjectName name; // guarded by this
  private boolean listening; // guarded by this
  private boolean closed; // guarded by this

  private JmxRegistration(
      MBeanServer server, Metrics metrics, String clientId, ObjectName plain, ObjectName name) {
    this.server = server;
    this.metrics = metrics;
    this.clientId = clientId;
    this.plain = plain;
    this.name = name;
  }

  /** Registers {@code metrics}; returns null (and logs why) if JMX is unavailable. */
  static JmxRegistration register(String clientId, Metrics metrics) {
    try {
      MBeanServer server = ManagementFactory.getPlatformMBeanServer();
      String base = "io.logproducer:type=Producer,clientId=" + ObjectName.quote(clientId);
      ObjectName plain = new ObjectName(base);
      for (int instance = 1; instance <= MAX_INSTANCES; instance++) {
        ObjectName name = instance == 1 ? plain : new ObjectName(base + ",instance=" + instance);
        try {
          server.registerMBean(bean(metrics), name);
        } catch (InstanceAlreadyExistsException taken) {
          continue; // try the next instance number
        }
        JmxRegistration r = new JmxRegistration(server, metrics, clientId, plain, name);
        if (instance > 1) {
          log.info(
              "JMX name for clientId {} is taken by another producer; registered as {} until it is"
                  + " free",
              clientId,
              name);
          r.listen();
        }
        return r;
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

  /**
   * A new MBean over {@code metrics}: through a proxy of its own, as an MXBean object may be
   * registered under one name only, and a producer moving to the plain name holds two for a moment.
   */
  private static StandardMBean bean(Metrics metrics) {
    InvocationHandler forward =
        (proxy, method, args) -> {
          try {
            return method.invoke(metrics, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        };
    ProducerMetricsMXBean view =
        (ProducerMetricsMXBean)
            Proxy.newProxyInstance(
                ProducerMetricsMXBean.class.getClassLoader(),
                new Class<?>[] {ProducerMetricsMXBean.class},
                forward);
    return new StandardMBean(view, ProducerMetricsMXBean.class, true);
  }

  /**
   * Listens for the plain name's unregistration, then takes it at once if it is already free (its
   * owner may have closed before the listener was in place).
   */
  private void listen() {
    MBeanServerNotificationFilter filter = new MBeanServerNotificationFilter();
    filter.disableAllTypes();
    filter.enableType(MBeanServerNotification.UNREGISTRATION_NOTIFICATION);
    filter.disableAllObjectNames();
    filter.enableObjectName(plain);
    synchronized (this) {
      try {
        server.addNotificationListener(MBeanServerDelegate.DELEGATE_NAME, this, filter, null);
        listening = true;
      } catch (Exception | LinkageError e) {
        log.debug("cannot listen for {} to be free; keeping {}", plain, name, e);
        return;
      }
    }
    if (!server.isRegistered(plain)) {
      moveToPlain();
    }
  }

  /** The plain name was unregistered: try to take it. */
  @Override
  public void handleNotification(Notification notification, Object handback) {
    if (notification instanceof MBeanServerNotification
        && plain.equals(((MBeanServerNotification) notification).getMBeanName())) {
      moveToPlain();
    }
  }

  /** Registers under the plain name, then unregisters the instance name; no-op if one is there. */
  private synchronized void moveToPlain() {
    if (closed || name.equals(plain)) {
      return;
    }
    try {
      server.registerMBean(bean(metrics), plain);
    } catch (InstanceAlreadyExistsException taken) {
      return; // another producer took it first: keep this name, and keep listening
    } catch (Exception | LinkageError e) {
      log.debug("could not take back {}; keeping {}", plain, name, e);
      return;
    }
    ObjectName old = name;
    name = plain;
    stopListening();
    unregisterQuietly(old);
    log.info(
        "JMX name {} is free again (the producer that held it closed); producer {} moved there from"
            + " {}",
        plain,
        clientId,
        old);
  }

  /** Unregisters this producer's name and stops listening. Idempotent. */
  void unregister() {
    ObjectName current;
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      stopListening();
      current = name;
    }
    // Outside the lock: this may notify another producer's registration, which takes its own.
    unregisterQuietly(current);
  }

  private void stopListening() {
    if (listening) {
      listening = false;
      try {
        server.removeNotificationListener(MBeanServerDelegate.DELEGATE_NAME, this);
      } catch (Exception | LinkageError e) {
        log.debug("could not remove the JMX listener of {}", name, e);
      }
    }
  }

  private void unregisterQuietly(ObjectName n) {
    try {
      server.unregisterMBean(n);
    } catch (Exception | LinkageError e) {
      log.debug("could not unregister {}", n, e);
    }
  }

  /** {@return the name this producer's MBean has now} For tests. */
  synchronized ObjectName name() {
    return name;
  }
}
