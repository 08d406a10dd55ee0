package io.logproducer.kafka.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.stream.Stream;

/**
 * The broker's log file ({@code broker.log} in the data directory): the child JVM's standard output
 * and error over all its starts, with a marker line per start. Read for the tail an exception
 * message quotes and to tell a port taken meanwhile from other start failures. Stateless apart from
 * the path; safe from any thread.
 */
final class BrokerLog {

  private static final int TAIL_LINES = 60;

  private final Path file;

  BrokerLog(Path file) {
    this.file = file;
  }

  /** {@return the log file} */
  Path file() {
    return file;
  }

  /**
   * The log's size.
   *
   * @return its length in bytes, 0 when it does not exist or cannot be read
   */
  long size() {
    try {
      return Files.exists(file) ? Files.size(file) : 0;
    } catch (IOException e) {
      return 0;
    }
  }

  /**
   * Appends one line (the parent's marker between the child's outputs).
   *
   * @param line the line, without its line separator
   * @throws UncheckedIOException when the file cannot be written
   */
  void append(String line) {
    try (Writer out =
        Files.newBufferedWriter(
            file, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND)) {
      out.write(line);
      out.write('\n');
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write " + file, e);
    }
  }

  /**
   * Whether the lines written after byte {@code from} say that a listener could not bind its port.
   *
   * @param from a {@link #size()} taken before the start
   * @return true on {@code Address already in use} or a {@code BindException}
   */
  boolean bindFailedSince(long from) {
    try (Stream<String> lines = Files.lines(file, StandardCharsets.UTF_8)) {
      long[] read = {0};
      return lines.anyMatch(
          line -> {
            read[0] += line.length() + 1;
            return read[0] > from
                && (line.contains("Address already in use") || line.contains("BindException"));
          });
    } catch (IOException | UncheckedIOException e) {
      return false;
    }
  }

  /**
   * The last lines of the log, for an exception message.
   *
   * @return a newline, a header naming the file, then its last 60 lines; or a note that there is no
   *     log
   */
  String tail() {
    Deque<String> tail = new ArrayDeque<>();
    try (Stream<String> lines = Files.lines(file, StandardCharsets.UTF_8)) {
      lines.forEach(
          line -> {
            tail.addLast(line);
            if (tail.size() > TAIL_LINES) {
              tail.removeFirst();
            }
          });
    } catch (IOException | UncheckedIOException e) {
      return "\n(no broker log: " + e + ")";
    }
    return "\n---- the last "
        + tail.size()
        + " lines of "
        + file
        + " ----\n"
        + String.join("\n", tail);
  }
}
