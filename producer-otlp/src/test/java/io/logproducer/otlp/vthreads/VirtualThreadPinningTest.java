package io.logproducer.otlp.vthreads;

import io.logproducer.testing.ChildJvm;
import io.logproducer.testsupport.VirtualThreadChild;
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
    VirtualThreadChild.assumeVirtualThreads();
    ChildJvm.Result r =
        ChildJvm.builder(VirtualThreadPinningMain.class)
            .jvmOptions(VirtualThreadChild.JVM_OPTIONS)
            .run(1_800);
    VirtualThreadChild.assertNoPinning(r.exitCode(), r.output());
  }
}
