package io.logproducer.benchmark.report;

import static io.logproducer.benchmark.report.ReportFixture.block;
import static io.logproducer.benchmark.report.ReportFixture.fixture;
import static io.logproducer.benchmark.report.ReportFixture.meta;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.logproducer.benchmark.harness.Sample;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** appender-suite.tsv (a fixture) -> the rendered blocks of "Logging appenders", exactly. */
class AppenderSuiteTablesTest {

  private static final String TSV =
      String.join(
          "\n",
          "# measured 2030-01-02 03:04 UTC; Test CPU, 2 cores",
          "# command AppenderSuite --quick",
          AppenderSuiteResults.HEADER,
          row(
              "logback/logproducer 1 saturated 0 1 300000 300000 700.0 0.0 1200.0 1100.0 300.0"
                  + " 500000.0 700.0 300.0 50.0 20.0 30.0 5.0"),
          row(
              "logback/logproducer 1 saturated 0 2 300000 300000 650.0 0.0 1200.0 1000.0 310.0"
                  + " 520000.0 650.0 310.0 40.0 10.0 20.0 5.0"),
          row(
              "logback/logproducer 1 saturated 0 3 300000 300000 720.0 0.0 1200.0 1200.0 320.0"
                  + " 480000.0 720.0 320.0 60.0 30.0 40.0 5.0"),
          row(
              "logback/otel 1 saturated 0 1 300000 270000 1400.0 0.0 900.0 2500.0 400.0"
                  + " 300000.0 1400.0 900.0 100.0 30.0 70.0 8.0"),
          row(
              "logback/file 1 saturated 0 1 300000 300000 1000.0 0.0 300.0 1600.0 NaN"
                  + " 600000.0 1000.0 0.0 40.0 30.0 30.0 0.0"),
          row(
              "logback/aliyun 1 saturated 0 1 300000 300000 1500.0 0.0 2000.0 5000.0 600.0"
                  + " 100000.0 1500.0 2000.0 300.0 100.0 100.0 50.0"),
          row(
              "logback/logproducer 4 paced 200000 1 1000000 1000000 900.0 150.0 1300.0 1500.0"
                  + " 300.0 200000.0 900.0 300.0 50.0 20.0 30.0 5.0"),
          "");

  private static final String PROFILE =
      "# summary\nexecutionSamples\t200\nnativeSamples\t0\nframe\tfoo.Bar.baz\t50\n";

  @TempDir Path docs;

  private static String row(String spaced) {
    return spaced.replace(' ', '\t');
  }

  private List<Sample> withData() throws IOException {
    Path dir = Files.createDirectories(docs.resolve("perf-data"));
    Files.writeString(dir.resolve(AppenderSuiteResults.FILE), TSV, StandardCharsets.UTF_8);
    Files.writeString(
        dir.resolve(AppenderSuiteResults.PROFILE_PREFIX + "logback.tsv"),
        PROFILE,
        StandardCharsets.UTF_8);
    return fixture(false);
  }

  @Test
  void noFileNoBlocks() throws IOException {
    assertNull(block(docs, fixture(false), meta(), "appender-suite"));
    assertNull(block(docs, fixture(false), meta(), "appender-suite-profile"));
  }

  @Test
  void theTableHoldsTheMediansOfEachCell() throws IOException {
    List<Sample> s = withData();
    assertEquals(
        "2030-01-02 03:04 UTC; Test CPU, 2 cores; command: `AppenderSuite --quick`",
        block(docs, s, meta(), "appender-suite-measured"));
    String[] lines = block(docs, s, meta(), "appender-suite").split("\n");
    assertEquals(6, lines.length);
    assertEquals(
        "| logback/logproducer | 1 | saturated | 3 | 700 | – | 1,100 | 500,000 | 100.0 % |"
            + " 700 / 310 / 50 / 20 / 30 | 1,200 | 310 |",
        lines[2]);
    assertEquals(
        "| logback/file | 1 | saturated | 1 | 1,000 | – | 1,600 | 600,000 | 100.0 % |"
            + " 1,000 / 0 / 40 / 30 / 30 | 300 | – |",
        lines[3]);
    assertEquals(
        "| logback/otel | 1 | saturated | 1 | 1,400 | – | 2,500 | 300,000 | 90.0 % |"
            + " 1,400 / 900 / 100 / 30 / 70 | 900 | 400 |",
        lines[4]);
    assertEquals(
        "| logback/aliyun | 1 | saturated | 1 | 1,500 | – | 5,000 | 100,000 | 100.0 % |"
            + " 1,500 / 2,000 / 300 / 100 / 100 | 2,000 | 600 |",
        lines[5]);
  }

  @Test
  void goalsHighRateChartAndProfile() throws IOException {
    List<Sample> s = withData();
    String[] goals = block(docs, s, meta(), "appender-suite-goals").split("\n");
    assertEquals(3, goals.length);
    assertEquals(
        "| logback | saturated | 1 | **0.50×** met | **0.70×** met | **0.44×** met |"
            + " **0.22×** met | 100.0 % met |",
        goals[2]);
    String[] high = block(docs, s, meta(), "appender-suite-high-rate").split("\n");
    assertEquals(
        "| logback/logproducer | 4 | 200,000 | 1 | 200,000 | 100.0 % met | 900 | 1,500 |", high[2]);
    assertEquals(
        "![Logging-thread CPU per event by appender](performance/appenders.png)",
        block(docs, s, meta(), "appender-suite-chart"));
    assertEquals(
        "| framework | top frame | share of samples |\n|---|---|---:|\n"
            + "| logback | `foo.Bar.baz` | 25.0 % |\n",
        block(docs, s, meta(), "appender-suite-profile"));
  }

  @Test
  void theDataFileRoundTrips() {
    AppenderSuiteResults.Data d = AppenderSuiteResults.parse(List.of(TSV.split("\n")));
    assertEquals(7, d.runs().size());
    assertEquals(TSV, String.join("\n", AppenderSuiteResults.format(d)) + "\n");
  }
}
