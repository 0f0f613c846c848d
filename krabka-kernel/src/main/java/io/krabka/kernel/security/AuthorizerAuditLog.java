package io.krabka.kernel.security;

import java.lang.System.Logger.Level;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.security.auth.KafkaPrincipal;
import org.apache.kafka.common.utils.internals.SecurityUtils;
import org.apache.kafka.server.authorizer.Action;
import org.apache.kafka.server.authorizer.AuthorizableRequestContext;
import org.apache.kafka.server.authorizer.AuthorizationResult;

/**
 * The authorizer's audit log, Kafka's logger {@code kafka.authorizer.logger} and its lines: an allowed action the
 * request asked for ({@code logIfAllowed}) at DEBUG, a denied one ({@code logIfDenied}) at INFO, the others
 * (authorized operations, filtering) at TRACE. A line is built only when its level is on.
 */
final class AuthorizerAuditLog {

    /** Kafka's name of the logger, so an operator's logging settings for Kafka apply. */
    static final String LOGGER_NAME = "kafka.authorizer.logger";

    private static final System.Logger LOG = System.getLogger(LOGGER_NAME);

    private AuthorizerAuditLog() {}

    static void log(
            KafkaPrincipal principal,
            AuthorizableRequestContext context,
            Action action,
            StandardAuthorizer.Decision decision) {
        boolean allowed = decision.result() == AuthorizationResult.ALLOWED;
        Level level;
        if (allowed) {
            level = action.logIfAllowed() ? Level.DEBUG : Level.TRACE;
        } else {
            level = action.logIfDenied() ? Level.INFO : Level.TRACE;
        }
        if (LOG.isLoggable(level)) {
            LOG.log(level, line(principal, context, action, decision));
        }
    }

    // Kafka's StandardAuthorizerData.buildAuditMessage.
    private static String line(
            KafkaPrincipal principal,
            AuthorizableRequestContext context,
            Action action,
            StandardAuthorizer.Decision decision) {
        ResourcePattern resource = action.resourcePattern();
        return "Principal = " + principal.getPrincipalType() + ":" + principal.getName()
                + " is " + (decision.result() == AuthorizationResult.ALLOWED ? "Allowed" : "Denied")
                + " operation = " + action.operation()
                + " from host = " + context.clientAddress().getHostAddress()
                + " on resource = " + SecurityUtils.resourceTypeName(resource.resourceType()) + ":"
                + resource.patternType() + ":" + resource.name()
                + " for request = " + requestName(context.requestType())
                + " with resourceRefCount = " + action.resourceReferenceCount()
                + " based on rule " + decision;
    }

    private static String requestName(int requestType) {
        return ApiKeys.hasId(requestType) ? ApiKeys.forId(requestType).name : String.valueOf(requestType);
    }
}
