package io.logproducer.examples;

import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The examples jar: {@code java -jar logproducer-examples.jar [otlp|…] [options]}. The default
 * sub-command is {@code otlp}, the quick start: the reference workload through the producer to an
 * embedded OTLP/HTTP receiver, or to {@code --endpoint URL}. {@code --help} (or {@code -h})
 * anywhere prints the usage to stdout; a usage error prints {@code error: …} and the usage to
 * stderr and exits with 2.
 */
public final class Main {

  /**
   * Exit code of a usage error (unknown sub-command or option, bad value, a configuration the
   * producer refuses).
   */
  static final int USAGE_ERROR = 2;

  private Main() {}

  static Map<String, Command> commands() {
    Map<String, Command> commands = new LinkedHashMap<>();
    for (Command c :
        new Command[] {
          new OtlpCommand(),
          new io.logproducer.examples.gse.GseCommand(),
          new io.logproducer.examples.kafka.KafkaCommand(),
          new io.logproducer.examples.logback.LogbackCommand(),
          new io.logproducer.examples.log4j2.Log4j2Command()
        }) {
      commands.put(c.name(), c);
    }
    return commands;
  }

  public static void main(String[] args) throws Exception {
    System.exit(run(args));
  }

  static int run(String[] args) throws Exception {
    Map<String, Command> commands = commands();
    int from = 0;
    Command command = commands.get("otlp");
    boolean named = args.length > 0 && !args[0].startsWith("-");
    if (named) {
      command = commands.get(args[0]);
      from = 1;
    }
    if (List.of(args).contains("--help") || List.of(args).contains("-h")) {
      usage(System.out, commands, named && command != null ? command : null);
      return 0;
    }
    if (command == null) {
      System.err.println("error: unknown sub-command '" + args[0] + "'\n");
      usage(System.err, commands, null);
      return USAGE_ERROR;
    }
    try {
      Options options = Options.parse(args, from, command.name(), command.options());
      return command.run(options);
    } catch (IllegalArgumentException e) {
      System.err.println("error: " + e.getMessage() + "\n");
      usage(System.err, commands, named ? command : null);
      return USAGE_ERROR;
    }
  }

  /** The usage: of {@code only} when given, else of every sub-command; then the common options. */
  private static void usage(PrintStream out, Map<String, Command> commands, Command only) {
    out.println(
        "usage: java -jar logproducer-examples.jar ["
            + String.join("|", commands.keySet())
            + "] [options]\n");
    for (Command c : commands.values()) {
      if (only != null && c != only) {
        continue;
      }
      out.println(c.name() + ": " + c.summary());
      for (OptionSpec o : c.options()) {
        out.println(o.usageLine());
      }
      for (String line : c.notes()) {
        out.println("  " + line);
      }
      out.println();
    }
    out.println("common options:");
    for (OptionSpec o : Options.COMMON) {
      out.println(o.usageLine());
    }
    out.println("  --help, -h                 this text\n");
    out.println(Options.SUMMARY_USAGE);
  }
}
