package io.logproducer.internal.spool;

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
   * @throws SpoolKindMismatchException when the directory belongs to another kind
   * @throws SpoolException when the file is not a spool meta file of a known version
   * @throws IOException when it cannot be read or written
   */
  static long checkOrCreate(Path dir, String kind) throws IOException {
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
      throw new SpoolException(
          "spool directory " + dir + ": " + FILE + " is not a version " + VERSION + " spool");
    }
    String found = field(text, "kind");
    if (!kind.equals(found)) {
      throw new SpoolKindMismatchException(dir, found, kind);
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
