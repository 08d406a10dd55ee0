package io.logproducer;

import java.nio.file.Path;

/**
 * Thrown by the {@link Producer} constructor when its spool directory ({@link
 * ProducerConfig#getSpool()}) is owned by another producer, in this JVM or another process. The
 * message names the directory and the owner's pid (as the owner wrote it in {@code <dir>/lock}).
 * One producer per spool directory; a lock left by a killed process is taken over.
 */
public final class SpoolLockedException extends ProducerException {
  private static final long serialVersionUID = 1L;

  private final transient Path directory;

  /**
   * Creates the exception.
   *
   * @param directory the spool directory
   * @param message the explanation, naming the directory and the owner's pid
   * @param cause the storage layer's exception, or null
   */
  public SpoolLockedException(Path directory, String message, Throwable cause) {
    super(message, cause);
    this.directory = directory;
  }

  /** {@return the spool directory another producer owns} */
  public Path getDirectory() {
    return directory;
  }
}
