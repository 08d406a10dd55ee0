package io.logproducer.logback;

import ch.qos.logback.classic.spi.ILoggingEvent;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import org.slf4j.Marker;

/**
 * The marker names of a logback 1.2 event, which carries at most one marker ({@code getMarker()}):
 * slf4j 1.7 code attaches several markers to a call by making the others references of that one
 * ({@code marker.add(other)}). Names are its own, then its references' in their order, each name
 * once (one level: references of references are not followed, so a cycle ends there). Stateless and
 * thread-safe.
 */
final class Logback12Markers {

  private Logback12Markers() {}

  /**
   * The names of the event's marker and of the markers it references.
   *
   * @param event the event ({@code getMarker()} exists in logback 1.2 and later)
   * @return the names in order, empty for none; never null
   */
  static List<String> markerNames(ILoggingEvent event) {
    Marker marker = event.getMarker();
    if (marker == null) {
      return Collections.emptyList();
    }
    if (!marker.hasReferences()) {
      return Collections.singletonList(marker.getName());
    }
    List<String> names = new ArrayList<String>(4);
    names.add(marker.getName());
    for (Iterator<Marker> it = marker.iterator(); it.hasNext(); ) {
      Marker reference = it.next();
      if (reference != null && !names.contains(reference.getName())) {
        names.add(reference.getName());
      }
    }
    return names;
  }
}
