package io.logproducer.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.Compression;
import io.logproducer.ProducerConfig;
import io.logproducer.ProducerConfigDef;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class OptionsTest {

  private static final List<OptionSpec> GSE_OPTIONS =
      new io.logproducer.examples.gse.GseCommand().options();

  @Test
  void parsesCommonOptionsIntoTheProducerConfig() {
    Options o =
        Options.parse(
            new String[] {
              "otlp",
              "--records",
              "1_000",
              "--threads=3",
              "--compression",
              "zstd",
              "--send-threads",
              "2",
              "--batch-size-bytes",
              "65536",
              "--total-size-bytes",
              "1048576",
              "--quiet",
              "--linger-ms",
              "100",
              "--delivery-timeout-ms",
              "1500",
              "--max-block-ms=500",
              "--request-timeout-ms",
              "700",
              "--max-attributes",
              "16",
              "--max-attribute-value-length=256"
            },
            1);
    assertEquals(1000, o.records());
    assertEquals(3, o.threads());
    ProducerConfig c = o.producerConfig().build();
    assertEquals(Compression.ZSTD, c.getCompression());
    assertEquals(2, c.getSendThreads());
    assertEquals(65536, c.getBatchSizeInBytes());
    assertEquals(1048576, c.getTotalSizeInBytes());
    assertEquals(100, c.getLingerMillis());
    assertEquals(1500, c.getDeliveryTimeoutMillis());
    assertEquals(500, c.getMaxBlockMillis());
    assertEquals(700, o.requestTimeoutMillis(10_000));
    assertEquals(16, c.getMaxAttributesPerRecord());
    assertEquals(256, c.getMaxAttributeValueLength());
    assertTrue(o.quiet());
  }

  @Test
  void defaultsAreTheLibrarys() {
    Options o = Options.parse(new String[0], 0);
    ProducerConfig c = o.producerConfig().build();
    ProducerConfig d = ProducerConfig.defaults();
    assertEquals(d.getDeliveryTimeoutMillis(), c.getDeliveryTimeoutMillis());
    assertEquals(d.getMaxBlockMillis(), c.getMaxBlockMillis());
    assertEquals(d.getLingerMillis(), c.getLingerMillis());
    assertEquals(d.getTotalSizeInBytes(), c.getTotalSizeInBytes());
    assertEquals(1234, o.requestTimeoutMillis(1234));
    assertFalse(o.quiet());
  }

  @Test
  void badInputIsNamed() {
    assertEquals(
        "--records must be a whole number, was 'lots'",
        message(() -> Options.parse(new String[] {"--records", "lots"}, 0).records()));
    assertEquals(
        "--threads must be in [1, 1024], was 0",
        message(() -> Options.parse(new String[] {"--threads", "0"}, 0).threads()));
    assertEquals(
        "unknown option --endpointt for 'otlp'",
        message(() -> Options.parse(new String[] {"--endpointt", "x"}, 0)));
    assertEquals(
        "unknown option --endpoint for 'gse'",
        message(
            () -> Options.parse(new String[] {"gse", "--endpoint", "x"}, 1, "gse", GSE_OPTIONS)));
    assertEquals(
        "expected an option like --records, got 'oops'",
        message(() -> Options.parse(new String[] {"oops"}, 0)));
    assertEquals(
        "expected an option like --records, got '-x'",
        message(() -> Options.parse(new String[] {"-x"}, 0)));
  }

  @Test
  void anOptionThatNeedsAValueSaysSoWhenItHasNone() {
    assertEquals(
        "--records needs a value (records to send in all)",
        message(() -> Options.parse(new String[] {"--records"}, 0)));
    assertEquals(
        "--records needs a value (records to send in all)",
        message(() -> Options.parse(new String[] {"--records", "--threads", "2"}, 0)));
    assertEquals(
        "--records needs a value (records to send in all)",
        message(() -> Options.parse(new String[] {"--records="}, 0)));
    assertEquals(
        "--socket needs a value (the agent's Unix-domain socket, e.g. /var/run/ipc.state.report)",
        message(
            () ->
                Options.parse(new String[] {"gse", "--quiet", "--socket"}, 1, "gse", GSE_OPTIONS)));
  }

  @Test
  void flagsTakeNoValue() {
    Options o = Options.parse(new String[] {"--quiet", "--records", "5"}, 0);
    assertTrue(o.quiet());
    assertEquals(5, o.records());
    assertEquals(
        "expected an option like --records, got '5'",
        message(() -> Options.parse(new String[] {"--quiet", "5"}, 0)));
    assertEquals(
        "--quiet takes no value (no progress lines)",
        message(() -> Options.parse(new String[] {"--quiet=yes"}, 0)));
  }

  @Test
  void helpGoesToStdoutWithExitCodeZeroWherever() throws Exception {
    for (String[] args :
        List.of(
            new String[] {"--help"},
            new String[] {"-h"},
            new String[] {"otlp", "--help"},
            new String[] {"gse", "-h"},
            new String[] {"--records", "5", "--help"},
            new String[] {"otlp", "--records", "--help"})) {
      Run run = run(args);
      assertEquals(0, run.code, String.join(" ", args));
      assertEquals("", run.err, String.join(" ", args));
      assertTrue(
          run.out.startsWith(
              "usage: java -jar logproducer-examples.jar ["
                  + String.join("|", Main.commands().keySet())
                  + "] [options]\n"),
          run.out);
      assertTrue(
          run.out.contains("\n  --delivery-timeout-ms MS   deliveryTimeoutMillis: "), run.out);
      assertTrue(run.out.contains("--request-timeout-ms (default 120000)\n"), run.out);
      assertTrue(
          run.out.contains("\n  --request-timeout-ms MS    the exporter's timeout per attempt: "),
          run.out);
      assertTrue(
          run.out.contains(
              "\n  --max-block-ms MS          maxBlockMillis: how long send() waits for buffer "
                  + "space before it refuses a record\n                             (default 60000)\n"),
          run.out);
      assertTrue(
          run.out.contains("delivered + failed + spooled + refused + not_sent = --records"),
          run.out);
      assertTrue(run.out.contains("\n  --quiet                    no progress lines\n"), run.out);
    }
    Run gse = run(new String[] {"gse", "--help"});
    assertTrue(gse.out.contains("\ngse: "), gse.out);
    assertFalse(gse.out.contains("\notlp: "), gse.out);
    assertTrue(run(new String[] {"--help"}).out.contains("\ngse: "));
  }

  @Test
  void usageErrorsGoToStderrWithExitCodeTwo() throws Exception {
    Run missing = run(new String[] {"otlp", "--records"});
    assertEquals(2, missing.code);
    assertEquals("", missing.out);
    assertTrue(
        missing.err.startsWith(
            "error: --records needs a value (records to send in all)\n\nusage: "),
        missing.err);

    Run unknown = run(new String[] {"--recrods", "5"});
    assertEquals(2, unknown.code);
    assertTrue(
        unknown.err.startsWith("error: unknown option --recrods for 'otlp'\n\nusage: "),
        unknown.err);

    Run command = run(new String[] {"nope"});
    assertEquals(2, command.code);
    assertTrue(command.err.startsWith("error: unknown sub-command 'nope'\n\nusage: "), command.err);
  }

  @Test
  void aDeliveryTimeoutTooSmallForTheRequestTimeoutIsOneErrorLine() throws Exception {
    Run run =
        run(
            new String[] {
              "otlp",
              "--endpoint",
              "http://127.0.0.1:9/v1/logs",
              "--records",
              "1",
              "--delivery-timeout-ms",
              "5000",
              "--request-timeout-ms",
              "10000"
            });
    assertEquals(2, run.code);
    assertEquals("", run.out);
    String first = run.err.substring(0, run.err.indexOf('\n'));
    assertTrue(
        first.startsWith(
            "error: deliveryTimeoutMillis (5000) must be at least lingerMillis (1000) + the "
                + "exporter's request timeout (10000 ms, "),
        first);
    assertTrue(run.err.startsWith(first + "\n\nusage: "), run.err);
    assertFalse(run.err.contains("\tat "), run.err);
  }

  /**
   * Producer settings the command line does not offer, on purpose (each sub-command sets its
   * clientId).
   */
  private static final Set<String> NOT_ON_THE_COMMAND_LINE =
      Set.of(
          "bufferFullPolicy",
          "batchCountThreshold",
          "retries",
          "initialRetryBackoffMillis",
          "maxRetryBackoffMillis",
          "clientId",
          "jmxEnabled",
          "shutdownHookEnabled",
          "shutdownHookTimeoutMillis");

  @Test
  void everyDeclaredProducerSettingIsAnOptionOrLeftOutOnPurpose() {
    Set<String> offered = new TreeSet<>();
    for (OptionSpec o : Options.COMMON) {
      if (o.setting() != null) {
        assertTrue(offered.add(o.setting().name()), "two options for " + o.setting().name());
      }
    }
    Set<String> all = new TreeSet<>(offered);
    all.addAll(NOT_ON_THE_COMMAND_LINE);
    assertEquals(
        new TreeSet<>(
            ProducerConfigDef.all().stream().map(ProducerConfigDef.Setting::name).toList()),
        all,
        "a new producer setting needs an option here or a place in NOT_ON_THE_COMMAND_LINE");
    assertEquals(
        offered.size() + NOT_ON_THE_COMMAND_LINE.size(),
        all.size(),
        "offered and left out overlap");
  }

  @Test
  void producerOptionsAreValidatedOnceByTheDeclaredSetting() {
    assertEquals(
        "--linger-ms: lingerMillis must be in [0, 3600000], was -1",
        message(() -> Options.parse(new String[] {"--linger-ms=-1"}, 0).producerConfig()));
    assertEquals(
        "--send-threads: sendThreads must be an integer (32 bits), was 'many'",
        message(() -> Options.parse(new String[] {"--send-threads", "many"}, 0).producerConfig()));
    assertEquals(
        "--compression: compression must be one of none, gzip, lz4, zstd, was 'snappy'",
        message(() -> Options.parse(new String[] {"--compression", "snappy"}, 0).producerConfig()));
    assertEquals(
        7,
        Options.parse(new String[] {"--compression-level", "7", "--compression", "gzip"}, 0)
            .producerConfig()
            .build()
            .getCompressionLevel());
    for (OptionSpec o : Options.COMMON) {
      if (o.setting() != null && o.setting().type() != ProducerConfigDef.Type.COMPRESSION) {
        assertEquals(
            o.setting().defaultText().split(" ", 2)[0],
            o.defaultValue(),
            o.name() + ": the declared default");
      }
    }
  }

  @Test
  void spoolOptionsBuildTheSpoolConfigAndBadValuesAreNamed() {
    io.logproducer.SpoolConfig spool =
        Options.parse(
                new String[] {
                  "--spool-dir",
                  "/tmp/q",
                  "--spool-max-bytes",
                  "16_777_216",
                  "--spool-segment-bytes",
                  "2097152",
                  "--spool-durability",
                  "every-batch",
                  "--spool-full-policy",
                  "BLOCK",
                  "--spool-max-block-ms",
                  "250",
                  "--spool-max-age-ms",
                  "60000",
                  "--spool-group-commit-ms",
                  "50"
                },
                0,
                "otlp",
                Options.SPOOL)
            .producerConfig()
            .build()
            .getSpool();
    assertEquals(java.nio.file.Paths.get("/tmp/q"), spool.getDirectory());
    assertEquals(16_777_216, spool.getMaxBytes());
    assertEquals(2_097_152, spool.getSegmentBytes());
    assertEquals(io.logproducer.SpoolDurability.EVERY_BATCH, spool.getDurability());
    assertEquals(io.logproducer.SpoolFullPolicy.BLOCK, spool.getFullPolicy());
    assertEquals(250, spool.getMaxBlockMillis());
    assertEquals(60_000, spool.getMaxAgeMillis());
    assertEquals(50, spool.getGroupCommitMillis());
    assertEquals(
        null, Options.parse(new String[] {}, 0).producerConfig().build().getSpool(), "off");

    assertEquals(
        "--spool-durability must be none|group-commit|every-batch, was 'sometimes'",
        message(() -> spoolOptions("--spool-durability", "sometimes").spoolConfig()));
    assertEquals(
        "--spool-full-policy must be block|drop-newest|drop-oldest, was 'drop'",
        message(() -> spoolOptions("--spool-full-policy", "drop").spoolConfig()));
    assertTrue(
        message(() -> spoolOptions("--spool-max-bytes", "1000000").spoolConfig())
            .startsWith("--spool-max-bytes: spool: maxBytes (1000000) must be at least "));
    assertEquals(
        "--spool-group-commit-ms: spool: groupCommitMillis must be 1..60000: 70000",
        message(() -> spoolOptions("--spool-group-commit-ms", "70000").spoolConfig()));
    assertEquals(
        "--records must be in [1, 4611686018427387903], was 0",
        message(() -> Options.parse(new String[] {"--records", "0"}, 0).records()));
    assertEquals(0, spoolOptions("--records", "0").records());
  }

  private static Options spoolOptions(String name, String value) {
    return Options.parse(
        new String[] {"--spool-dir", "/tmp/q", name, value}, 0, "otlp", Options.SPOOL);
  }

  private static String message(org.junit.jupiter.api.function.Executable e) {
    return assertThrows(IllegalArgumentException.class, e).getMessage();
  }

  private record Run(int code, String out, String err) {}

  /** Main.run with System.out and System.err captured. */
  static Run run(String[] args) throws Exception {
    PrintStream out = System.out;
    PrintStream err = System.err;
    ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
    ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
    int code;
    try {
      System.setOut(new PrintStream(outBytes, true, StandardCharsets.UTF_8));
      System.setErr(new PrintStream(errBytes, true, StandardCharsets.UTF_8));
      code = Main.run(args);
    } finally {
      System.setOut(out);
      System.setErr(err);
    }
    return new Run(
        code, outBytes.toString(StandardCharsets.UTF_8), errBytes.toString(StandardCharsets.UTF_8));
  }
}
