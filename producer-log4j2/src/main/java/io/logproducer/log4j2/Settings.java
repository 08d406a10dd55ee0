package io.logproducer.log4j2;

import org.apache.logging.log4j.Logger;
import org.apache.logging.log4j.status.StatusLogger;

/**
 * Applies the XML's text attributes to the settings beans: every value is parsed here (not by
 * log4j2's converters, which log a vague error and fall back to a default), and an invalid value is
 * reported on log4j2's status channel with the element and the attribute it came from.
 */
final class Settings {

  static final Logger STATUS = StatusLogger.getLogger();

  /** Sets one attribute. */
  interface Setter {
    void set(String value);
  }

  private final String element;
  private boolean valid = true;

  Settings(String element) {
    this.element = element;
  }

  /**
   * Applies {@code value} (when not null) with {@code setter}; an error names the element and the
   * attribute.
   */
  Settings apply(String attribute, String value, Setter setter) {
    if (value == null) {
      return this;
    }
    try {
      setter.set(value.trim());
    } catch (RuntimeException e) {
      valid = false;
      STATUS.error(
          "Logproducer appender: invalid <{} {}=\"{}\">: {}",
          element,
          attribute,
          value,
          e.getMessage());
    }
    return this;
  }

  /**
   * As {@link #apply}, for a value that may hold a secret (a request header, an endpoint with a
   * password): an error names the element and the attribute but does not show the value (the
   * setter's message must not either).
   */
  Settings applySecret(String attribute, String value, Setter setter) {
    if (value == null) {
      return this;
    }
    try {
      setter.set(value.trim());
    } catch (RuntimeException e) {
      valid = false;
      STATUS.error(
          "Logproducer appender: invalid <{} {}> (value not shown): {}",
          element,
          attribute,
          e.getMessage());
    }
    return this;
  }

  /** Whether every attribute applied so far was valid. */
  boolean valid() {
    return valid;
  }

  static long parseLong(String attribute, String value) {
    try {
      return Long.parseLong(value.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(attribute + " must be an integer, was '" + value + "'", e);
    }
  }

  static int parseInt(String attribute, String value) {
    try {
      return Integer.parseInt(value.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          attribute + " must be an integer (32 bits), was '" + value + "'", e);
    }
  }

  static boolean parseBoolean(String attribute, String value) {
    if ("true".equalsIgnoreCase(value.trim())) {
      return true;
    }
    if ("false".equalsIgnoreCase(value.trim())) {
      return false;
    }
    throw new IllegalArgumentException(attribute + " must be true or false, was '" + value + "'");
  }
}
