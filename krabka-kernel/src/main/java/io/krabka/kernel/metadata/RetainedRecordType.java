package io.krabka.kernel.metadata;

import java.util.Arrays;
import java.util.Optional;

/**
 * The record types of Kafka's {@code MetadataRecordType} (Kafka 4.3 and 4.4) that Krabka replays without applying,
 * with the newest version of each that Kafka writes: what a single node does not serve yet (broker and controller
 * registrations, delegation tokens, ELR clearing, the ZooKeeper migration state).
 * Each is kept in the metadata log as Kafka wrote it, so a Kafka that takes the directory back finds it.
 */
public enum RetainedRecordType {
    REGISTER_BROKER_RECORD(0, "RegisterBrokerRecord", 4),
    UNREGISTER_BROKER_RECORD(1, "UnregisterBrokerRecord", 0),
    FENCE_BROKER_RECORD(7, "FenceBrokerRecord", 0),
    UNFENCE_BROKER_RECORD(8, "UnfenceBrokerRecord", 0),
    DELEGATION_TOKEN_RECORD(10, "DelegationTokenRecord", 0),
    BROKER_REGISTRATION_CHANGE_RECORD(17, "BrokerRegistrationChangeRecord", 3),
    ZK_MIGRATION_STATE_RECORD(21, "ZkMigrationStateRecord", 0),
    REMOVE_DELEGATION_TOKEN_RECORD(26, "RemoveDelegationTokenRecord", 0),
    REGISTER_CONTROLLER_RECORD(27, "RegisterControllerRecord", 0),
    CLEAR_ELR_RECORD(28, "ClearElrRecord", 0),
    UNREGISTER_CONTROLLER_RECORD(29, "UnregisterControllerRecord", 0);

    private final short apiKey;
    private final String recordName;
    private final short highestVersion;

    RetainedRecordType(int apiKey, String recordName, int highestVersion) {
        this.apiKey = (short) apiKey;
        this.recordName = recordName;
        this.highestVersion = (short) highestVersion;
    }

    /** The type with this api key, if Krabka retains it. */
    public static Optional<RetainedRecordType> of(int apiKey) {
        return Arrays.stream(values()).filter(type -> type.apiKey == apiKey).findFirst();
    }

    /** The api key in the metadata log's frame. */
    public short apiKey() {
        return apiKey;
    }

    /** Kafka's name of the record type. */
    public String recordName() {
        return recordName;
    }

    /** The newest version Kafka writes. */
    public short highestVersion() {
        return highestVersion;
    }
}
