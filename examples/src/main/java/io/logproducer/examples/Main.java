package io.logproducer.examples;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The examples jar: {@code java -jar logproducer-examples.jar [otlp|…] [options]}. The default sub-command is
 * {@code otlp}, the quick start: the reference workload through the producer to an embedded OTLP/HTTP receiver,
 * or to {@code --endpoint URL}.
 */
public final class Main {

  private Main() {
  }

  static Map<String, Command> commands() {
    Map<String, Command> commands = new LinkedHashMap<>();
    for (Command c : new Command[] {new OtlpCommand(), new io.logproducer.examples.gse.GseCommand()}) {
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
    if (args.length > 0 && !args[0].startsWith("--")) {
      command = commands.get(args[0]);
      from = 1;
      if (command == null) {
        System.err.println("unknown sub-command '" + args[0] + "'\n");
        usage(commands);
        return 2;
      }
    }
    if (args.length > from && (args[from].equals("--help") || args[from].equals("-h"))) {
      usage(commands);
      return 0;
    }
    try {
      Options options = Options.parse(args, from);
      return command.run(options);
    } catch (IllegalArgumentException e) {
      System.err.println("error: " + e.getMessage() + "\n");
      usage(commands);
      return 2;
    }
  }

  private static void usage(Map<String, Command> commands) {
    System.err.println("usage: java -jar logproducer-examples.jar [" + String.join("|", commands.keySet())
        + "] [options]\n");
    for (Command c : commands.values()) {
      System.err.println(c.name() + ": " + c.usage() + "\n");
    }
    System.err.println("common options:\n" + Options.COMMON_USAGE);
  }
}
