package io.krabka.kernel.broker;

import io.krabka.kernel.metadata.MetadataImage;
import io.krabka.kernel.metadata.ScramCredentialData;
import io.krabka.kernel.network.ApiHandler;
import io.krabka.kernel.network.Request;
import io.krabka.kernel.network.Response;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.DescribeUserScramCredentialsRequestData;
import org.apache.kafka.common.message.DescribeUserScramCredentialsResponseData;
import org.apache.kafka.common.message.DescribeUserScramCredentialsResponseData.CredentialInfo;
import org.apache.kafka.common.message.DescribeUserScramCredentialsResponseData.DescribeUserScramCredentialsResult;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.DescribeUserScramCredentialsRequest;

/**
 * Answers DescribeUserScramCredentials as Kafka does ({@code ScramImage.describe}): DESCRIBE on the cluster required;
 * the users named (every user with a credential when none is) with their mechanisms and iterations, never a key; a
 * user named twice gets DUPLICATE_RESOURCE, one without credentials RESOURCE_NOT_FOUND.
 */
public final class DescribeUserScramCredentialsHandler implements ApiHandler {

    private final AuthHelper auth;
    private final Supplier<MetadataImage> metadata;

    /** A handler describing the credentials of {@code metadata}. */
    public DescribeUserScramCredentialsHandler(AuthHelper auth, Supplier<MetadataImage> metadata) {
        this.auth = Objects.requireNonNull(auth, "auth");
        this.metadata = Objects.requireNonNull(metadata, "metadata");
    }

    @Override
    public ApiKeys apiKey() {
        return ApiKeys.DESCRIBE_USER_SCRAM_CREDENTIALS;
    }

    @Override
    public CompletableFuture<Response> handle(Request request) {
        if (!auth.authorizeCluster(request, AclOperation.DESCRIBE)) {
            // Kafka answers with the error's own message here, not authorizeClusterOperation's.
            throw Errors.CLUSTER_AUTHORIZATION_FAILED.exception();
        }
        DescribeUserScramCredentialsRequestData data = ((DescribeUserScramCredentialsRequest) request.body()).data();
        Map<ScramMechanism, Map<String, ScramCredentialData>> credentials =
                metadata.get().scram().credentials();
        // Each user, and whether the request names it twice.
        Map<String, Boolean> users = new LinkedHashMap<>();
        if (data.users() == null || data.users().isEmpty()) {
            TreeSet<String> all = new TreeSet<>();
            credentials.values().forEach(byUser -> all.addAll(byUser.keySet()));
            all.forEach(user -> users.put(user, false));
        } else {
            data.users().forEach(user -> users.put(user.name(), users.containsKey(user.name())));
        }
        DescribeUserScramCredentialsResponseData response = new DescribeUserScramCredentialsResponseData();
        users.forEach((user, duplicate) -> {
            DescribeUserScramCredentialsResult result = new DescribeUserScramCredentialsResult().setUser(user);
            if (duplicate) {
                result.setErrorCode(Errors.DUPLICATE_RESOURCE.code())
                        .setErrorMessage(
                                "Cannot describe SCRAM credentials for the same user twice in a single request: "
                                        + user);
            } else {
                List<CredentialInfo> infos = new ArrayList<>();
                credentials.forEach((mechanism, byUser) -> {
                    ScramCredentialData credential = byUser.get(user);
                    if (credential != null) {
                        infos.add(new CredentialInfo()
                                .setMechanism(mechanism.type())
                                .setIterations(credential.iterations()));
                    }
                });
                if (infos.isEmpty()) {
                    result.setErrorCode(Errors.RESOURCE_NOT_FOUND.code())
                            .setErrorMessage("Attempt to describe a user credential that does not exist: " + user);
                } else {
                    result.setCredentialInfos(infos);
                }
            }
            response.results().add(result);
        });
        return CompletableFuture.completedFuture(Response.send(response.setThrottleTimeMs(0)));
    }
}
