package io.krabka.kernel.metadata;

import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Objects;
import org.apache.kafka.common.security.scram.ScramCredential;

/**
 * A user's SCRAM credential for one mechanism (Kafka's {@code ScramCredentialData}): what the server keeps, never
 * the password. Holds copies of the arrays it is given and gives copies out.
 *
 * @param salt       the salt the client salted the password with
 * @param storedKey  H(ClientKey), which proves the client's proof
 * @param serverKey  the key the server signs its final message with
 * @param iterations the iterations of the salting
 */
public record ScramCredentialData(byte[] salt, byte[] storedKey, byte[] serverKey, int iterations) {

    /** Copies the arrays. */
    public ScramCredentialData {
        salt = Objects.requireNonNull(salt, "salt").clone();
        storedKey = Objects.requireNonNull(storedKey, "storedKey").clone();
        serverKey = Objects.requireNonNull(serverKey, "serverKey").clone();
    }

    @Override
    public byte[] salt() {
        return salt.clone();
    }

    @Override
    public byte[] storedKey() {
        return storedKey.clone();
    }

    @Override
    public byte[] serverKey() {
        return serverKey.clone();
    }

    /** The credential as SASL/SCRAM (kafka-clients) takes it. */
    public ScramCredential toCredential() {
        return new ScramCredential(salt(), storedKey(), serverKey(), iterations);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ScramCredentialData that
                && iterations == that.iterations
                && Arrays.equals(salt, that.salt)
                && MessageDigest.isEqual(storedKey, that.storedKey)
                && MessageDigest.isEqual(serverKey, that.serverKey);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(salt) + iterations;
    }

    /** Leaves the keys out. */
    @Override
    public String toString() {
        return "ScramCredentialData(iterations=" + iterations + ")";
    }
}
