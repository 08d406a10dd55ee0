package io.logproducer.benchmark.harness;

import java.io.IOException;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** One run of the suite: which section asked for it, what ran, what it measured. */
public record Sample(String section, RunSpec spec, RunResult result) {

  /** {@return this sample as one line of a {@code results.tsv}} */
  public String toTsv() {
    List<String> s = new ArrayList<>();
    spec.toMap().forEach((k, v) -> s.add(k + "=" + URLEncoder.encode(v, StandardCharsets.UTF_8)));
    return section + "\t" + String.join(" ", s) + "\t" + result.format();
  }

  static Sample fromTsv(String line) {
    String[] f = line.split("\t", 3);
    Map<String, String> m = new LinkedHashMap<>();
    for (String kv : f[1].split(" ")) {
      int eq = kv.indexOf('=');
      m.put(kv.substring(0, eq), URLDecoder.decode(kv.substring(eq + 1), StandardCharsets.UTF_8));
    }
    return new Sample(f[0], RunSpec.fromMap(m), RunResult.parse(f[2]));
  }

  /** The samples of a {@code results.tsv}, in file order; lines starting with # are comments. */
  public static List<Sample> readAll(Path results) throws IOException {
    return Tsv.read(results, Sample::fromTsv);
  }
}
