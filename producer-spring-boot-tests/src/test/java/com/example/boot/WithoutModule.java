package com.example.boot;

import io.logproducer.spring.boot.autoconfigure.InvalidPropertyException;
import io.logproducer.spring.boot.autoconfigure.LogproducerFailureAnalyzer;
import java.io.File;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.regex.Pattern;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Starts the sample application on the test's class path without one of logproducer's modules, as
 * an application that does not declare it: a class loader of its own over the class path's entries
 * minus that module's (its reactor directory or jar), whose parent is the platform class loader.
 * Spring Boot, the logging system and the starter are loaded again in it: the application is
 * isolated from the test's.
 */
final class WithoutModule {

  private WithoutModule() {}

  /**
   * Starts the application, expecting it to fail, in a class path without {@code artifactId}.
   *
   * @return what the start threw, as {@link #describe(List)} gives it
   */
  static String[] start(String artifactId, List<String> properties) throws Exception {
    List<URL> urls = new ArrayList<>();
    Pattern jar = Pattern.compile(Pattern.quote(artifactId) + "-[0-9].*\\.jar");
    int hidden = 0;
    for (String entry : classPath()) {
      File f = new File(entry);
      String path = f.getAbsolutePath().replace(File.separatorChar, '/');
      if (path.contains("/" + artifactId + "/target/") || jar.matcher(f.getName()).matches()) {
        hidden++;
        continue;
      }
      urls.add(f.toURI().toURL());
    }
    if (hidden == 0) {
      throw new IllegalStateException(artifactId + " is not on the class path: " + classPath());
    }
    AtomicReference<Object> result = new AtomicReference<>();
    AtomicReference<Throwable> error = new AtomicReference<>();
    try (URLClassLoader loader =
        new URLClassLoader(urls.toArray(new URL[0]), ClassLoader.getPlatformClassLoader())) {
      Thread t =
          new Thread(
              () -> {
                try {
                  java.lang.reflect.Method describe =
                      Class.forName(WithoutModule.class.getName(), true, loader)
                          .getMethod("describe", List.class);
                  describe.setAccessible(true); // a package-private class of the other loader
                  result.set(describe.invoke(null, properties));
                } catch (Throwable e) {
                  error.set(e);
                }
              },
              "without-" + artifactId);
      t.setContextClassLoader(loader);
      t.start();
      t.join();
    }
    if (error.get() != null) {
      throw new AssertionError("the isolated start failed unexpectedly", error.get());
    }
    return (String[]) result.get();
  }

  /**
   * Runs in the isolated class loader: starts the application and describes its failure.
   *
   * @return the failure's class, the {@link InvalidPropertyException}'s property and message (or
   *     null), Spring Boot's failure analysis by the starter's analyzer (description and action),
   *     and whether {@code io.logproducer.otlp.OtlpHttpExporter}, {@code
   *     io.logproducer.gse.GseExporter} and {@code io.logproducer.kafka.KafkaExporter} can be
   *     loaded here
   */
  public static String[] describe(List<String> properties) {
    Throwable thrown = null;
    try {
      Apps.start(properties).close();
    } catch (Throwable t) {
      thrown = t;
    }
    InvalidPropertyException cause = null;
    for (Throwable t = thrown; t != null; t = t.getCause()) {
      if (t instanceof InvalidPropertyException) {
        cause = (InvalidPropertyException) t;
      }
    }
    FailureAnalysis analysis =
        thrown == null ? null : new LogproducerFailureAnalyzer().analyze(thrown);
    return new String[] {
      thrown == null ? null : thrown.getClass().getName(),
      cause == null ? null : cause.getProperty(),
      cause == null ? null : cause.getMessage(),
      analysis == null ? null : analysis.getDescription(),
      analysis == null ? null : analysis.getAction(),
      Boolean.toString(present("io.logproducer.otlp.OtlpHttpExporter")),
      Boolean.toString(present("io.logproducer.gse.GseExporter")),
      Boolean.toString(present("io.logproducer.kafka.KafkaExporter"))
    };
  }

  private static boolean present(String className) {
    try {
      Class.forName(className, false, WithoutModule.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }

  /**
   * The test class path: Surefire's {@code surefire.test.class.path}, else {@code java.class.path},
   * with a manifest-only jar's {@code Class-Path} expanded.
   */
  private static List<String> classPath() throws IOException {
    String cp = System.getProperty("surefire.test.class.path");
    if (cp == null || cp.isEmpty()) {
      cp = System.getProperty("java.class.path");
    }
    List<String> entries = new ArrayList<>();
    for (String e : cp.split(Pattern.quote(File.pathSeparator))) {
      if (e.isEmpty()) {
        continue;
      }
      File f = new File(e);
      Manifest manifest = null;
      if (f.isFile() && f.getName().endsWith(".jar")) {
        try (JarFile jf = new JarFile(f)) {
          manifest = jf.getManifest();
        }
      }
      String inner = manifest == null ? null : manifest.getMainAttributes().getValue("Class-Path");
      if (inner != null && f.getName().startsWith("surefirebooter")) {
        for (String u : inner.trim().split("\\s+")) {
          entries.add(new File(f.toURI().resolve(u)).getPath());
        }
      } else {
        entries.add(e);
      }
    }
    return entries;
  }
}
