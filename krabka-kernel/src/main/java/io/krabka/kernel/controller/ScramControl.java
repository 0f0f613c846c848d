package io.krabka.kernel.controller;

import io.krabka.kernel.metadata.MetadataImage;
import io.krabka.kernel.metadata.MetadataRecordAndVersion;
import io.krabka.kernel.metadata.MetadataVersion;
import io.krabka.kernel.metadata.RemoveUserScramCredentialRecord;
import io.krabka.kernel.metadata.ScramCredentialData;
import io.krabka.kernel.metadata.UserScramCredentialRecord;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.common.message.AlterUserScramCredentialsRequestData;
import org.apache.kafka.common.message.AlterUserScramCredentialsRequestData.ScramCredentialDeletion;
import org.apache.kafka.common.message.AlterUserScramCredentialsRequestData.ScramCredentialUpsertion;
import org.apache.kafka.common.message.AlterUserScramCredentialsResponseData;
import org.apache.kafka.common.message.AlterUserScramCredentialsResponseData.AlterUserScramCredentialsResult;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.ApiError;
import org.apache.kafka.common.security.scram.internals.ScramFormatter;

/**
 * Sets and removes users' SCRAM credentials as Kafka's {@code ScramControlManager} does. A user named twice in one
 * request (two deletions, two upsertions, or one of each) fails with DUPLICATE_RESOURCE; an empty name or iterations
 * outside 4096..16384 with UNACCEPTABLE_CREDENTIAL; an unknown mechanism with UNSUPPORTED_SASL_MECHANISM; deleting a
 * credential the user does not have with RESOURCE_NOT_FOUND; a metadata.version before 3.5-IV2 with
 * UNSUPPORTED_VERSION. The client sends the salted password; the server keeps only the stored and server keys it
 * derives from it (kafka-clients' {@code ScramFormatter}, in an internals package of the pinned version, does the
 * arithmetic), never the password.
 */
final class ScramControl {

    /** Kafka's {@code ScramMechanism} minimum, for both SHA-256 and SHA-512. */
    static final int MIN_ITERATIONS = 4096;
    /** Kafka's {@code ScramControlManager.MAX_ITERATIONS}. */
    static final int MAX_ITERATIONS = 16384;

    private static final String TWICE = "A user credential cannot be altered twice in the same request";

    private ScramControl() {}

    static ControllerResult<AlterUserScramCredentialsResponseData> alterUserScramCredentials(
            MetadataImage image, AlterUserScramCredentialsRequestData request) {
        boolean supported = AclControl.metadataVersion(image).compareTo(MetadataVersion.IBP_3_5_IV2) >= 0;
        Map<String, ScramCredentialDeletion> deletions = new LinkedHashMap<>();
        Map<String, ScramCredentialUpsertion> upsertions = new LinkedHashMap<>();
        Map<String, ApiError> errors = new LinkedHashMap<>();
        for (ScramCredentialDeletion deletion : request.deletions()) {
            if (errors.containsKey(deletion.name())) {
                continue;
            }
            if (deletions.remove(deletion.name()) != null) {
                errors.put(deletion.name(), new ApiError(Errors.DUPLICATE_RESOURCE, TWICE));
            } else {
                ApiError error = supported ? validateDeletion(image, deletion) : unsupported();
                if (error.isFailure()) {
                    errors.put(deletion.name(), error);
                } else {
                    deletions.put(deletion.name(), deletion);
                }
            }
        }
        for (ScramCredentialUpsertion upsertion : request.upsertions()) {
            if (errors.containsKey(upsertion.name())) {
                continue;
            }
            if (deletions.remove(upsertion.name()) != null || upsertions.remove(upsertion.name()) != null) {
                errors.put(upsertion.name(), new ApiError(Errors.DUPLICATE_RESOURCE, TWICE));
            } else {
                ApiError error = supported ? validateUpsertion(upsertion) : unsupported();
                if (error.isFailure()) {
                    errors.put(upsertion.name(), error);
                } else {
                    upsertions.put(upsertion.name(), upsertion);
                }
            }
        }
        AlterUserScramCredentialsResponseData response = new AlterUserScramCredentialsResponseData();
        List<MetadataRecordAndVersion> records = new ArrayList<>();
        for (ScramCredentialDeletion deletion : deletions.values()) {
            response.results().add(result(deletion.name(), ApiError.NONE));
            records.add(new MetadataRecordAndVersion(
                    new RemoveUserScramCredentialRecord(deletion.name(), deletion.mechanism()), (short) 0));
        }
        for (ScramCredentialUpsertion upsertion : upsertions.values()) {
            try {
                records.add(new MetadataRecordAndVersion(credentialRecord(upsertion), (short) 0));
                response.results().add(result(upsertion.name(), ApiError.NONE));
            } catch (GeneralSecurityException | RuntimeException e) {
                errors.put(upsertion.name(), ApiError.fromThrowable(e));
            }
        }
        errors.forEach((user, error) -> response.results().add(result(user, error)));
        return new ControllerResult<>(records, response);
    }

