package io.logproducer.kafka.testing;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import org.slf4j.ILoggerFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The test JVM's log output (slf4j-simple writes to {@code System.err}, looked up at each line)
 * while open, with the loggers under the given name prefixes at a chosen level: loggers created
 * later through the {@code org.slf4j.simpleLogger.log.<prefix>} system property, loggers that exist
 * already (created by earlier test classes of this JVM, at the module's WARN) through
 * slf4j-simple's {@code currentLogLevel} field. {@link #close()} restores both and {@code
 * System.err} (loggers created meanwhile get the module's {@link #WARN}). The output is still
 * written to the original {@code System.err} as well. One at a time per JVM; not thread-safe.
 */
public final class CapturedLogs implements AutoCloseable {

  /** slf4j-simple's level numbers ({@code LocationAwareLogger}). */
  public static final int DEBUG = 10;

  public static final int INFO = 20;

  /** The module's level ({@code simplelogger.properties}), for loggers created while open. */
  public static final int WARN = 30;

  private static final String PROPERTY_PREFIX = "org.slf4j.simpleLogger.log.";

  private final ByteArrayOutputStream captured = new ByteArrayOutputStream();
  private final PrintStream originalErr = System.err;
  private final Map<String, String> originalProperties = new HashMap<>();
  private final Map<Logger, Integer> originalLevels = new HashMap<>();
  private final Map<String, Integer> levels;

  /**
   * Starts capturing.
   *
   * @param levels logger name prefixes and their level ({@link #DEBUG}, {@link #INFO})
   */
  public CapturedLogs(Map<String, Integer> levels) {
    this.levels = new HashMap<>(levels);
    for (Map.Entry<String, Integer> e : levels.entrySet()) {
      String key = PROPERTY_PREFIX + e.getKey();
      originalProperties.put(key, System.getProperty(key));
      System.setProperty(key, e.getValue() == DEBUG ? "debug" : "info");
    }
    setExistingLevels(levels, null);
    OutputStream tee =
        new OutputStream() {
          @Override
          public void write(int b) {
            synchronized (captured) {
              captured.write(b);
            }
            originalErr.write(b);
          }

          @Override
          public void write(byte[] b, int off, int len) {
            synchronized (captured) {
              captured.write(b, off, len);
            }
            originalErr.write(b, off, len);
          }
        };
    System.setErr(new PrintStream(tee, true));
  }

  /**
   * Sets the level of the existing loggers under the prefixes: to the given level (remembering the
   * one they had), or with {@code restoreTo} to their remembered level, else to that one.
   */
  private void setExistingLevels(Map<String, Integer> levels, Integer restoreTo) {
    try {
      ILoggerFactory factory = LoggerFactory.getILoggerFactory();
      Field mapField = factory.getClass().getDeclaredField("loggerMap");
      mapField.setAccessible(true);
      Map<?, ?> loggers = (Map<?, ?>) mapField.get(factory);
      for (Map.Entry<?, ?> l : loggers.entrySet()) {
        String name = String.valueOf(l.getKey());
        for (Map.Entry<String, Integer> e : levels.entrySet()) {
          if (name.equals(e.getKey()) || name.startsWith(e.getKey() + ".")) {
            Logger logger = (Logger) l.getValue();
            Field level = levelField(logger.getClass());
            if (restoreTo == null) {
              originalLevels.put(logger, level.getInt(logger));
              level.setInt(logger, e.getValue());
            } else {
              level.setInt(logger, originalLevels.getOrDefault(logger, restoreTo));
            }
          }
        }
      }
    } catch (ReflectiveOperationException | RuntimeException e) {
      throw new IllegalStateException("this test needs slf4j-simple 2.x as the SLF4J provider", e);
    }
  }

  private static Field levelField(Class<?> type) throws NoSuchFieldException {
    for (Class<?> c = type; c != null; c = c.getSuperclass()) {
      try {
        Field f = c.getDeclaredField("currentLogLevel");
        f.setAccessible(true);
        return f;
      } catch (NoSuchFieldException e) {
        // the superclass, then
      }
    }
    throw new NoSuchFieldException("currentLogLevel in " + type);
  }

  /** {@return what was written to {@code System.err} so far, as UTF-8} */
  public String text() {
    System.err.flush();
    synchronized (captured) {
      return new String(captured.toByteArray(), StandardCharsets.UTF_8);
    }
  }

  @Override
  public void close() {
    System.err.flush();
    System.setErr(originalErr);
    originalProperties.forEach(
        (k, v) -> {
          if (v == null) {
            System.clearProperty(k);
          } else {
            System.setProperty(k, v);
          }
        });
    setExistingLevels(levels, WARN);
  }
}
