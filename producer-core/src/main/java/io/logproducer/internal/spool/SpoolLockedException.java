package io.logproducer.internal.spool;

import java.nio.file.Path;

/**
 * The spool directory is locked by another owner: another {@link Spool} in this JVM or another
 * process (whose pid and start time, as written in {@code <dir>/lock}, the message names).
 */
public final class SpoolLockedException extends SpoolException {
  private static final long serialVersionUID = 1L;

  /** Builds the exception for {@code directory} held by {@code owner} (the lock file's content). */
  SpoolLockedException(Path directory, String owner) {
    super(
        "spool directory "
            + directory
            + " is locked by another owner ("
            + owner
            + "); one producer per spool directory");
  }
}
