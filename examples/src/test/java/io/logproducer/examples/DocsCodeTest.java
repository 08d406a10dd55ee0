package io.logproducer.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.kafka.embedded.EmbeddedKafkaBroker;
import io.logproducer.testing.gse.GseAgent;
import io.logproducer.testing.kafka.TopicReader;
import io.logproducer.testing.otlp.OtlpReceiver;
import java.io.IOException;
import java.io.StringWriter;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The documentation's Java code is tested, not trusted: every {@code ```java} block of README.md
 * and of every page in docs/ compiles for Java 8 against the libraries, with only the imports it
 * shows (a block without a class is wrapped in a {@code main} method), and the examples that ship
 * records run against the test kit's receivers (OTLP receiver, GSE agent) or an embedded Kafka
 * broker: every record they send has arrived and no producer thread is left when they return (so an
 * example that forgets {@code close()} fails here).
 */
@Timeout(120)
class DocsCodeTest {

  private static final Pattern BLOCK =
      Pattern.compile("(?m)^```java\\n(.*?)^```\\n", Pattern.DOTALL);
  private static final Pattern CLASS = Pattern.compile("(?m)^(public )?(final )?class (\\w+)");
  private static final String OTLP_ENDPOINT = "http://127.0.0.1:4318";
  private static final String GSE_SOCKET = "/var/run/ipc.state.report";
  private static final String KAFKA_BOOTSTRAP = "127.0.0.1:9092";

  /** The Kafka block's topics: the exporter's (the default) and a record's destination. */
  private static final List<String> KAFKA_TOPICS = List.of("otlp_logs", "audit_logs");

  @TempDir Path dir;

  /** A Java block of a page: the page's name, its first line's number and its text. */
  record Block(String page, int line, String code) {
    Block(int line, String code) {
      this("README.md", line, code);
    }

    String className() {
      Matcher m = CLASS.matcher(code);
      return m.find() ? m.group(3) : page.replaceAll("[^A-Za-z0-9]", "_") + "_line" + line;
    }

    /**
     * The block as a compilation unit: as is when it declares a class, else its statements in a
     * main method.
     */
    String source() {
      if (CLASS.matcher(code).find()) {
        return code;
      }
      StringBuilder imports = new StringBuilder();
      StringBuilder body = new StringBuilder();
      for (String l : code.split("\n", -1)) {
        (l.startsWith("import ") ? imports : body).append(l).append('\n');
      }
      return imports
          + "public class "
          + className()
          + " {\n  public static void main(String[] args) throws Exception"
          + " {\n"
          + body
          + "  }\n}\n";
    }

    /**
     * Number of {@code .send(} and {@code .sendAsync(} calls: each example call sends one record.
     */
    int sends() {
      Matcher m = Pattern.compile("\\.send(Async)?\\(").matcher(code);
      int n = 0;
      while (m.find()) {
        n++;
      }
      return n;
    }
  }

  static Path root() {
    for (Path d = Paths.get("").toAbsolutePath(); d != null; d = d.getParent()) {
      if (Files.isRegularFile(d.resolve("README.md"))
          && Files.isDirectory(d.resolve("producer-core"))) {
        return d;
      }
    }
    throw new AssertionError("README.md not found above " + Paths.get("").toAbsolutePath());
  }

  /** README.md, then every page of docs/ by name. */
  static List<Path> pages() throws IOException {
    List<Path> pages = new ArrayList<>();
    pages.add(root().resolve("README.md"));
    try (var docs = Files.list(root().resolve("docs"))) {
      docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
    }
    return pages;
  }

  static List<Block> javaBlocks() throws IOException {
    List<Block> blocks = new ArrayList<>();
    for (Path page : pages()) {
      String text = Files.readString(page, StandardCharsets.UTF_8);
      String name = root().relativize(page).toString();
      Matcher m = BLOCK.matcher(text);
      while (m.find()) {
        int line = 1 + (int) text.substring(0, m.start()).chars().filter(c -> c == '\n').count();
        blocks.add(new Block(name, line, m.group(1)));
      }
    }
    return blocks;
  }

