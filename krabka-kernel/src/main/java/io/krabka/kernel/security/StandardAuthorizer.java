package io.krabka.kernel.security;

import static org.apache.kafka.common.acl.AclOperation.ALL;
import static org.apache.kafka.common.acl.AclOperation.ALTER;
import static org.apache.kafka.common.acl.AclOperation.ALTER_CONFIGS;
import static org.apache.kafka.common.acl.AclOperation.DELETE;
import static org.apache.kafka.common.acl.AclOperation.DESCRIBE;
import static org.apache.kafka.common.acl.AclOperation.DESCRIBE_CONFIGS;
import static org.apache.kafka.common.acl.AclOperation.READ;
import static org.apache.kafka.common.acl.AclOperation.WRITE;
import static org.apache.kafka.server.authorizer.AuthorizationResult.ALLOWED;
import static org.apache.kafka.server.authorizer.AuthorizationResult.DENIED;

import io.krabka.kernel.metadata.MetadataImage;
import io.krabka.kernel.metadata.MetadataPublisher;
import io.krabka.kernel.metadata.StandardAcl;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.security.auth.KafkaPrincipal;
import org.apache.kafka.common.utils.internals.SecurityUtils;
import org.apache.kafka.server.authorizer.Action;
import org.apache.kafka.server.authorizer.AuthorizableRequestContext;
import org.apache.kafka.server.authorizer.AuthorizationResult;
import org.apache.kafka.server.authorizer.internals.CidrUtils;

/**
 * The authorizer with the semantics of Kafka's {@code StandardAuthorizer}, over the ACLs of the metadata image: a
 * super user may do anything; otherwise the ACLs whose pattern matches the resource (its literal name, the wildcard
 * {@code *}, a prefix) and whose principal ({@code User:*} for any) and host ({@code *} for any) match decide, a
 * matching DENY over any ALLOW (a host is {@code *}, an address or a CIDR block); an ALLOW of READ, WRITE, DELETE or ALTER implies DESCRIBE, of ALTER_CONFIGS implies
 * DESCRIBE_CONFIGS, of ALL everything; a resource no ACL names is decided by {@code allow.everyone.if.no.acl.found},
 * one with ACLs none of which allows is denied. Each decision goes to the audit log ({@link AuthorizerAuditLog}).
 *
 * <p>It follows the metadata as a publisher: each image with other ACLs than the last rebuilds its {@link AclIndex},
 * which requests then read without a lock.
 */
public final class StandardAuthorizer implements Authorizer, MetadataPublisher {

    private static final Set<AclOperation> IMPLIES_DESCRIBE = EnumSet.of(DESCRIBE, READ, WRITE, DELETE, ALTER);
    private static final Set<AclOperation> IMPLIES_DESCRIBE_CONFIGS = EnumSet.of(DESCRIBE_CONFIGS, ALTER_CONFIGS);
    // Kafka's default authorizeByResourceType first asks about a resource of this name, so super users pass.
    private static final String HARDCODED_NAME = "hardcode";

    private final AuthorizerConfig config;
    private final AuthorizationResult noAclResult;
    private volatile AclIndex index = AclIndex.EMPTY;

    /** An authorizer without ACLs until it takes an image. */
    public StandardAuthorizer(AuthorizerConfig config) {
        this.config = Objects.requireNonNull(config, "config");
        this.noAclResult = config.allowEveryoneIfNoAclFound() ? ALLOWED : DENIED;
    }

    @Override
    public String name() {
        return "StandardAuthorizer";
    }

    @Override
    public void onMetadataUpdate(MetadataImage previous, MetadataImage current) {
        // An image whose delta changed no ACL keeps the same ACLs instance.
        if (previous.acls() != current.acls()) {
            index = new AclIndex(current.acls().acls().values());
        }
    }

    @Override
    public List<AuthorizationResult> authorize(AuthorizableRequestContext context, List<Action> actions) {
        List<AuthorizationResult> results = new ArrayList<>(actions.size());
        for (Action action : actions) {
            results.add(authorize(context, action));
        }
        return results;
    }

    private AuthorizationResult authorize(AuthorizableRequestContext context, Action action) {
        ResourcePattern resource = action.resourcePattern();
        if (resource.patternType() != PatternType.LITERAL) {
            throw new IllegalArgumentException("Only literal resources are supported. Got: " + resource.patternType());
        }
        KafkaPrincipal principal = context.principal();
        Decision decision;
        if (config.superUsers().contains(principal.getPrincipalType() + ":" + principal.getName())) {
            decision = Decision.SUPER_USER;
        } else {
            decision = decide(principal, context.clientAddress().getHostAddress(), action);
        }
        AuthorizerAuditLog.log(principal, context, action, decision);
        return decision.result();
    }

    private Decision decide(KafkaPrincipal principal, String host, Action action) {
        ResourcePattern resource = action.resourcePattern();
        Matcher matcher = new Matcher(principal, host, action.operation());
        index.forEachMatching(resource.resourceType(), resource.name(), matcher);
        if (matcher.deny != null) {
            return new Decision(DENIED, matcher.deny);
        } else if (matcher.allow != null) {
            return new Decision(ALLOWED, matcher.allow);
        } else if (matcher.resourceHasAcls) {
            return Decision.DEFAULT_DENY;
        }
        return noAclResult == ALLOWED ? Decision.DEFAULT_ALLOW : Decision.DEFAULT_DENY;
    }

