package io.logproducer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A JVM that exits without {@code close()} ships what was buffered, through the shutdown hook. */
@Timeout(90)
class ShutdownHookTest {

  @TempDir Path dir;

  private List<String> runChild(boolean hook) throws Exception {
    Path out = dir.resolve("delivered-" + hook + ".txt");
    String java =
        System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
    Process child =
        new ProcessBuilder(
                java,
                "-cp",
                System.getProperty("java.class.path"),
                ShutdownHookMain.class.getName(),
                out.toString(),
                Boolean.toString(hook),
                "500")
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("child-" + hook + ".log").toFile())
            .start();
    assertTrue(child.waitFor(60, TimeUnit.SECONDS), "the child exits");
    assertEquals(0, child.exitValue(), Files.readString(dir.resolve("child-" + hook + ".log")));
    return Files.exists(out) ? Files.readAllLines(out) : List.of();
  }

  @Test
  void theHookShipsWhatAForgottenProducerBuffered() throws Exception {
    List<String> delivered = runChild(true);
    assertEquals(500, delivered.size());
    assertEquals("record 0", delivered.get(0));
    assertEquals("record 499", delivered.get(499));
  }

  @Test
  void withoutTheHookTheBufferIsLost() throws Exception {
    assertEquals(List.of(), runChild(false), "opting out really loses the buffered records");
  }
}
