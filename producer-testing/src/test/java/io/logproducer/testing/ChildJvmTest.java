package io.logproducer.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(120)
class ChildJvmTest {

  static final String NAME = "child-jvm-test.invalid";

  @TempDir Path dir;

  /** Echoes each input line as {@code ECHO <line>}; {@code resolve} prints what a name is. */
  public static final class EchoMain {
    public static void main(String[] args) throws Exception {
      System.out.println("READY " + String.join(",", args));
      System.err.println("on stderr");
      BufferedReader in =
          new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        if (line.equals("exit")) {
          System.exit(3);
        }
        if (line.equals("resolve")) {
          try {
            System.out.println("RESOLVED " + InetAddress.getByName(NAME).getHostAddress());
          } catch (UnknownHostException e) {
            System.out.println("RESOLVED none");
          }
          continue;
        }
        System.out.println("ECHO " + line);
      }
    }
  }

  /** Prints the runtime it runs on. */
  public static final class RuntimeMain {
    public static void main(String[] args) {
      System.out.println(
          "RUNTIME " + System.getProperty("java.home") + " " + System.getProperty("java.version"));
    }
  }

  /** The JDK matrix: a child runs on the runtime under test (the test JVM's), not the build's. */
  @Test
  void theChildRunsOnTheTestJvmsRuntime() throws Exception {
    ChildJvm.Result r = ChildJvm.builder(RuntimeMain.class).run(60);
    assertEquals(0, r.exitCode(), r.output());
    assertTrue(
        r.output()
            .contains(
                "RUNTIME "
                    + System.getProperty("java.home")
                    + " "
                    + System.getProperty("java.version")),
        r.output());
  }

  @Test
  void talksWithTheChildAndReportsItsExitCodeAndBothStreams() throws Exception {
    try (ChildJvm child = ChildJvm.builder(EchoMain.class).args("a", "b").start()) {
      assertEquals("READY a,b", child.awaitLine("READY", 60_000));
      child.tell("hello");
      assertEquals("ECHO hello", child.awaitLine("ECHO", 30_000));
      child.tell("exit");
      assertEquals(3, child.waitFor(30_000));
      assertTrue(child.outputLines().contains("on stderr"), child.output());
      assertThrows(AssertionError.class, () -> child.awaitLine("NEVER", 100));
    }
  }

  @Test
  void aLineThatNeverComesFailsWithTheLiveChildsThreadStacks() throws Exception {
    try (ChildJvm child = ChildJvm.builder(EchoMain.class).start()) {
      child.awaitLine("READY", 60_000);
      AssertionError e = assertThrows(AssertionError.class, () -> child.awaitLine("NEVER", 100));
      String m = e.getMessage();
      assertTrue(m.contains("\"main\""), m);
      assertTrue(m.contains("EchoMain.main"), m);
      assertTrue(m.contains("JNI global refs"), m);
      assertTrue(child.isAlive(), "SIGQUIT only dumps the stacks");
    }
  }

  @Test
  void runReturnsTheResultOfAChildThatExits() throws Exception {
    ChildJvm.Result r = ChildJvm.builder(EchoMain.class).args("x").run(60);
    assertEquals(0, r.exitCode(), r.output()); // standard input is closed: the loop ends
    assertTrue(r.output().startsWith("READY x"), r.output());
  }

  @Test
  void killEndsTheChildWithoutItsShutdownHooks() throws Exception {
    try (ChildJvm child = ChildJvm.builder(EchoMain.class).start()) {
      child.awaitLine("READY", 60_000);
      child.kill();
      assertFalse(child.isAlive());
      assertEquals(128 + 9, child.waitFor(10_000), "SIGKILL");
    }
  }

  @Test
  void aNameResolvesOnlyOnceTheTestAddsItToTheHostsFile() throws Exception {
    try (ChildJvm child = ChildJvm.builder(EchoMain.class).hostsFile(dir).start()) {
      child.awaitLine("READY", 60_000);
      child.tell("resolve");
      assertEquals("RESOLVED none", child.awaitLine("RESOLVED", 30_000));
      child.resolve(NAME);
      child.tell("resolve");
      assertEquals("RESOLVED 127.0.0.1", child.awaitLine("RESOLVED", 30_000));
      child.tell("exit");
      assertEquals(3, child.waitFor(30_000));
    }
  }
}
