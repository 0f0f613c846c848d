package io.krabka.kernel.broker;

import io.krabka.kernel.controller.Controller;
import io.krabka.kernel.network.ApiHandler;
import io.krabka.kernel.network.Request;
import io.krabka.kernel.network.Response;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.requests.AlterUserScramCredentialsRequest;

/**
 * Answers AlterUserScramCredentials as Kafka's controller does: ALTER on the cluster required (each user then gets
 * CLUSTER_AUTHORIZATION_FAILED), else the controller sets and removes the credentials, one result per user.
 */
public final class AlterUserScramCredentialsHandler implements ApiHandler {

    private final AuthHelper auth;
    private final Controller controller;

    /** A handler altering credentials through {@code controller}. */
    public AlterUserScramCredentialsHandler(AuthHelper auth, Controller controller) {
        this.auth = Objects.requireNonNull(auth, "auth");
        this.controller = Objects.requireNonNull(controller, "controller");
    }

    @Override
    public ApiKeys apiKey() {
        return ApiKeys.ALTER_USER_SCRAM_CREDENTIALS;
    }

    @Override
    public CompletableFuture<Response> handle(Request request) {
        auth.authorizeClusterOperation(request, AclOperation.ALTER);
        return controller
                .alterUserScramCredentials(((AlterUserScramCredentialsRequest) request.body()).data())
                .thenApply(response -> Response.send(response.setThrottleTimeMs(0)));
    }
}
