package io.logproducer.internal.spool;

import java.nio.file.Path;

/**
 * The spool directory was written by an owner of another kind (e.g. another exporter) than the one
 * opening it; the message names the directory and both kinds.
 */
public final class SpoolKindMismatchException extends SpoolException {
  private static final long serialVersionUID = 1L;

  /** The directory {@code directory} is of kind {@code found}, opened as {@code expected}. */
  SpoolKindMismatchException(Path directory, String found, String expected) {
    super(
        "spool directory "
            + directory
            + " belongs to kind '"
            + found
            + "', cannot be opened as kind '"
            + expected
            + "' (use another directory)");
  }
}
