package io.krabka.kernel.security;

import io.krabka.kernel.metadata.MetadataImage;
import io.krabka.kernel.metadata.ScramCredentialData;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.common.security.scram.ScramCredential;

/** The SCRAM credentials of the current metadata image: what AlterUserScramCredentials and the format tool wrote. */
public final class MetadataScramCredentials implements ScramCredentials {

    private final Supplier<MetadataImage> metadata;

    /** Credentials read from {@code metadata} at each call. */
    public MetadataScramCredentials(Supplier<MetadataImage> metadata) {
        this.metadata = Objects.requireNonNull(metadata, "metadata");
    }

    @Override
    public Optional<ScramCredential> credential(String user, ScramMechanism mechanism) {
        return metadata.get().scram().credential(user, mechanism).map(ScramCredentialData::toCredential);
    }
}
