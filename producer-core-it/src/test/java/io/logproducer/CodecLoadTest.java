package io.logproducer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.testing.ChildJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A codec whose native library cannot load fails the producer's constructor, not its first batch.
 */
@Timeout(60)
class CodecLoadTest {

  @Test
  void zstdThatCannotLoadFailsTheConstructorWithAClearMessage() throws Exception {
    ChildJvm.Result r =
        ChildJvm.builder(CodecLoadMain.class)
            .jvmOptions("-Djava.io.tmpdir=/nonexistent/logproducer-test")
            .run(30);
    assertEquals(0, r.exitCode(), r.output());
    assertTrue(
        r.output()
            .contains(
                "THREW java.lang.IllegalStateException: compression ZSTD cannot be used here: "),
        r.output());
  }

  @Test
  void zstdThatLoadsBuildsAProducer() throws Exception {
    ChildJvm.Result r = ChildJvm.builder(CodecLoadMain.class).run(30);
    assertEquals(0, r.exitCode(), r.output());
    assertTrue(r.output().contains("CONSTRUCTED"), r.output());
  }
}
