package io.krabka.kernel.restore.metadata;

import io.krabka.kernel.metadata.FeatureLevelRecord;
import java.util.Optional;

/**
 * The kinds of cluster metadata a KRaft snapshot holds that this version reads but does not restore, by the api
 * key of their records (Kafka's {@code metadata/src/main/resources/common/metadata/*.json}).
 */
enum UnrestoredMetadata {
    /** {@code AccessControlEntryRecord}. */
    ACCESS_CONTROL_ENTRIES(18, "access control entries (ACLs)"),
    /** {@code ClientQuotaRecord}: one per quota of one client entity. */
    CLIENT_QUOTAS(14, "client quotas"),
    /** {@code UserScramCredentialRecord}. */
    SCRAM_CREDENTIALS(11, "SCRAM credentials"),
    /** {@code DelegationTokenRecord}. */
    DELEGATION_TOKENS(10, "delegation tokens"),
    /** {@code FeatureLevelRecord}. */
    FEATURE_LEVELS(FeatureLevelRecord.API_KEY, "feature levels");

    private final int apiKey;
    private final String description;

    UnrestoredMetadata(int apiKey, String description) {
        this.apiKey = apiKey;
        this.description = description;
    }

    /** The kind whose records have {@code apiKey}, if it is one of these. */
    static Optional<UnrestoredMetadata> of(int apiKey) {
        for (UnrestoredMetadata kind : values()) {
            if (kind.apiKey == apiKey) {
                return Optional.of(kind);
            }
        }
        return Optional.empty();
    }

    /** What the report calls the kind. */
    String description() {
        return description;
    }
}
