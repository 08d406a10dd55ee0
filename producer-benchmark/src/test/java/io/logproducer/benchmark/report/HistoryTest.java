package io.logproducer.benchmark.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HistoryTest {

  @TempDir Path dir;

  @Test
  void rowsRoundTripAndAnAppendIsOncePerRun() throws Exception {
    Path file = dir.resolve(History.FILE);
    assertTrue(History.load(file).isEmpty());
    History.Row a =
        new History.Row(
            "2026-11-23 00:55 UTC",
            1208775.56,
            1039856,
            Double.NaN,
            1305655,
            1.38489,
            0.32759,
            236492,
            Double.NaN,
            358.14,
            "a note\twith a tab");
    History.append(file, a);
    History.append(file, a); // the same run again: not repeated
    History.Row b = new History.Row("2026-11-24 10:00 UTC", 1, 2, 3, 4, 5, 6, 7, 8, 9, "");
    History.append(file, b);
    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    assertEquals(3, lines.size());
    assertEquals(
        "2026-11-23 00:55 UTC\t1208776\t1039856\t-\t1305655\t1.3849\t0.3276\t236492\t-\t358.1"
            + "\ta note with a tab",
        lines.get(1));
    List<History.Row> rows = History.load(file);
    assertEquals(2, rows.size());
    History.Row read = rows.get(0);
    assertEquals(1208776, read.lz4(), 0);
    assertTrue(Double.isNaN(read.gzip1()));
    assertEquals(1.3849, read.cpuLz4Micros(), 0);
    assertEquals("a note with a tab", read.note());
    assertEquals("", rows.get(1).note());
    assertThrows(IllegalArgumentException.class, () -> History.Row.parse("2026-11-23\t1\t2"));
  }
}
