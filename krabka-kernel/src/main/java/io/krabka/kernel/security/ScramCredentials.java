package io.krabka.kernel.security;

import java.util.Optional;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.common.security.scram.ScramCredential;

/** The SCRAM credentials the cluster's metadata holds ({@code UserScramCredentialRecord}), as SASL/SCRAM reads them. */
public interface ScramCredentials {

    /** The credential of {@code user} for {@code mechanism}, if the user has one. */
    Optional<ScramCredential> credential(String user, ScramMechanism mechanism);
}
