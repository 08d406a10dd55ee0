package io.logproducer.internal.spool;

import java.io.IOException;

/**
 * Why a spool directory could not be opened: the base of {@link SpoolLockedException}, {@link
 * SpoolKindMismatchException} and of format errors (an unknown {@code spool.meta} version). Its
 * message names the directory.
 */
public class SpoolException extends IOException {
  private static final long serialVersionUID = 1L;

  /** An exception with {@code message} (which names the directory). */
  public SpoolException(String message) {
    super(message);
  }
}
