package io.logproducer.log4j2;

import io.logproducer.testing.ChildJvm;
import io.logproducer.testsupport.VirtualThreadChild;
import org.junit.jupiter.api.Test;

/**
 * The log4j2 appender used from 10,000 virtual threads on 2 carriers, with a queue and a budget
 * small enough that they wait in the hand-off and in the budget: a JFR recording of {@code
 * jdk.VirtualThreadPinned} (threshold 0) finds no event with a frame of {@code io.logproducer}, and
 * every event is delivered. Runs in a child JVM started with {@code
 * -Djdk.virtualThreadScheduler.parallelism=2}; see {@link VirtualThreadAppenderMain}.
 */
class VirtualThreadAppenderTest {

  @Test
  void virtualThreadsLogThroughTheAppenderWithoutPinning() throws Exception {
    VirtualThreadChild.assumeVirtualThreads();
    ChildJvm.Result r =
        ChildJvm.builder(VirtualThreadAppenderMain.class)
            .jvmOptions(VirtualThreadChild.JVM_OPTIONS)
            .run(1_800);
    VirtualThreadChild.assertNoPinning(r.exitCode(), r.output());
  }
}
