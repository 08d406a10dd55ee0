package io.logproducer.otlp.internal.tls;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Where PEM text comes from: bytes given once, or a file, read at start and re-read when its
 * modification time or size changes (see {@link Reloading}). Named after the setting that gave it,
 * for messages. Immutable, thread-safe.
 */
public final class PemSource {

  private final String setting;
  private final byte[] bytes; // null for a file
  private final Path path; // null for bytes

  private PemSource(String setting, byte[] bytes, Path path) {
    this.setting = setting;
    this.bytes = bytes;
    this.path = path;
  }

  /**
   * PEM bytes, copied.
   *
   * @param setting the setting's name, e.g. {@code trustedCertificates}
   * @param pem the PEM text
   * @return the source
   * @throws IllegalArgumentException if {@code pem} is null or empty
   */
  public static PemSource ofBytes(String setting, byte[] pem) {
    if (pem == null || pem.length == 0) {
      throw new IllegalArgumentException(setting + " must not be null or empty");
    }
    return new PemSource(setting, pem.clone(), null);
  }

  /**
   * A PEM file, read when the exporter is built and re-read when it changes.
   *
   * @param setting the setting's name, e.g. {@code OTEL_EXPORTER_OTLP_CERTIFICATE}
   * @param path the file
   * @return the source
   * @throws IllegalArgumentException if {@code path} is null
   */
  public static PemSource ofFile(String setting, Path path) {
    if (path == null) {
      throw new IllegalArgumentException(setting + " must not be null");
    }
    return new PemSource(setting, null, path);
  }

  /** {@return whether this is a file} */
  public boolean isFile() {
    return path != null;
  }

  /** {@return the file, or null for bytes} */
  public Path path() {
    return path;
  }

  /**
   * Reads the text.
   *
   * @return the PEM bytes
   * @throws IllegalArgumentException naming the file and what to do if it is missing, unreadable or
   *     empty
   */
  byte[] read() {
    if (path == null) {
      return bytes.clone();
    }
    byte[] b;
    try {
      b = Files.readAllBytes(path);
    } catch (NoSuchFileException e) {
      throw new IllegalArgumentException(
          this + " does not exist: give the path of an existing PEM file", e);
    } catch (AccessDeniedException e) {
      throw new IllegalArgumentException(
          this + " cannot be read by this process (permission denied)", e);
    } catch (IOException e) {
      throw new IllegalArgumentException(this + " cannot be read: " + e, e);
    }
    if (b.length == 0) {
      throw new IllegalArgumentException(this + " is empty: expected PEM text");
    }
    return b;
  }

  /**
   * {@return the file's modification time and size, to notice a change; null for bytes, {-1, -1}
   * for a file that cannot be read}
   */
  long[] stamp() {
    if (path == null) {
      return null;
    }
    try {
      return new long[] {Files.getLastModifiedTime(path).toMillis(), Files.size(path)};
    } catch (IOException e) {
      return new long[] {-1, -1};
    }
  }

  static boolean sameStamp(long[] a, long[] b) {
    return Arrays.equals(a, b);
  }

  /** {@code setting (file /path)} or {@code setting (PEM bytes)}: never the content. */
  @Override
  public String toString() {
    return setting + (path != null ? " (file " + path + ")" : " (PEM bytes)");
  }
}
