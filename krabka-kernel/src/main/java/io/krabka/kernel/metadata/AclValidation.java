package io.krabka.kernel.metadata;

import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.kafka.common.errors.UnsupportedVersionException;
import org.apache.kafka.server.authorizer.internals.CidrUtils;

/** What an ACL must be to be stored, as the controller and {@code krabka format --add-acl} both check it. */
public final class AclValidation {

    private AclValidation() {}

    /**
     * Kafka's {@code AclControlManager.validateNewAcl}, with its messages; {@code cidrSupported} from
     * metadata.version 4.4-IV1.
     *
     * @throws InvalidRequestException      for a type, pattern, operation or permission an ACL cannot have, no name,
     *                                      a principal without a colon, no host or a bad CIDR block
     * @throws UnsupportedVersionException for a CIDR block before 4.4-IV1
     */
    public static void validateNewAcl(AclBinding binding, boolean cidrSupported) {
        switch (binding.pattern().resourceType()) {
            case UNKNOWN, ANY ->
                throw new InvalidRequestException(
                        "Invalid resourceType " + binding.pattern().resourceType());
            default -> {}
        }
        switch (binding.pattern().patternType()) {
            case LITERAL, PREFIXED -> {}
            default ->
                throw new InvalidRequestException(
                        "Invalid patternType " + binding.pattern().patternType());
        }
        switch (binding.entry().operation()) {
            case UNKNOWN, ANY ->
                throw new InvalidRequestException(
                        "Invalid operation " + binding.entry().operation());
            default -> {}
        }
        switch (binding.entry().permissionType()) {
            case DENY, ALLOW -> {}
            default ->
                throw new InvalidRequestException(
                        "Invalid permissionType " + binding.entry().permissionType());
        }
        if (binding.pattern().name() == null || binding.pattern().name().isEmpty()) {
            throw new InvalidRequestException("Resource name should not be empty");
        }
        String principal = binding.entry().principal();
        if (principal.indexOf(':') == -1) {
            throw new InvalidRequestException("Could not parse principal from `" + principal
                    + "` (no colon is present separating the principal type from the principal name)");
        }
        validateHost(binding.entry().host(), cidrSupported);
    }

    private static void validateHost(String host, boolean cidrSupported) {
        if (host == null || host.isEmpty()) {
            throw new InvalidRequestException("Host pattern cannot be null or empty");
        }
        if (host.equals(StandardAcl.WILDCARD) || !host.contains("/")) {
            return;
        }
        if (!cidrSupported) {
            throw new UnsupportedVersionException("CIDR-based ACL host patterns require metadata version "
                    + MetadataVersion.IBP_4_4_IV1 + " or higher.");
        }
        try {
            CidrUtils.validate(host);
        } catch (IllegalArgumentException e) {
            throw new InvalidRequestException("Invalid CIDR notation '" + host + "': " + e.getMessage());
        }
    }
}
