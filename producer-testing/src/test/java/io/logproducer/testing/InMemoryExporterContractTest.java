package io.logproducer.testing;

import io.logproducer.spi.ExportResult;
import io.logproducer.spi.Exporter;
import java.util.ArrayList;
import java.util.List;

/**
 * The exporter contract run against the kit's own exporter, so the suite itself is exercised in
 * this module.
 */
class InMemoryExporterContractTest extends ExporterContract {

  @Override
  protected Receiver startReceiver() {
    return new Receiver() {
      private final List<InMemoryExporter> exporters = new ArrayList<>();
      private volatile boolean refusing;
      private boolean stalled;

      @Override
      public Exporter newExporter() {
        InMemoryExporter e = InMemoryExporter.create();
        apply(e);
        exporters.add(e);
        return e;
      }

      private void apply(InMemoryExporter e) {
        e.respondWith(
            b -> refusing ? ExportResult.retryable("HTTP 503", null, -1) : ExportResult.success());
        if (stalled) {
          e.hold();
        } else {
          e.release();
        }
      }

      @Override
      public List<String> deliveredBodies() {
        List<String> all = new ArrayList<>();
        for (InMemoryExporter e : exporters) {
          all.addAll(e.bodies());
        }
        return all;
      }

      @Override
      public void stall() {
        stalled = true;
        exporters.forEach(this::apply);
      }

      @Override
      public void resume() {
        stalled = false;
        exporters.forEach(this::apply);
      }

      @Override
      public void refuse() {
        refusing = true;
      }

      @Override
      public void accept() {
        refusing = false;
      }

      @Override
      public void close() {
        exporters.forEach(InMemoryExporter::close);
      }
    };
  }
}
