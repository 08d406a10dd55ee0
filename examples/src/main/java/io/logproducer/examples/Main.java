package io.logproducer.examples;

import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * The examples jar: {@code java -jar logproducer-examples.jar [otlp|…] [options]}, its command line
 * parsed by picocli. The default sub-command is {@code otlp}, the quick start: the reference
 * workload through the producer to an embedded OTLP/HTTP receiver, or to {@code --endpoint URL}.
 * {@code --help} (or {@code -h}) anywhere prints the usage to stdout; a usage error prints {@code
 * error: …} and the usage to stderr and exits with 2.
 */
@Command(
    name = "java -jar logproducer-examples.jar",
    customSynopsis = "java -jar logproducer-examples.jar [otlp|gse|kafka|logback|log4j2] [options]",
    subcommands = {
      OtlpCommand.class,
      io.logproducer.examples.gse.GseCommand.class,
      io.logproducer.examples.kafka.KafkaCommand.class,
      io.logproducer.examples.logback.LogbackCommand.class,
      io.logproducer.examples.log4j2.Log4j2Command.class
    },
    commandListHeading = "%ncommands (otlp when none is given):%n",
    optionListHeading = "%ncommon options (every command; the commands' own: COMMAND --help):%n",
    footerHeading = "%n",
    footer = Main.SUMMARY_USAGE)
public final class Main {

  /**
   * Exit code of a usage error (unknown sub-command or option, bad value, a configuration the
   * producer refuses).
   */
  static final int USAGE_ERROR = 2;

  /** How the final line accounts for every record: the end of every usage text. */
  public static final String SUMMARY_USAGE =
      """
      The last line (stdout) accounts for every record: delivered + failed + spooled + refused + not_sent = --records.
        delivered  the receiver accepted them
        failed     send() accepted them but they were not delivered (receiver unreachable or refusing them,
                   deliveryTimeoutMillis passed, ...)
        spooled    send() accepted them, they were not delivered yet, and they are stored in the --spool-dir
                   spool: the next run on that directory delivers them
        refused    send() did not accept them (no buffer space within --max-block-ms, record too large, ...)
        not_sent   never passed to send(): a thread stops at the first record refused for want of buffer
                   space, as waiting --max-block-ms for each further record would not help
      Exit code: 0 when every record was delivered (and the embedded receiver, agent or broker counted them all),
      1 when not, 2 for a usage error.
      With --records 0 --spool-dir DIR the otlp sub-command only drains DIR and prints drained=N: exit 0 once
      the spool is empty and every drained record was delivered, 1 if it is not within --drain-timeout-ms.""";

  /** The common options, listed in the top-level usage (the sub-commands parse their own). */
  @Mixin CommonOptions common;

  private Main() {}

  /**
   * Runs the examples jar.
   *
   * @param args {@code [otlp|gse|kafka|logback|log4j2] [options]}
   * @throws Exception what a sub-command threw other than {@link IllegalArgumentException} (a usage
   *     error: exit code 2)
   */
  public static void main(String[] args) throws Exception {
    System.exit(run(args));
  }

  /** The command line: {@link Main} and its sub-commands, with the examples' settings. */
  static CommandLine commandLine() {
    CommandLine cli = configure(new CommandLine(new Main()));
    cli.setParameterExceptionHandler(
        (e, args) -> {
          System.err.println("error: " + e.getMessage());
          CommandLine.UnmatchedArgumentException.printSuggestions(e, System.err);
          return usageError(e.getCommandLine());
        });
    cli.setExecutionExceptionHandler(
        (e, command, parsed) -> {
          if (!(e instanceof IllegalArgumentException)) {
            throw e;
          }
          System.err.println("error: " + e.getMessage());
          return usageError(command);
        });
    return cli;
  }

  static int run(String[] args) {
    CommandLine cli = commandLine();
    List<String> list = new ArrayList<>(List.of(args));
    if (list.contains("--help") || list.contains("-h")) {
      // anywhere, even where an option's value is due: the usage of the sub-command named, or all
      boolean named = !list.isEmpty() && cli.getSubcommands().containsKey(list.get(0));
      (named ? cli.getSubcommands().get(list.get(0)) : cli).usage(System.out);
      return 0;
    }
    if (list.isEmpty() || list.get(0).startsWith("-")) {
      list.add(0, "otlp"); // picocli has no default sub-command
    }
    return cli.execute(list.toArray(new String[0]));
  }

  /**
   * Parses {@code args} into {@code command}'s options, as the jar does, without running it (for
   * the tests: its {@code call()} then throws what the jar reports as a usage error).
   *
   * @param command a sub-command, e.g. {@code new GseCommand()}
   * @param args its options
   * @return {@code command}, its options set
   * @throws CommandLine.ParameterException for an unknown option or a value that does not convert
   */
  public static <T> T parse(T command, String... args) {
    configure(new CommandLine(command)).parseArgs(args);
    return command;
  }

  /** The numbers may hold {@code _} (1_000_000); the usage's layout. */
  private static CommandLine configure(CommandLine cli) {
    CommandLine.ITypeConverter<Long> longs =
        s -> {
          try {
            return Long.parseLong(s.replace("_", ""));
          } catch (NumberFormatException e) {
            throw new CommandLine.TypeConversionException("'" + s + "' is not a whole number");
          }
        };
    cli.registerConverter(Long.class, longs).registerConverter(long.class, longs);
    cli.setUsageHelpWidth(120).setUsageHelpLongOptionsMaxWidth(36);
    List<CommandLine> all = new ArrayList<>(List.of(cli));
    all.addAll(cli.getSubcommands().values());
    for (CommandLine c : all) {
      c.getCommandSpec()
          .usageMessage()
          .synopsisHeading("usage: ")
          .abbreviateSynopsis(true)
          .sortOptions(false);
      if (c != cli) {
        c.getCommandSpec()
            .usageMessage()
            .descriptionHeading("%n")
            .optionListHeading("%noptions (the common ones last):%n");
      }
    }
    return cli;
  }

  private static int usageError(CommandLine command) {
    System.err.println();
    command.usage(System.err);
    return USAGE_ERROR;
  }
}
