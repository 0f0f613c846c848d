package io.krabka.kernel.security;

import java.util.List;
import java.util.Map;
import javax.security.auth.callback.Callback;
import javax.security.auth.callback.NameCallback;
import javax.security.auth.callback.UnsupportedCallbackException;
import javax.security.auth.login.AppConfigurationEntry;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.common.security.auth.AuthenticateCallbackHandler;
import org.apache.kafka.common.security.scram.ScramCredentialCallback;
import org.apache.kafka.common.security.token.delegation.internals.DelegationTokenCredentialCallback;

/**
 * Gives kafka-clients' SCRAM server the stored credential of the user who authenticates, from the cluster's {@link
 * ScramCredentials}, as Kafka's {@code ScramServerCallbackHandler} gives it from its credential cache. Delegation
 * tokens are not issued by Krabka: a token authentication finds no credential and fails.
 */
final class ScramCallbackHandler implements AuthenticateCallbackHandler {

    private final ScramCredentials credentials;
    private final ScramMechanism mechanism;

    ScramCallbackHandler(ScramCredentials credentials, ScramMechanism mechanism) {
        this.credentials = credentials;
        this.mechanism = mechanism;
    }

    @Override
    public void configure(
            Map<String, ?> configs, String saslMechanism, List<AppConfigurationEntry> jaasConfigEntries) {}

    @Override
    public void handle(Callback[] callbacks) throws UnsupportedCallbackException {
        String user = null;
        for (Callback callback : callbacks) {
            switch (callback) {
                case NameCallback name -> user = name.getDefaultName();
                case DelegationTokenCredentialCallback token -> {
                    // No tokens: the credential stays null and the authentication fails.
                }
                case ScramCredentialCallback scram ->
                    scram.scramCredential(
                            user == null
                                    ? null
                                    : credentials.credential(user, mechanism).orElse(null));
                default -> throw new UnsupportedCallbackException(callback);
            }
        }
    }

    @Override
    public void close() {}
}
