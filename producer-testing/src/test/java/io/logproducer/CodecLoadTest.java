package io.logproducer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.memory.ChildJvm;
import java.util.List;
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
        ChildJvm.run(
            List.of("-Djava.io.tmpdir=/nonexistent/logproducer-test"), CodecLoadMain.class, 30);
    assertEquals(0, r.exitCode(), r.output());
    assertTrue(
        r.output()
            .contains(
                "THREW java.lang.IllegalStateException: compression ZSTD cannot be used here: "),
        r.output());
  }

  @Test
  void zstdThatLoadsBuildsAProducer() throws Exception {
    ChildJvm.Result r = ChildJvm.run(List.of(), CodecLoadMain.class, 30);
    assertEquals(0, r.exitCode(), r.output());
    assertTrue(r.output().contains("CONSTRUCTED"), r.output());
  }
}
