package io.logproducer.spring.boot.autoconfigure;

/**
 * A {@code logproducer.*} property the producer cannot run with. It stops the application at start;
 * Spring Boot's failure report names the property, the value and the reason ({@link
 * LogproducerFailureAnalyzer}).
 */
public class InvalidPropertyException extends IllegalArgumentException {

  /** The serialized form's version. */
  private static final long serialVersionUID = 1L;

  /** The property's full name. */
  private final String property;

  /** The value it was given (not serialized: any type). */
  private final transient Object value;

  /**
   * @param property the property's full name, e.g. {@code logproducer.producer.linger}
   * @param value the value it was given (may be null)
   * @param reason why the producer cannot take it
   */
  public InvalidPropertyException(String property, Object value, String reason) {
    this(property, value, reason, null);
  }

  /**
   * @param property the property's full name, e.g. {@code logproducer.producer.linger}
   * @param value the value it was given (may be null)
   * @param reason why the producer cannot take it
   * @param cause what the producer threw, or null
   */
  public InvalidPropertyException(String property, Object value, String reason, Throwable cause) {
    super("Invalid value '" + value + "' for property '" + property + "': " + reason, cause);
    this.property = property;
    this.value = value;
  }

  /** {@return the property's full name} */
  public String getProperty() {
    return property;
  }

  /** {@return the value it was given, or null} */
  public Object getValue() {
    return value;
  }
}