  /**
   * Compiles {@code sources} (class name → source) for Java 8 into a new directory; fails listing
   * every error.
   */
  private Path compile(String label, List<Block> blocks, List<String> sources) throws IOException {
    Path src = Files.createDirectories(dir.resolve(label + "-src"));
    Path out = Files.createDirectories(dir.resolve(label + "-classes"));
    List<Path> files = new ArrayList<>();
    for (int i = 0; i < blocks.size(); i++) {
      Path f = src.resolve(blocks.get(i).className() + ".java");
      Files.writeString(f, sources.get(i), StandardCharsets.UTF_8);
      files.add(f);
    }
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    StringWriter log = new StringWriter();
    try (StandardJavaFileManager fm =
        javac.getStandardFileManager(diagnostics, null, StandardCharsets.UTF_8)) {
      List<String> options =
          List.of(
              "--release",
              "8",
              "-Xlint:-options",
              "-proc:none",
              "-d",
              out.toString(),
              "-cp",
              System.getProperty("java.class.path"));
      boolean ok =
          javac
              .getTask(log, fm, diagnostics, options, null, fm.getJavaFileObjectsFromPaths(files))
              .call();
      String errors =
          diagnostics.getDiagnostics().stream()
              .filter(d -> d.getKind() == javax.tools.Diagnostic.Kind.ERROR)
              .map(
                  d ->
                      blockOf(blocks, d.getSource()).page()
                          + " line "
                          + blockOf(blocks, d.getSource()).line()
                          + " (block line "
                          + d.getLineNumber()
                          + "): "
                          + d.getMessage(null))
              .collect(Collectors.joining("\n"));
      assertTrue(ok && errors.isEmpty(), "documented code does not compile:\n" + errors + log);
    }
    return out;
  }

  private static Block blockOf(List<Block> blocks, JavaFileObject source) {
    for (Block b : blocks) {
      if (source != null && source.getName().endsWith(b.className() + ".java")) {
        return b;
      }
    }
    return blocks.get(0);
  }

  private void run(Path classes, Block block) throws Exception {
    try (URLClassLoader loader =
        new URLClassLoader(new URL[] {classes.toUri().toURL()}, getClass().getClassLoader())) {
      Method main = loader.loadClass(block.className()).getMethod("main", String[].class);
      main.invoke(null, (Object) new String[0]);
    }
  }

