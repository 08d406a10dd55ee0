package io.logproducer.benchmark.harness;

import picocli.CommandLine;

/** The command-line parsing of the module's main classes (picocli). */
public final class Cli {

  private Cli() {}

  /**
   * Fills {@code command}'s {@code @Option} fields from {@code args}; prints the generated usage
   * and exits for {@code --help} (and the version for {@code --version}). Values are taken as they
   * are: {@code @file} arguments are not expanded (labels and paths pass through to child JVMs).
   *
   * @return {@code command}
   * @throws CommandLine.ParameterException for an unknown option or a value that does not parse
   */
  public static <T> T parse(T command, String... args) {
    return parse(new CommandLine(command), command, args);
  }

  /**
   * {@link #parse(Object, String...)} for options shared by several main classes: the usage names
   * {@code commandName} (the main class's simple name) instead of picocli's {@code <main class>}.
   *
   * @return {@code command}
   * @throws CommandLine.ParameterException for an unknown option or a value that does not parse
   */
  public static <T> T parse(String commandName, T command, String... args) {
    return parse(new CommandLine(command).setCommandName(commandName), command, args);
  }

  private static <T> T parse(CommandLine line, T command, String... args) {
    if (CommandLine.printHelpIfRequested(line.setExpandAtFiles(false).parseArgs(args))) {
      System.exit(0);
    }
    return command;
  }
}