    /**
     * {@inheritDoc} Kafka's semantics ({@code Authorizer.authorizeByResourceType}): allowed if a literal resource
     * {@code hardcode} would be (so super users are), or if an ALLOW of the operation (or ALL) for the principal and
     * host names a resource, literal or prefixed, that no DENY of it covers; a DENY on the wildcard denies at once.
     */
    @Override
    public AuthorizationResult authorizeByResourceType(
            AuthorizableRequestContext context, AclOperation operation, ResourceType resourceType) {
        SecurityUtils.authorizeByResourceTypeCheckArgs(operation, resourceType);
        Action hardcoded = new Action(
                operation, new ResourcePattern(resourceType, HARDCODED_NAME, PatternType.LITERAL), 0, true, false);
        if (authorize(context, hardcoded) == ALLOWED) {
            return ALLOWED;
        }
        KafkaPrincipal principal = context.principal();
        String host = context.clientAddress().getHostAddress();
        ResourceTypeGrants grants = new ResourceTypeGrants();
        for (StandardAcl acl : index.ofType(resourceType)) {
            if (!hostMatches(acl.host(), host)
                    || (!samePrincipal(acl.principal(), principal)
                            && !acl.principal().equals(StandardAcl.WILDCARD_PRINCIPAL))
                    || (acl.operation() != operation && acl.operation() != ALL)) {
                continue;
            }
            if (!grants.add(acl)) {
                return DENIED;
            }
        }
        return grants.anyAllowed() ? ALLOWED : DENIED;
    }

    /** Whether {@code aclPrincipal} ({@code Type:name}, split at its first colon as Kafka parses it) is {@code principal}. */
    static boolean samePrincipal(String aclPrincipal, KafkaPrincipal principal) {
        String type = principal.getPrincipalType();
        String name = principal.getName();
        int colon = aclPrincipal.indexOf(':');
        return colon == type.length()
                && aclPrincipal.length() == colon + 1 + name.length()
                && aclPrincipal.startsWith(type)
                && aclPrincipal.startsWith(name, colon + 1);
    }

    /**
     * Whether an ACL's host ({@code *}, an address, or since Kafka 4.4 a CIDR block such as {@code 10.0.0.0/24})
     * takes the client's address; kafka-clients' {@code CidrUtils} (an internals package of the pinned version) does
     * Kafka's CIDR arithmetic.
     */
    static boolean hostMatches(String aclHost, String host) {
        return aclHost.equals(StandardAcl.WILDCARD)
                || aclHost.equals(host)
                || (aclHost.indexOf('/') >= 0 && CidrUtils.isInRange(host, aclHost));
    }

    /** Kafka's {@code findResult}: ALLOWED or DENIED if {@code acl} decides the action, null if it does not. */
    static AuthorizationResult result(StandardAcl acl, KafkaPrincipal principal, String host, AclOperation operation) {
        if (!acl.principal().equals(StandardAcl.WILDCARD_PRINCIPAL) && !samePrincipal(acl.principal(), principal)) {
            return null;
        }
        if (!hostMatches(acl.host(), host)) {
            return null;
        }
        boolean allow = acl.permissionType() == AclPermissionType.ALLOW;
        if (acl.operation() != ALL && acl.operation() != operation) {
            // Only an ALLOW implies DESCRIBE or DESCRIBE_CONFIGS; a DENY of READ does not deny DESCRIBE.
            boolean implied = allow
                    && ((operation == DESCRIBE && IMPLIES_DESCRIBE.contains(acl.operation()))
                            || (operation == DESCRIBE_CONFIGS && IMPLIES_DESCRIBE_CONFIGS.contains(acl.operation())));
            if (!implied) {
                return null;
            }
        }
        return allow ? ALLOWED : DENIED;
    }

    /** Collects the matching ACLs of one decision, stopping at the first DENY. */
    private static final class Matcher implements AclIndex.AclVisitor {
        private final KafkaPrincipal principal;
        private final String host;
        private final AclOperation operation;
        private boolean resourceHasAcls;
        private StandardAcl allow;
        private StandardAcl deny;

        Matcher(KafkaPrincipal principal, String host, AclOperation operation) {
            this.principal = principal;
            this.host = host;
            this.operation = operation;
        }

        @Override
        public boolean visit(StandardAcl acl) {
            resourceHasAcls = true;
            AuthorizationResult result = result(acl, principal, host, operation);
            if (result == DENIED) {
                deny = acl;
                return false;
            }
            if (result == ALLOWED) {
                allow = acl;
            }
            return true;
        }
    }

    /**
     * What decided an action, as the audit log names it (Kafka's {@code MatchingRule}): a matching ACL, or else the
     * named rule.
     */
    record Decision(AuthorizationResult result, String rule, StandardAcl acl) {
        static final Decision SUPER_USER = new Decision(ALLOWED, "SuperUser", null);
        static final Decision DEFAULT_ALLOW = new Decision(ALLOWED, "DefaultAllow", null);
        static final Decision DEFAULT_DENY = new Decision(DENIED, "DefaultDeny", null);

        Decision(AuthorizationResult result, StandardAcl acl) {
            this(result, "MatchingAcl", acl);
        }

        @Override
        public String toString() {
            return acl == null ? rule : rule + "(acl=" + acl + ")";
        }
    }
}
