/**
 * The test kit: what users and this project's own tests need to test code that logs through a
 * {@link io.logproducer.Producer} — an in-memory exporter, outcome collectors, loopback receivers
 * and contract suites. Every class here is safe to use from several threads unless its Javadoc says
 * otherwise.
 */
package io.logproducer.testing;
