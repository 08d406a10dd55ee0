package io.logproducer.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
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
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/** The command line: parsing, conversion, bounds, help and usage errors (exit code 2). */
@Timeout(60)
class OptionsTest {

  /** The otlp sub-command (the common and the spool options) with {@code args} parsed. */
  private static OtlpCommand parse(String... args) {
    return Main.parse(new OtlpCommand(), args);
  }

  @Test
  void parsesCommonOptionsIntoTheProducerConfig() {
    CommonOptions o =
        parse(
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
                "1_048_576",
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
                "--max-attribute-value-length=256")
            .common;
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
    assertEquals(700, o.requestTimeoutMillis().orElse(10_000));
    assertEquals(16, c.getMaxAttributesPerRecord());
    assertEquals(256, c.getMaxAttributeValueLength());
    assertTrue(o.quiet());
  }

  @Test
  void defaultsAreTheLibrarys() {
    CommonOptions o = parse().common;
    ProducerConfig c = o.producerConfig().build();
    ProducerConfig d = ProducerConfig.defaults();
    assertEquals(d.getDeliveryTimeoutMillis(), c.getDeliveryTimeoutMillis());
    assertEquals(d.getMaxBlockMillis(), c.getMaxBlockMillis());
    assertEquals(d.getLingerMillis(), c.getLingerMillis());
    assertEquals(d.getTotalSizeInBytes(), c.getTotalSizeInBytes());
    assertEquals(1234, o.requestTimeoutMillis().orElse(1234));
    assertEquals(1_000_000, o.records());
    assertEquals(10, o.threads());
    assertNull(o.compression());
    assertFalse(o.quiet());
  }

  @Test
  void badInputIsNamed() throws Exception {
    assertEquals(
        "Invalid value for option '--records': 'lots' is not a whole number",
        usageError("--records", "lots"));
    assertEquals(
        "--threads must be in [1, 1024], was 99999999999",
        message(() -> parse("--threads", "99_999_999_999").common.threads()));
    assertEquals(
        "--threads must be in [1, 1024], was 0",
        message(() -> parse("--threads", "0").common.threads()));
    assertEquals("Unknown options: '--endpointt', 'x'", usageError("--endpointt", "x"));
    assertEquals("Unknown options: '--endpoint', 'x'", usageError("gse", "--endpoint", "x"));
    assertEquals("Unmatched argument at index 1: 'oops'", usageError("otlp", "oops"));
    assertEquals("Unknown option: '-x'", usageError("-x"));
  }

  @Test
  void anOptionThatNeedsAValueSaysSoWhenItHasNone() throws Exception {
    assertEquals("Missing required parameter for option '--records' (N)", usageError("--records"));
    assertEquals(
        "Expected parameter for option '--records' but found '--threads'",
        usageError("--records", "--threads", "2"));
    assertEquals(
        "Invalid value for option '--records': '' is not a whole number", usageError("--records="));
    assertEquals(
        "Missing required parameter for option '--socket' (PATH)",
        usageError("gse", "--quiet", "--socket"));
  }

