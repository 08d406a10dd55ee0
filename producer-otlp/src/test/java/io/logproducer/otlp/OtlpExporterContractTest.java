package io.logproducer.otlp;

import io.logproducer.spi.Exporter;
import io.logproducer.testing.ExporterContract;
import io.logproducer.testing.otlp.OtlpReceiver;
import io.logproducer.testing.otlp.Reply;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/** The exporter contract for OTLP/HTTP, against a real HTTP server on 127.0.0.1. */
class OtlpExporterContractTest extends ExporterContract {

  @Override
  protected Receiver startReceiver() throws Exception {
    OtlpReceiver server = OtlpReceiver.start();
    return new Receiver() {
      private volatile CountDownLatch hold;

      @Override
      public Exporter newExporter() {
        return OtlpHttpExporter.builder()
            .setEndpoint(server.endpoint())
            .setTimeoutMillis(30_000)
            .build();
      }

      @Override
      public List<String> deliveredBodies() {
        return server.deliveredBodies();
      }

      @Override
      public void stall() {
        CountDownLatch latch = new CountDownLatch(1);
        hold = latch;
        server.respond(r -> Reply.ok(r).heldBy(latch));
      }

      @Override
      public void resume() {
        CountDownLatch latch = hold;
        server.respond(Reply::ok);
        if (latch != null) {
          latch.countDown();
        }
      }

      @Override
      public void refuse() {
        server.respond(r -> Reply.status(503));
      }

      @Override
      public void accept() {
        server.respond(Reply::ok);
      }

      @Override
      public void close() {
        server.close();
      }
    };
  }
}
