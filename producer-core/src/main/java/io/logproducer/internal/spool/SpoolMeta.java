package io.logproducer.internal.spool;

import io.logproducer.SpoolOpenException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;

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
   * Checks {@code dir}'s meta file against {@code kind}, writing it when absent. A file that is
   * damaged (empty, not text of this format, no kind) is renamed aside to {@code
   * spool.meta.damaged-<epoch millis>} — never deleted — and rebuilt for {@code kind}; so is a
   * missing one beside existing segments. Each such repair adds one line to {@code notices}. What a
   * rebuild cannot check: that the segments were written for {@code kind} (entries carry no kind;
   * an entry its exporter cannot read is reported corrupt when replay reaches it). {@return the
   * file's size, bytes}
   *
   * @throws SpoolOpenException naming the directory and both kinds when the file is intact and
   *     names another kind, or when it names a format version this code does not read
   * @throws IllegalArgumentException when {@code kind} is empty or not one line
   * @throws IOException when it cannot be read or written
   */
  static long checkOrCreate(Path dir, String kind, List<String> notices) throws IOException {
    if (kind == null || kind.isEmpty() || kind.indexOf('\n') >= 0) {
      throw new IllegalArgumentException("spool: kind must be one non-empty line: " + kind);
    }
    Path file = dir.resolve(FILE);
    String text;
    try {
      text = new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      if (hasSegments(dir)) {
        notices.add(
            "spool directory "
                + dir
                + ": "
                + FILE
                + " was missing beside stored segments; rebuilt for kind '"
                + kind
                + "' (the segments' kind cannot be checked: an entry this exporter cannot read is"
                + " counted corrupt when replay reaches it)");
      }
      return write(dir, kind);
    }
    String format = field(text, "format");
    String version = field(text, "version");
    String found = field(text, "kind");
    boolean intact =
        "logproducer-spool".equals(format)
            && version != null
            && version.matches("[0-9]{1,9}")
            && found != null
            && !found.isEmpty();
    if (!intact) {
      Path aside = dir.resolve(FILE + ".damaged-" + System.currentTimeMillis());
      Files.move(file, aside, StandardCopyOption.REPLACE_EXISTING);
      notices.add(
          "spool directory "
              + dir
              + ": "
              + FILE
              + " was damaged ("
              + text.length()
              + " chars, not a spool meta file); kept as "
              + aside.getFileName()
              + " and rebuilt for kind '"
              + kind
              + "'; the stored segments are kept and replayed (their kind cannot be checked: an"
              + " entry this exporter cannot read is counted corrupt when replay reaches it)");
      return write(dir, kind);
    }
    if (!String.valueOf(VERSION).equals(version)) {
      throw new SpoolOpenException(
          dir,
          "spool directory "
              + dir
              + ": "
              + FILE
              + " is a version "
              + version
              + " spool; this version reads version "
              + VERSION
              + " (use the version that wrote it, or another directory)",
          null);
    }
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

  /** {@return whether {@code dir} holds a segment file} */
  private static boolean hasSegments(Path dir) throws IOException {
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, "*" + Segment.SUFFIX)) {
      return ds.iterator().hasNext();
    }
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
