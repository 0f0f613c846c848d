/**
 * Incremental fetch sessions (KIP-227): the session cache and the context a Fetch request is served in. A leaf.
 */
package io.krabka.kernel.fetch;