    private static UserScramCredentialRecord credentialRecord(ScramCredentialUpsertion upsertion)
            throws GeneralSecurityException {
        ScramFormatter formatter = new ScramFormatter(internal(ScramMechanism.fromType(upsertion.mechanism())));
        byte[] saltedPassword = upsertion.saltedPassword();
        return new UserScramCredentialRecord(
                upsertion.name(),
                upsertion.mechanism(),
                new ScramCredentialData(
                        upsertion.salt(),
                        formatter.storedKey(formatter.clientKey(saltedPassword)),
                        formatter.serverKey(saltedPassword),
                        upsertion.iterations()));
    }

    static org.apache.kafka.common.security.scram.internals.ScramMechanism internal(ScramMechanism mechanism) {
        return org.apache.kafka.common.security.scram.internals.ScramMechanism.forMechanismName(
                mechanism.mechanismName());
    }

    private static ApiError validateUpsertion(ScramCredentialUpsertion upsertion) {
        ApiError error = validateNameAndMechanism(upsertion.name(), upsertion.mechanism());
        if (error.isFailure()) {
            return error;
        }
        if (upsertion.iterations() < MIN_ITERATIONS) {
            return new ApiError(Errors.UNACCEPTABLE_CREDENTIAL, "Too few iterations");
        } else if (upsertion.iterations() > MAX_ITERATIONS) {
            return new ApiError(Errors.UNACCEPTABLE_CREDENTIAL, "Too many iterations");
        }
        return ApiError.NONE;
    }

    private static ApiError validateDeletion(MetadataImage image, ScramCredentialDeletion deletion) {
        ApiError error = validateNameAndMechanism(deletion.name(), deletion.mechanism());
        if (error.isFailure()) {
            return error;
        }
        if (image.scram()
                .credential(deletion.name(), ScramMechanism.fromType(deletion.mechanism()))
                .isEmpty()) {
            return new ApiError(Errors.RESOURCE_NOT_FOUND, "Attempt to delete a user credential that does not exist");
        }
        return ApiError.NONE;
    }

    private static ApiError validateNameAndMechanism(String name, byte mechanism) {
        if (name.isEmpty()) {
            return new ApiError(Errors.UNACCEPTABLE_CREDENTIAL, "Username must not be empty");
        }
        if (ScramMechanism.fromType(mechanism) == ScramMechanism.UNKNOWN) {
            return new ApiError(Errors.UNSUPPORTED_SASL_MECHANISM, "Unknown SCRAM mechanism");
        }
        return ApiError.NONE;
    }

    private static ApiError unsupported() {
        return new ApiError(Errors.UNSUPPORTED_VERSION, "The current metadata.version does not support SCRAM");
    }

    private static AlterUserScramCredentialsResult result(String user, ApiError error) {
        return new AlterUserScramCredentialsResult()
                .setUser(user)
                .setErrorCode(error.error().code())
                .setErrorMessage(error.isFailure() ? error.message() : null);
    }
}
