package com.example.boot;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * What the tests need from the logging system the module runs on, logback or log4j2, through
 * reflection: the shared test sources compile in modules that have only one of them.
 */
final class LoggingSystems {

  private LoggingSystems() {}

  static boolean logback() {
    try {
      Class.forName("ch.qos.logback.classic.LoggerContext");
      return true;
    } catch (ClassNotFoundException e) {
      return false;
    }
  }

  /** {@return the XML configuration of the module's logging system that declares our appender} */
  static String xmlControlConfig() {
    return logback() ? "classpath:logback-xml-control.xml" : "classpath:log4j2-xml-control.xml";
  }

  /** {@return the logproducer appenders attached to the root logger} */
  static List<Object> rootLogproducerAppenders() throws Exception {
    List<Object> found = new ArrayList<>();
    if (logback()) {
      Object factory =
          Class.forName("org.slf4j.LoggerFactory").getMethod("getILoggerFactory").invoke(null);
      Object root = factory.getClass().getMethod("getLogger", String.class).invoke(factory, "ROOT");
      Iterator<?> it = (Iterator<?>) root.getClass().getMethod("iteratorForAppenders").invoke(root);
      while (it.hasNext()) {
        Object a = it.next();
        if (a.getClass().getName().equals("io.logproducer.logback.LogproducerAppender")) {
          found.add(a);
        }
      }
    } else {
      Object ctx =
          Class.forName("org.apache.logging.log4j.LogManager")
              .getMethod("getContext", boolean.class)
              .invoke(null, false);
      Object config = ctx.getClass().getMethod("getConfiguration").invoke(ctx);
      Object root = config.getClass().getMethod("getRootLogger").invoke(config);
      java.util.Map<?, ?> appenders =
          (java.util.Map<?, ?>) root.getClass().getMethod("getAppenders").invoke(root);
      for (Object a : appenders.values()) {
        if (a.getClass().getName().equals("io.logproducer.log4j2.LogproducerAppender")) {
          found.add(a);
        }
      }
    }
    return found;
  }

  /**
   * {@return the logproducer appenders the logging system still knows: on any logback logger, or in
   * the log4j2 configuration's own appender map (which outlives a logger's reference)}
   */
  static List<Object> knownLogproducerAppenders() throws Exception {
    if (logback()) {
      List<Object> found = new ArrayList<>();
      Object ctx =
          Class.forName("org.slf4j.LoggerFactory").getMethod("getILoggerFactory").invoke(null);
      for (Object logger : (List<?>) ctx.getClass().getMethod("getLoggerList").invoke(ctx)) {
        Iterator<?> it =
            (Iterator<?>) logger.getClass().getMethod("iteratorForAppenders").invoke(logger);
        while (it.hasNext()) {
          Object a = it.next();
          if (a.getClass().getName().equals("io.logproducer.logback.LogproducerAppender")) {
            found.add(a);
          }
        }
      }
      return found;
    }
    List<Object> found = new ArrayList<>();
    Object ctx =
        Class.forName("org.apache.logging.log4j.LogManager")
            .getMethod("getContext", boolean.class)
            .invoke(null, false);
    Object config = ctx.getClass().getMethod("getConfiguration").invoke(ctx);
    java.util.Map<?, ?> appenders =
        (java.util.Map<?, ?>) config.getClass().getMethod("getAppenders").invoke(config);
    for (Object a : appenders.values()) {
      if (a.getClass().getName().equals("io.logproducer.log4j2.LogproducerAppender")) {
        found.add(a);
      }
    }
    return found;
  }

  /** {@return the producer of a logproducer appender} */
  static Object producerOf(Object appender) throws Exception {
    return appender.getClass().getMethod("getProducer").invoke(appender);
  }

  /**
   * Reconfigures the logging system as its own reload does (logback: a reset and a new
   * configuration, what {@code scan} and the JMX reload do; log4j2: {@code reconfigure()}).
   */
  static void reconfigure() throws Exception {
    if (logback()) {
      Object ctx =
          Class.forName("org.slf4j.LoggerFactory").getMethod("getILoggerFactory").invoke(null);
      ctx.getClass().getMethod("reset").invoke(ctx);
      Class<?> base = Class.forName("ch.qos.logback.classic.BasicConfigurator");
      Object configurator = base.getConstructor().newInstance();
      Class<?> contextType = Class.forName("ch.qos.logback.core.Context");
      base.getMethod("setContext", contextType).invoke(configurator, ctx);
      for (Method m : base.getMethods()) {
        if (m.getName().equals("configure") && m.getParameterCount() == 1) {
          m.invoke(configurator, ctx);
        }
      }
    } else {
      Object ctx =
          Class.forName("org.apache.logging.log4j.LogManager")
              .getMethod("getContext", boolean.class)
              .invoke(null, false);
      ctx.getClass().getMethod("reconfigure").invoke(ctx);
    }
  }

  /**
   * Records every message the logging system's status channel gets from now on (logback's {@code
   * StatusManager}, log4j2's {@code StatusLogger}): where the appenders report dropped and failed
   * events. Call it after the logging system was initialised (a logback reset forgets listeners
   * that are not reset-resistant; this one is).
   *
   * @return the messages, in order (a synchronized list)
   */
  static List<String> captureStatus() throws Exception {
    List<String> messages = java.util.Collections.synchronizedList(new ArrayList<>());
    if (logback()) {
      Class<?> listenerType = Class.forName("ch.qos.logback.core.status.StatusListener");
      Object listener =
          java.lang.reflect.Proxy.newProxyInstance(
              listenerType.getClassLoader(),
              new Class<?>[] {listenerType},
              (proxy, method, args) -> {
                switch (method.getName()) {
                  case "addStatusEvent":
                    messages.add(
                        String.valueOf(args[0].getClass().getMethod("getMessage").invoke(args[0])));
                    return null;
                  case "isResetResistant":
                    return true;
                  case "hashCode":
                    return System.identityHashCode(proxy);
                  case "equals":
                    return proxy == args[0];
                  case "toString":
                    return "test status capture";
                  default:
                    return null;
                }
              });
      Object ctx =
          Class.forName("org.slf4j.LoggerFactory").getMethod("getILoggerFactory").invoke(null);
      Object manager = ctx.getClass().getMethod("getStatusManager").invoke(ctx);
      Class.forName("ch.qos.logback.core.status.StatusManager")
          .getMethod("add", listenerType)
          .invoke(manager, listener);
    } else {
      Class<?> listenerType = Class.forName("org.apache.logging.log4j.status.StatusListener");
      Object all = Class.forName("org.apache.logging.log4j.Level").getField("ALL").get(null);
      Object listener =
          java.lang.reflect.Proxy.newProxyInstance(
              listenerType.getClassLoader(),
              new Class<?>[] {listenerType},
              (proxy, method, args) -> {
                switch (method.getName()) {
                  case "log":
                    Object message = args[0].getClass().getMethod("getMessage").invoke(args[0]);
                    messages.add(
                        String.valueOf(
                            message.getClass().getMethod("getFormattedMessage").invoke(message)));
                    return null;
                  case "getStatusLevel":
                    return all;
                  case "hashCode":
                    return System.identityHashCode(proxy);
                  case "equals":
                    return proxy == args[0];
                  case "toString":
                    return "test status capture";
                  default:
                    return null;
                }
              });
      Class<?> statusLogger = Class.forName("org.apache.logging.log4j.status.StatusLogger");
      Object logger = statusLogger.getMethod("getLogger").invoke(null);
      statusLogger.getMethod("registerListener", listenerType).invoke(logger, listener);
    }
    return messages;
  }
}
