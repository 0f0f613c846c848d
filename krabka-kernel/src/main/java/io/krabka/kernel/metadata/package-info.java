/**
 * The cluster metadata: KRaft's metadata records and their serde, the image they build (topics, partitions,
 * configs, features) and the deltas the publishers receive.
 */
package io.krabka.kernel.metadata;
