package io.logproducer.gse;

import io.logproducer.spi.Exporter;
import io.logproducer.testing.ExporterContract;
import io.logproducer.testing.gse.GseAgent;
import io.logproducer.testing.gse.GseFrame;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The exporter contract for GSE, against the strict test agent on a real Unix-domain socket. */
class GseExporterContractTest extends ExporterContract {

  @Override
  protected Receiver startReceiver() throws Exception {
    Path dir = Files.createTempDirectory("gse-contract");
    GseAgent agent = GseAgent.unix(dir.resolve("gse.sock"));
    return new Receiver() {
      private boolean down;

      @Override
      public Exporter newExporter() {
        return GseExporter.builder()
            .setUnixSocketPath(agent.socketPath().toString())
            .setDataId(1500001)
            .build();
      }

      @Override
      public List<String> deliveredBodies() {
        List<String> bodies = new ArrayList<>();
        for (GseFrame f : agent.frames()) {
          for (String data : f.data()) {
            bodies.add(Support.inner(data).get("body").getAsString());
          }
        }
        return bodies;
      }

      @Override
      public void stall() {
        agent.pauseReading();
      }

      @Override
      public void resume() {
        agent.resumeReading();
      }

      @Override
      public void refuse() {
        down = true;
        agent.kill();
      }

      @Override
      public void accept() {
        if (down) {
          down = false;
          try {
            agent.start();
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        }
      }

      @Override
      public void close() {
        agent.close();
      }
    };
  }
}
