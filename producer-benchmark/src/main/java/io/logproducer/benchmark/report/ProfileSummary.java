package io.logproducer.benchmark.report;

import io.logproducer.benchmark.harness.JfrProfile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What the page shows of a JFR recording, kept in {@code perf-data/profile.tsv} (the recording is
 * not committed): lines {@code executionSamples N}, {@code nativeSamples N} and {@code kind name
 * count} for kind {@code component} (inclusive), {@code thread}, {@code frame} (self) and {@code
 * native}; tab-separated, {@code #} starts a comment.
 */
public record ProfileSummary(int executionSamples, int nativeSamples, List<String[]> all) {

  static final String HEADER =
      "# Summary of the JFR recording of the \"profile\" run in results.tsv (the "
          + "recording, profile.jfr, is not committed). Written by the suite; columns: kind, name, samples.";

  static ProfileSummary of(JfrProfile p) {
    List<String[]> rows = new ArrayList<>();
    for (JfrProfile.Share s : p.components()) {
      if (s.value() > 0) {
        rows.add(new String[] {"component", s.name(), Long.toString(Math.round(s.value()))});
      }
    }
    p.threads()
        .forEach(
            s -> rows.add(new String[] {"thread", s.name(), Long.toString(Math.round(s.value()))}));
    p.topFrames()
        .forEach(
            s -> rows.add(new String[] {"frame", s.name(), Long.toString(Math.round(s.value()))}));
    p.nativeTopFrames()
        .forEach(
            s -> rows.add(new String[] {"native", s.name(), Long.toString(Math.round(s.value()))}));
    return new ProfileSummary(p.executionSamples(), p.nativeSamples(), rows);
  }

  void write(Path file) throws IOException {
    List<String> lines = new ArrayList<>();
    lines.add(HEADER);
    lines.add("executionSamples\t" + executionSamples);
    lines.add("nativeSamples\t" + nativeSamples);
    for (String[] r : all) {
      lines.add(String.join("\t", r));
    }
    Files.write(file, lines, StandardCharsets.UTF_8);
  }

  static ProfileSummary read(Path file) throws IOException {
    int exec = 0;
    int nat = 0;
    List<String[]> rows = new ArrayList<>();
    for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      String[] f = line.split("\t");
      switch (f[0]) {
        case "executionSamples" -> exec = Integer.parseInt(f[1]);
        case "nativeSamples" -> nat = Integer.parseInt(f[1]);
        default -> rows.add(f);
      }
    }
    return new ProfileSummary(exec, nat, rows);
  }

  /** {name, count} rows of one kind, in file order. */
  List<String[]> rows(String kind) {
    return all.stream().filter(r -> r[0].equals(kind)).map(r -> new String[] {r[1], r[2]}).toList();
  }

  double share(String[] row, int total) {
    return total == 0 ? 0 : 100.0 * Long.parseLong(row[1]) / total;
  }

  /** The thread group of a thread's name, as the profile and the CPU table group threads. */
  public static String threadGroupOf(String name) {
    if (name == null) {
      return "?";
    }
    if (name.startsWith("app-")) {
      return "app (generate + send)";
    }
    if (name.contains("-sender-")) {
      return "sender";
    }
    if (name.contains("-linger")) {
      return "linger";
    }
    if (name.startsWith("BatchLogRecordProcessor")) {
      return "otel-worker";
    }
    if (name.startsWith("HttpClient")) {
      return "http";
    }
    return name.replaceAll("[-#]?\\d+$", "");
  }
}
