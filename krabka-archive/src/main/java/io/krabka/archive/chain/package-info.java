/**
 * The chain receipt a segment's KIP-405 custom metadata carries ({@link io.krabka.archive.chain.WormChainRecord})
 * and where a partition's next manifest goes ({@link io.krabka.archive.chain.NextChainStamp}).
 */
package io.krabka.archive.chain;
