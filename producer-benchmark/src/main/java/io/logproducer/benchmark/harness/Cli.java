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
    if (CommandLine.printHelpIfRequested(
        new CommandLine(command).setExpandAtFiles(false).parseArgs(args))) {
      System.exit(0);
    }
    return command;
  }
}
