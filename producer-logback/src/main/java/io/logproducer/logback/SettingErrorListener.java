package io.logproducer.logback;

import ch.qos.logback.core.status.Status;
import ch.qos.logback.core.status.StatusListener;
import java.util.List;

/**
 * Collects logback configurator's failures to set a property of the appender or of its nested
 * settings, so that the appender refuses to start with them: values that could not be set, and
 * names of ours that do not exist (logback only warns: a misspelled {@code <endpoint>} would
 * silently send elsewhere). Thread-safe when {@code errors} is.
 */
final class SettingErrorListener implements StatusListener {

  private final List<String> errors;

  SettingErrorListener(List<String> errors) {
    this.errors = errors;
  }

  @Override
  public void addStatusEvent(Status status) {
    if (status == null || status.getLevel() < Status.WARN || status.getMessage() == null) {
      return;
    }
    String m = status.getMessage();
    if (m.startsWith("Failed to set property")
        || m.startsWith("No setter for property")
        || m.startsWith("Could not find an appropriate class for property")
        || (m.startsWith("Ignoring unknown property") && m.contains(" in [io.logproducer."))
        // logback 1.2's word for an unknown element (heard only while this appender is configured)
        || m.startsWith("no applicable action for [")) {
      Throwable root = status.getThrowable();
      String cause = null;
      while (root != null) {
        if (root.getMessage() != null
            && !(root instanceof java.lang.reflect.InvocationTargetException)) {
          cause = root.getMessage();
        }
        root = root.getCause();
      }
      errors.add(m.trim() + (cause != null ? " " + cause : ""));
    }
  }
}
