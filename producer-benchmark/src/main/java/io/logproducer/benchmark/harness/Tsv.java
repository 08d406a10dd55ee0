package io.logproducer.benchmark.harness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Collectors;

/** The suite's tab-separated data files in {@code perf-data}: one row a line, # for comments. */
final class Tsv {

  private Tsv() {}

  /** {@return the rows of {@code file}, blank and # lines skipped; empty when there is none} */
  static <T> List<T> read(Path file, Function<String, T> row) throws IOException {
    if (!Files.exists(file)) {
      return List.of();
    }
    return Files.readAllLines(file, StandardCharsets.UTF_8).stream()
        .filter(l -> !l.isBlank() && !l.startsWith("#"))
        .map(row)
        .collect(Collectors.toList());
  }

  /** Writes {@code lines} to {@code file} (replaced), creating its directory. */
  static void write(Path file, List<String> lines) throws IOException {
    Files.createDirectories(file.toAbsolutePath().getParent());
    Files.write(file, lines, StandardCharsets.UTF_8);
  }

  /** {@return the fields, tab-separated} */
  static String join(Object... fields) {
    return Arrays.stream(fields).map(String::valueOf).collect(Collectors.joining("\t"));
  }
}
