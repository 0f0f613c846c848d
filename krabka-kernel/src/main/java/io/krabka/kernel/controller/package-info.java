/**
 * The single-node KRaft controller: the metadata log {@code __cluster_metadata-0}, topic creation, deletion and
 * configuration, replica placement, producer id blocks, and the records a startup replays.
 */
package io.krabka.kernel.controller;
