package io.logproducer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.logproducer.testing.ChildJvm;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A child's stdout and stderr share one pipe: with {@code ChildOutput.lineAtomic()} every line of
 * either arrives whole, so a test that counts the child's {@code OUTCOME} lines counts them all
 * while the child logs to stderr. On Java 11 (whose {@code println} writes a line's text and its
 * separator apart) an unprotected stderr once glued an {@code OUTCOME} line to the end of a WARN
 * line, and SpoolLiveKillTest waited for the missing outcome until its timeout. Runs on JDK 11 too.
 */
@Timeout(120)
class ChildOutputTest {

  @Test
  void everyLineOfBothStreamsArrivesWhole() throws Exception {
    int n = 20_000;
    ChildJvm.Result r = ChildJvm.builder(ChildOutputMain.class).args(Integer.toString(n)).run(90);
    assertEquals(0, r.exitCode(), r.output());
    List<String> lines = Arrays.asList(r.output().split("\n"));
    long outcomes = lines.stream().filter(l -> l.matches("OUTCOME \\d+")).count();
    long warnings = lines.stream().filter(l -> l.matches("WARN \\d+ x{280}")).count();
    assertEquals(n, outcomes, "whole OUTCOME lines");
    assertEquals(n, warnings, "whole WARN lines");
    assertEquals(2 * n + 1, lines.size(), "no other lines");
  }
}
