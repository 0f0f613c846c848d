package io.krabka.kernel.security;

import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.common.utils.internals.SecurityUtils;

/**
 * The authorizer's settings, Kafka's keys: {@code authorizer.class.name} switches it on (only Kafka's
 * StandardAuthorizer is served, by Krabka's own {@link StandardAuthorizer}), {@code super.users} are allowed
 * everything, and {@code allow.everyone.if.no.acl.found} decides for resources no ACL names.
 *
 * @param superUsers                 the super users' principals, {@code User:admin}
 * @param allowEveryoneIfNoAclFound  whether an action on a resource without ACLs is allowed
 */
public record AuthorizerConfig(Set<String> superUsers, boolean allowEveryoneIfNoAclFound) {

    /** The key naming the authorizer class. */
    public static final String AUTHORIZER_CLASS_NAME = "authorizer.class.name";
    /** The key listing the super users. */
    public static final String SUPER_USERS = "super.users";
    /** The key of the decision for resources without ACLs. */
    public static final String ALLOW_EVERYONE_IF_NO_ACL_FOUND = "allow.everyone.if.no.acl.found";
    /** The one authorizer class accepted: Kafka's, whose semantics Krabka's authorizer has. */
    public static final String STANDARD_AUTHORIZER = "org.apache.kafka.metadata.authorizer.StandardAuthorizer";

    /** Copies the super users. */
    public AuthorizerConfig {
        superUsers = Set.copyOf(superUsers);
    }

    /**
     * The authorizer's settings in {@code props}; empty when {@code authorizer.class.name} is empty or absent.
     *
     * @throws IllegalArgumentException naming the key, for another authorizer class or a super user that is not
     *                                  {@code Type:name}
     */
    public static Optional<AuthorizerConfig> of(Map<String, String> props) {
        String className = props.getOrDefault(AUTHORIZER_CLASS_NAME, "").trim();
        if (className.isEmpty()) {
            return Optional.empty();
        }
        if (!className.equals(STANDARD_AUTHORIZER)) {
            throw new IllegalArgumentException(AUTHORIZER_CLASS_NAME + "=" + className + ": Krabka serves only "
                    + STANDARD_AUTHORIZER + " (or empty for none)");
        }
        return Optional.of(new AuthorizerConfig(
                superUsers(props.getOrDefault(SUPER_USERS, "")),
                Boolean.parseBoolean(props.getOrDefault(ALLOW_EVERYONE_IF_NO_ACL_FOUND, "false")
                        .trim())));
    }

    // Kafka's StandardAuthorizer: semicolon-separated, trimmed, each a principal.
    private static Set<String> superUsers(String value) {
        Set<String> users = new LinkedHashSet<>();
        for (String user : value.split(";")) {
            String trimmed = user.trim();
            if (!trimmed.isEmpty()) {
                try {
                    SecurityUtils.parseKafkaPrincipal(trimmed);
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException(SUPER_USERS + ": " + e.getMessage(), e);
                }
                users.add(trimmed);
            }
        }
        return users;
    }
}
