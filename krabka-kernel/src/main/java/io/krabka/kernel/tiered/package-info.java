/**
 * KIP-405 tiered storage: the remote log manager (copies, remote retention, deletion), reads of remote segments
 * for fetches and the remote index cache, over the RemoteStorageManager and RemoteLogMetadataManager plugins.
 */
package io.krabka.kernel.tiered;
