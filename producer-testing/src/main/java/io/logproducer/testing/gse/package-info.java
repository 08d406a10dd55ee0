/**
 * A BlueKing GSE agent's local data socket for tests: {@link io.logproducer.testing.gse.GseAgent}
 * receives, checks and records (or counts) the frames a GSE client writes, with scripted faults.
 */
package io.logproducer.testing.gse;
