package io.logproducer.otlp.vthreads;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.testing.ChildJvm;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * {@code send()}, the memory budget's wait and {@code flush()} from 10,000 virtual threads on 2
 * carriers never pin a carrier: a JFR recording of {@code jdk.VirtualThreadPinned} (threshold 0)
 * finds no event with a frame of {@code io.logproducer}, and every record has exactly one outcome.
 * Runs in a child JVM started with {@code -Djdk.virtualThreadScheduler.parallelism=2} (the property
 * only counts before the JVM's first virtual thread); see {@link VirtualThreadPinningMain}.
 */
class VirtualThreadPinningTest {

  @Test
  void tenThousandVirtualThreadsSendAndFlushWithoutPinning() throws Exception {
    Assumptions.assumeTrue(
        PinnedEvents.available(),
        "needs JDK 21+ (virtual threads); this is Java " + Runtime.version());
    ChildJvm.Result r =
        ChildJvm.builder(VirtualThreadPinningMain.class)
            .jvmOptions("-Djdk.virtualThreadScheduler.parallelism=2", "-Xmx1g")
            .run(1_800);
    System.out.println(r.output());
    assertTrue(r.output().contains("PINNED total="), r.output());
    assertTrue(r.output().contains("PINNED total=") && r.output().contains(" ours=0 "), r.output());
    assertEquals(0, r.exitCode(), r.output());
    assertTrue(r.output().contains("RESULT ok"), r.output());
  }
}
