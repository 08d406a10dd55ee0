package io.logproducer;

import java.nio.file.Path;

/**
 * Thrown by the {@link Producer} constructor when its spool directory ({@link
 * ProducerConfig#getSpool()}) cannot be opened for another reason than another owner: it cannot be
 * created or read, or it holds a spool of another exporter kind. The message names the directory;
 * the cause is the storage layer's {@link java.io.IOException}.
 */
public final class SpoolOpenException extends ProducerException {
  private static final long serialVersionUID = 1L;

  private final transient Path directory;

  /**
   * Creates the exception.
   *
   * @param directory the spool directory
   * @param message the explanation, naming the directory
   * @param cause the underlying failure, or null
   */
  public SpoolOpenException(Path directory, String message, Throwable cause) {
    super(message, cause);
    this.directory = directory;
  }

  /** {@return the spool directory that could not be opened} */
  public Path getDirectory() {
    return directory;
  }
}