  @Test
  void flagsTakeNoValue() throws Exception {
    CommonOptions o = parse("--quiet", "--records", "5").common;
    assertTrue(o.quiet());
    assertEquals(5, o.records());
    assertEquals("Unmatched argument at index 2: '5'", usageError("--quiet", "5"));
    assertEquals(
        "Invalid value for option '--quiet': 'yes' is not a boolean", usageError("--quiet=yes"));
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
      assertTrue(run.out.startsWith("usage: java -jar logproducer-examples.jar "), run.out);
      assertTrue(
          run.out.contains(
              "\n      --delivery-timeout-ms=MS             deliveryTimeoutMillis: how long a record"
                  + " may take to be delivered, retries\n"
                  + "                                             included; at least --linger-ms plus --request-timeout-ms (default 120000)\n"),
          run.out);
      assertTrue(
          run.out.contains(
              "\n      --request-timeout-ms=MS              the exporter's timeout per attempt: "),
          run.out);
      assertTrue(
          run.out.contains(
              "\n      --max-block-ms=MS                    maxBlockMillis: how long send() waits for"
                  + " buffer space before it refuses a\n"
                  + "                                             record (default 60000)\n"),
          run.out);
      assertTrue(
          run.out.contains("delivered + failed + spooled + refused + not_sent = --records.\n"),
          run.out);
      assertTrue(
          run.out.contains("\n      --quiet                              no progress lines\n"),
          run.out);
    }
    Run all = run(new String[] {"--help"});
    assertTrue(
        all.out.startsWith(
            "usage: java -jar logproducer-examples.jar [otlp|gse|kafka|logback|log4j2] [options]\n"),
        all.out);
    for (String command : Main.commandLine().getSubcommands().keySet()) {
      assertTrue(all.out.contains("\n  " + command + " "), command + " listed:\n" + all.out);
    }
    Run gse = run(new String[] {"gse", "--help"});
    assertTrue(
        gse.out.startsWith("usage: java -jar logproducer-examples.jar gse [OPTIONS]\n"), gse.out);
    assertTrue(gse.out.contains("\n      --socket=PATH "), gse.out);
    assertTrue(gse.out.contains("\nwith neither --socket nor --tcp: "), gse.out);
    assertFalse(gse.out.contains("--endpoint"), gse.out);
    Run kafka = run(new String[] {"kafka", "--help"});
    assertTrue(
        kafka.out.contains(
            " with the topic created with "
                + io.logproducer.examples.kafka.KafkaCommand.EMBEDDED_PARTITIONS
                + " partitions; "),
        kafka.out);
    Run log4j2 = run(new String[] {"log4j2", "--help"});
    assertTrue(log4j2.out.contains(" fill its ${sys:lp.*} properties."), log4j2.out);
    assertTrue(log4j2.out.contains("\n      --buffer-full-policy=P "), log4j2.out);
  }

  @Test
  void usageErrorsGoToStderrWithExitCodeTwo() throws Exception {
    Run missing = run(new String[] {"otlp", "--records"});
    assertEquals(2, missing.code);
    assertEquals("", missing.out);
    assertTrue(
        missing.err.startsWith(
            "error: Missing required parameter for option '--records' (N)\n\n"
                + "usage: java -jar logproducer-examples.jar otlp [OPTIONS]\n"),
        missing.err);

    Run unknown = run(new String[] {"--recrods", "5"});
    assertEquals(2, unknown.code);
    assertTrue(
        unknown.err.startsWith(
            "error: Unknown options: '--recrods', '5'\n"
                + "Possible solutions: --records, --request-timeout-ms\n\n"
                + "usage: java -jar logproducer-examples.jar otlp "),
        unknown.err);

    Run command = run(new String[] {"nope"});
    assertEquals(2, command.code);
    assertTrue(
        command.err.startsWith(
            "error: Unmatched argument at index 0: 'nope'\n\nusage: java -jar"
                + " logproducer-examples.jar [otlp|gse|kafka|logback|log4j2] [options]\n"),
        command.err);
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
    CommandSpec common = new CommandLine(new OtlpCommand()).getCommandSpec();
    CommonOptions.SETTINGS.forEach(
        (option, setting) -> {
          assertTrue(offered.add(setting.name()), "two options for " + setting.name());
          assertNotNull(common.findOption(option), option);
        });
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
  void producerOptionsAreValidatedOnceByTheDeclaredSetting() throws Exception {
    assertEquals(
        "--linger-ms: lingerMillis must be in [0, 3600000], was -1",
        message(() -> parse("--linger-ms=-1").common.producerConfig()));
    assertEquals(
        "--linger-ms: lingerMillis must be in [0, 3600000], was -1",
        usageError("--linger-ms", "-1", "--records", "1"));
    assertEquals(
        "--send-threads: sendThreads must be an integer (32 bits), was 'many'",
        message(() -> parse("--send-threads", "many").common.producerConfig()));
    assertEquals(
        "--compression: compression must be one of none, gzip, lz4, zstd, was 'snappy'",
        message(() -> parse("--compression", "snappy").common.producerConfig()));
    assertEquals(
        7,
        parse("--compression-level", "7", "--compression", "gzip")
            .common
            .producerConfig()
            .build()
            .getCompressionLevel());
    CommandSpec spec = new CommandLine(new OtlpCommand()).getCommandSpec();
    CommonOptions.SETTINGS.forEach(
        (option, setting) -> {
          if (setting.type() != ProducerConfigDef.Type.COMPRESSION) {
            String description = String.join(" ", spec.findOption(option).description());
            assertTrue(
                description.endsWith(" (default " + setting.defaultText().split(" ", 2)[0] + ")"),
                option + ": the declared default, in " + description);
          }
        });
  }

  @Test
  void spoolOptionsBuildTheSpoolConfigAndBadValuesAreNamed() {
    io.logproducer.SpoolConfig spool =
        parse(
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
                "50")
            .spool
            .config();
    assertEquals(java.nio.file.Paths.get("/tmp/q"), spool.getDirectory());
    assertEquals(16_777_216, spool.getMaxBytes());
    assertEquals(2_097_152, spool.getSegmentBytes());
    assertEquals(io.logproducer.SpoolDurability.EVERY_BATCH, spool.getDurability());
    assertEquals(io.logproducer.SpoolFullPolicy.BLOCK, spool.getFullPolicy());
    assertEquals(250, spool.getMaxBlockMillis());
    assertEquals(60_000, spool.getMaxAgeMillis());
    assertEquals(50, spool.getGroupCommitMillis());
    assertNull(parse().spool.config(), "off");

    assertEquals(
        "--spool-durability must be none|group-commit|every-batch, was 'sometimes'",
        message(() -> spoolOptions("--spool-durability", "sometimes").spool.config()));
    assertEquals(
        "--spool-full-policy must be block|drop-newest|drop-oldest, was 'drop'",
        message(() -> spoolOptions("--spool-full-policy", "drop").spool.config()));
    assertTrue(
        message(() -> spoolOptions("--spool-max-bytes", "1000000").spool.config())
            .startsWith("--spool-max-bytes: spool: maxBytes (1000000) must be at least "));
    assertEquals(
        "--spool-group-commit-ms: spool: groupCommitMillis must be 1..60000: 70000",
        message(() -> spoolOptions("--spool-group-commit-ms", "70000").spool.config()));
    assertEquals(
        "--records must be in [1, 4611686018427387903], was 0",
        message(() -> parse("--records", "0").common.records(parse("--records", "0").spool.on())));
    OtlpCommand drain = spoolOptions("--records", "0");
    assertEquals(0, drain.common.records(drain.spool.on()));
  }

  private static OtlpCommand spoolOptions(String name, String value) {
    return parse("--spool-dir", "/tmp/q", name, value);
  }

  /**
   * Runs the jar's command line, expecting a usage error: exit code 2, nothing on stdout.
   *
   * @return the error's message (the first line on stderr, after {@code error: })
   */
  private static String usageError(String... args) throws Exception {
    Run run = run(args);
    assertEquals(2, run.code, run.err);
    assertEquals("", run.out);
    assertTrue(run.err.startsWith("error: "), run.err);
    assertTrue(run.err.contains("\nusage: java -jar logproducer-examples.jar "), run.err);
    return run.err.substring("error: ".length(), run.err.indexOf('\n'));
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
