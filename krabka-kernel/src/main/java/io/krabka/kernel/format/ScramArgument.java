package io.krabka.kernel.format;

import io.krabka.kernel.metadata.ScramCredentialData;
import io.krabka.kernel.metadata.UserScramCredentialRecord;
import java.security.GeneralSecurityException;
import java.util.Base64;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.common.security.scram.internals.ScramFormatter;
import org.apache.kafka.common.security.scram.internals.ScramMechanism;

/**
 * One {@code --add-scram} value, read as Kafka's {@code kafka-storage format --add-scram} reads it ({@code
 * ScramParser}): {@code MECHANISM=[name=alice,password=alice-secret]}, or with {@code iterations} (4096..16384,
 * 4096 when absent), {@code salt} (base64; random when absent) and {@code saltedpassword} (base64, with a salt,
 * instead of the password); a value may be quoted. The credential record keeps the salt, iterations and the keys
 * derived from the salted password (kafka-clients' {@code ScramFormatter}, an internals package of the pinned
 * version), never the password.
 */
public final class ScramArgument {

    private static final int DEFAULT_ITERATIONS = 4096;

    private ScramArgument() {}

    /**
     * The credential record {@code argument} describes.
     *
     * @throws IllegalArgumentException with Kafka's message, for a value Kafka's format tool refuses
     */
    public static UserScramCredentialRecord parse(String argument) {
        String input = argument.trim();
        int equals = input.indexOf('=');
        if (equals < 0) {
            throw new IllegalArgumentException("Failed to find equals sign in SCRAM argument '" + input + "'");
        }
        String mechanismName = input.substring(0, equals);
        ScramMechanism mechanism = ScramMechanism.forMechanismName(mechanismName);
        if (mechanism == null) {
            throw new IllegalArgumentException("The add-scram mechanism " + mechanismName + " is not supported.");
        }
        String config = input.substring(equals + 1);
        if (!config.startsWith("[")) {
            throw new IllegalArgumentException("Expected configuration string to start with [");
        }
        if (!config.endsWith("]")) {
            throw new IllegalArgumentException("Expected configuration string to end with ]");
        }
        Map<String, String> components = components(config.substring(1, config.length() - 1));
        String name = components.remove("name");
        if (name == null) {
            throw new IllegalArgumentException("You must supply 'name' to add-scram");
        }
        String saltText = components.remove("salt");
        String iterationsText = components.remove("iterations");
        String password = components.remove("password");
        String saltedText = components.remove("saltedpassword");
        if (password == null && saltedText == null) {
            throw new IllegalArgumentException("You must supply one of 'password' or 'saltedpassword' to add-scram");
        }
        if (password == null && saltText == null) {
            throw new IllegalArgumentException("You must supply 'salt' with 'saltedpassword' to add-scram");
        }
        if (!components.isEmpty()) {
            throw new IllegalArgumentException(
                    "Unknown SCRAM configurations: " + String.join(", ", components.keySet()));
        }
        int iterations = iterations(iterationsText);
        if (iterations < mechanism.minIterations()) {
            throw new IllegalArgumentException("The 'iterations' value must be >= " + mechanism.minIterations()
                    + " for add-scram using " + mechanism);
        }
        if (iterations > mechanism.maxIterations()) {
            throw new IllegalArgumentException("The 'iterations' value must be <= " + mechanism.maxIterations()
                    + " for add-scram using " + mechanism);
        }
        try {
            ScramFormatter formatter = new ScramFormatter(mechanism);
            byte[] salt = saltText == null ? formatter.secureRandomBytes() : decode(saltText, "salt");
            byte[] salted = password == null
                    ? decode(saltedText, "saltedPassword")
                    : formatter.saltedPassword(password, salt, iterations);
            return new UserScramCredentialRecord(
                    name,
                    mechanism.type(),
                    new ScramCredentialData(
                            salt,
                            formatter.storedKey(formatter.clientKey(salted)),
                            formatter.serverKey(salted),
                            iterations));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("The JDK has no " + mechanism.hashAlgorithm(), e);
        }
    }

    // Kafka's splitTrimmedConfigStringComponent: key=value, a value in double quotes unquoted; nothing trimmed.
    private static Map<String, String> components(String config) {
        Map<String, String> components = new TreeMap<>();
        for (String component : config.split(",")) {
            int equals = component.indexOf('=');
            if (equals < 0) {
                throw new IllegalArgumentException("No equals sign found in SCRAM component: " + component);
            }
            String value = component.substring(equals + 1);
            if (value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")) {
                value = value.substring(1, value.length() - 1);
            }
            components.put(component.substring(0, equals), value);
        }
        return components;
    }

    private static int iterations(String text) {
        if (text == null) {
            return DEFAULT_ITERATIONS;
        }
        try {
            return Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("Failed to parse iterations count: " + text, e);
        }
    }

    private static byte[] decode(String text, String what) {
        try {
            return Base64.getDecoder().decode(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("Failed to decode given " + what + ": " + text, e);
        }
    }
}