  private static List<String> producerThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(Thread::isAlive)
        .map(Thread::getName)
        .filter(n -> n.startsWith("logproducer-") || n.startsWith("kafka-producer-network-thread"))
        .sorted()
        .collect(Collectors.toList());
  }

  private static Block blockContaining(String needle) throws IOException {
    List<Block> found = blocksContaining(needle);
    assertEquals(1, found.size(), "documented blocks containing " + needle);
    return found.get(0);
  }

  private static List<Block> blocksContaining(String needle) throws IOException {
    return javaBlocks().stream()
        .filter(b -> b.code().contains(needle))
        .collect(Collectors.toList());
  }

  @Test
  void everyJavaBlockCompilesForJava8WithTheImportsItShows() throws Exception {
    List<Block> blocks = javaBlocks();
    assertTrue(blocks.size() >= 5, "documented Java blocks: " + blocks.size());
    assertTrue(
        blocks.stream().anyMatch(b -> b.page().equals("README.md")), "README.md has a Java block");
    assertEquals(
        blocks.size(),
        blocks.stream().map(Block::className).distinct().count(),
        "distinct class names");
    compile("all", blocks, blocks.stream().map(Block::source).collect(Collectors.toList()));
  }

  @Test
  void theCompileCheckCanFail() {
    Block broken =
        new Block(
            1,
            "import io.logproducer.LogRecord;\nLogRecord.builder().setTimestamp(Instant.now());\n");
    AssertionError e =
        org.junit.jupiter.api.Assertions.assertThrows(
            AssertionError.class,
            () -> compile("broken", List.of(broken), List.of(broken.source())));
    assertTrue(e.getMessage().contains("cannot find symbol"), e.getMessage());
  }

  @Test
  void everyOtlpExampleDeliversEveryRecordAndClosesBeforeItReturns() throws Exception {
    List<Block> blocks = blocksContaining(OTLP_ENDPOINT);
    assertTrue(blocks.size() >= 2, "OTLP examples (README.md and docs/usage.md): " + blocks.size());
    for (Block block : blocks) {
      try (OtlpReceiver receiver = OtlpReceiver.start()) {
        String source =
            block.source().replace(OTLP_ENDPOINT, "http://127.0.0.1:" + receiver.port());
        Path classes = compile("otlp-" + block.className(), List.of(block), List.of(source));
        run(classes, block);
        String where = block.page() + " line " + block.line();
        // close() returns within its bound; its threads end just after, as this machine schedules
        // them: wait for that (60 s only ends a hang)
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!producerThreads().isEmpty() && System.nanoTime() - until < 0) {
          Thread.sleep(10);
        }
        assertEquals(List.of(), producerThreads(), where + ": the example closed its producer");
        assertEquals(
            block.sends(), receiver.acceptedRecords(), where + ": records the receiver counted");
        assertEquals(List.of(), receiver.invalidRequests(), where);
        assertTrue(block.sends() >= 1, where);
      }
    }
  }

  @Test
  void theGseExampleDeliversEveryRecordAndClosesBeforeItReturns() throws Exception {
    Block block = blockContaining(GSE_SOCKET);
    Path socket = dir.resolve("agent.sock");
    try (GseAgent agent = GseAgent.unix(socket, GseAgent.Mode.COUNTING)) {
      String source = block.source().replace(GSE_SOCKET, socket.toString());
      Path classes = compile("gse", List.of(block), List.of(source));
      run(classes, block);
      assertEquals(List.of(), producerThreads(), "the example closed its producer");
      // "delivered" for GSE means written to the socket; the agent counts once it has read the
      // frames
      agent.awaitRecords(block.sends(), 60_000); // a condition: the cap only ends a hang
      assertEquals(block.sends(), agent.records(), "records the agent counted");
      assertEquals(List.of(), agent.violations());
    }
  }

  @Test
  void theKafkaExampleDeliversEveryRecordAndClosesBeforeItReturns() throws Exception {
    Block block = blockContaining("setBootstrapServers(\"" + KAFKA_BOOTSTRAP + "\")");
    for (String topic : KAFKA_TOPICS) {
      assertTrue(
          block.code().contains("\"" + topic + "\""), "the Kafka block names topic " + topic);
    }
    try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start(dir.resolve("kafka"))) {
      for (String topic : KAFKA_TOPICS) {
        broker.createTopic(topic, 1); // the broker creates no topic on use
      }
      String source = block.source().replace(KAFKA_BOOTSTRAP, broker.bootstrapServers());
      Path classes = compile("kafka", List.of(block), List.of(source));
      run(classes, block);
      assertEquals(
          List.of(), producerThreads(), "the example closed its producer and its Kafka client");
      long total = 0;
      for (String topic : KAFKA_TOPICS) {
        try (TopicReader counter = TopicReader.fromBeginning(broker.bootstrapServers(), topic)) {
          TopicReader.Count c = counter.count(TopicReader.OTLP_PROTO_RECORDS, 30_000);
          assertTrue(c.complete() && c.malformed() == 0, topic + ": " + c);
          assertEquals(1, c.records(), "records in topic " + topic + ": " + c);
          total += c.records();
        }
      }
      assertEquals(block.sends(), total, "records the topics hold when the example returned");
    }
  }
}
