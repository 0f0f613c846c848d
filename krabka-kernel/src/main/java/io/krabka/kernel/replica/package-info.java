/**
 * Partitions and the replica manager: produce into and fetch from the local logs, fetches waiting in the
 * purgatory, and the reads that go to the remote tier.
 */
package io.krabka.kernel.replica;
