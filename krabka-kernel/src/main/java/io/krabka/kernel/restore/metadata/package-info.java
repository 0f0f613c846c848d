/**
 * The restore's two metadata inputs: the old cluster's remote log metadata ({@code --rlmm-snapshot}), which tells
 * the archive's live segments from those the cluster deleted and names the legacy layout's topics, and its KRaft
 * cluster metadata snapshot ({@code --metadata-snapshot}), which checks the restored topics' ids and gives their
 * configs.
 */
package io.krabka.kernel.restore.metadata;
