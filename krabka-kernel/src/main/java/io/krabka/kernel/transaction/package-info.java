/**
 * The transaction coordinator: transactional ids and their producer ids and epochs, the state of each transaction
 * in {@code __transaction_state} (Kafka's record format), and the ending of transactions by markers written to every
 * partition they touched; the fencing of old producers, the abort of timed-out transactions and the expiry of
 * transactional ids.
 */
package io.krabka.kernel.transaction;
