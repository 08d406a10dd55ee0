package io.logproducer.logback;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.testing.ChildJvm;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The logback appender used from 10,000 virtual threads on 2 carriers, with a queue and a budget
 * small enough that they wait in the hand-off and in the budget: a JFR recording of {@code
 * jdk.VirtualThreadPinned} (threshold 0) finds no event with a frame of {@code io.logproducer}, and
 * every event is delivered. Runs in a child JVM started with {@code
 * -Djdk.virtualThreadScheduler.parallelism=2}; see {@link VirtualThreadAppenderMain}.
 */
class VirtualThreadAppenderTest {

  @Test
  void virtualThreadsLogThroughTheAppenderWithoutPinning() throws Exception {
    Assumptions.assumeTrue(
        PinnedEvents.available(),
        "needs JDK 21+ (virtual threads); this is Java " + Runtime.version());
    ChildJvm.Result r =
        ChildJvm.builder(VirtualThreadAppenderMain.class)
            .jvmOptions("-Djdk.virtualThreadScheduler.parallelism=2", "-Xmx1g")
            .run(1_800);
    System.out.println(r.output());
    assertTrue(r.output().contains(" ours=0 "), r.output());
    assertEquals(0, r.exitCode(), r.output());
    assertTrue(r.output().contains("RESULT ok"), r.output());
  }
}
