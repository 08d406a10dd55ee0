package io.logproducer.internal.spool;

import io.logproducer.SpoolOpenException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * {@code <dir>/spool.meta}: the format version and the owner's kind, as UTF-8 text lines {@code
 * format=logproducer-spool}, {@code version=1}, {@code kind=<kind>}. Created atomically (tmp +
 * rename) when absent. Stateless.
 */
final class SpoolMeta {

  /** The file name. */
  static final String FILE = "spool.meta";

  /** The format version this code writes and reads. */
  static final int VERSION = 1;

  /** Not instantiable. */
  private SpoolMeta() {}

  /**
   * Checks {@code dir}'s meta file against {@code kind}, writing it when absent. {@return its size,
   * bytes}
   *
   * @throws SpoolOpenException naming the directory and both kinds when the directory belongs to
   *     another kind, or when the file is not a spool meta file of a known version
   * @throws IllegalArgumentException when {@code kind} is empty or not one line
   * @throws IOException when it cannot be read or written
   */
  static long checkOrCreate(Path dir, String kind) throws IOException {
    if (kind == null || kind.isEmpty() || kind.indexOf('\n') >= 0) {
      throw new IllegalArgumentException("spool: kind must be one non-empty line: " + kind);
    }
    Path file = dir.resolve(FILE);
    String text;
    try {
      text = new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      return write(dir, kind);
    }
    String version = field(text, "version");
    if (!"logproducer-spool".equals(field(text, "format"))
        || !String.valueOf(VERSION).equals(version)) {
      throw new SpoolOpenException(
          dir,
          "spool directory " + dir + ": " + FILE + " is not a version " + VERSION + " spool",
          null);
    }
    String found = field(text, "kind");
    if (!kind.equals(found)) {
      throw new SpoolOpenException(
          dir,
          "spool directory "
              + dir
              + " belongs to kind '"
              + found
              + "', cannot be opened as kind '"
              + kind
              + "' (use another directory)",
          null);
    }
    return Files.size(file);
  }

  /** Writes the meta file of {@code kind} into {@code dir}; {@return its size, bytes} */
  static long write(Path dir, String kind) throws IOException {
    byte[] bytes =
        ("format=logproducer-spool\nversion=" + VERSION + "\nkind=" + kind + "\n")
            .getBytes(StandardCharsets.UTF_8);
    Path tmp = dir.resolve(FILE + ".tmp");
    Files.write(tmp, bytes);
    Files.move(tmp, dir.resolve(FILE), StandardCopyOption.ATOMIC_MOVE);
    return bytes.length;
  }

  /** {@return the value of the line {@code name=value} in {@code text}, or null} */
  private static String field(String text, String name) {
    for (String line : text.split("\n")) {
      if (line.startsWith(name + "=")) {
        return line.substring(name.length() + 1);
      }
    }
    return null;
  }
}
