package io.krabka.kernel.security;

import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import javax.security.sasl.SaslServer;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.common.config.types.Password;
import org.apache.kafka.common.network.ListenerName;
import org.apache.kafka.common.security.JaasContext;
import org.apache.kafka.common.security.auth.KafkaPrincipal;
import org.apache.kafka.common.security.auth.SaslAuthenticationContext;
import org.apache.kafka.common.security.auth.SecurityProtocol;
import org.apache.kafka.common.security.authenticator.DefaultKafkaPrincipalBuilder;
import org.apache.kafka.common.security.plain.internals.PlainSaslServer;
import org.apache.kafka.common.security.plain.internals.PlainServerCallbackHandler;
import org.apache.kafka.common.security.scram.internals.ScramSaslServer;

/**
 * The SASL of one listener: its enabled mechanisms ({@code sasl.enabled.mechanisms}), each with the JAAS login
 * Kafka's {@code JaasContext.loadServerContext} resolves for it ({@code listener.name.<l>.<mechanism>.sasl.jaas.config},
 * else the JAAS file's {@code <l>.KafkaServer} or {@code KafkaServer} section), the session lifetime ({@code
 * connections.max.reauth.ms}, per mechanism as Kafka allows) and the counts of authentications. The mechanisms are
 * kafka-clients' own SASL servers ({@code PlainSaslServer}, {@code ScramSaslServer}, in its {@code internals}
 * packages: kafka-clients is pinned to Kafka 4.4), PLAIN's users from the JAAS {@code user_<name>} options, SCRAM's
 * credentials from the cluster's {@link ScramCredentials}.
 */
public final class ListenerSasl {

    /** The mechanisms Krabka serves. */
    public static final List<String> SUPPORTED = List.of("PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512");

    private final String listenerName;
    private final SecurityProtocol protocol;
    private final List<String> enabled;
    private final Map<String, JaasContext> jaas;
    private final Map<String, Long> maxReauthMs;
    private final ScramCredentials credentials;
    private final int maxReceiveSize;
    private final long failedAuthenticationDelayMs;
    private final DefaultKafkaPrincipalBuilder principals = new DefaultKafkaPrincipalBuilder(null, null);
    private final AtomicLong authentications = new AtomicLong();
    private final AtomicLong reauthentications = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();

    private ListenerSasl(
            String listenerName,
            SecurityProtocol protocol,
            List<String> enabled,
            Map<String, JaasContext> jaas,
            Map<String, Long> maxReauthMs,
            ScramCredentials credentials,
            int maxReceiveSize,
            long failedAuthenticationDelayMs) {
        this.listenerName = listenerName;
        this.protocol = protocol;
        this.enabled = enabled;
        this.jaas = jaas;
        this.maxReauthMs = maxReauthMs;
        this.credentials = credentials;
        this.maxReceiveSize = maxReceiveSize;
        this.failedAuthenticationDelayMs = failedAuthenticationDelayMs;
    }

    /**
     * The SASL of {@code listenerName} from the broker's settings.
     *
     * @throws SecurityConfigException naming the key at fault: a mechanism Krabka does not serve, or one with no JAAS
     *                                 login
     */
    public static ListenerSasl of(
            Map<String, String> originals,
            String listenerName,
            SecurityProtocol protocol,
            ScramCredentials credentials) {
        Map<String, String> props = ListenerProps.of(originals, listenerName);
        String prefix = ListenerProps.prefix(listenerName);
        List<String> enabled = SecurityConfigs.list(props, SecurityConfigs.SASL_ENABLED_MECHANISMS);
        Map<String, JaasContext> jaas = new LinkedHashMap<>();
        Map<String, Long> maxReauthMs = new HashMap<>();
        for (String mechanism : enabled) {
            if (!SUPPORTED.contains(mechanism)) {
                throw new SecurityConfigException(
                        SecurityConfigs.SASL_ENABLED_MECHANISMS.name(),
                        "mechanism " + mechanism + " is not served by Krabka, which serves " + SUPPORTED);
            }
            String lower = mechanism.toLowerCase(Locale.ROOT) + ".";
            Map<String, Object> jaasConfigs = new HashMap<>();
            String jaasConfig = props.get(lower + "sasl.jaas.config");
            if (jaasConfig != null) {
                jaasConfigs.put(lower + "sasl.jaas.config", new Password(jaasConfig));
            }
            try {
                jaas.put(
                        mechanism,
                        JaasContext.loadServerContext(new ListenerName(listenerName), mechanism, jaasConfigs));
            } catch (RuntimeException e) {
                throw new SecurityConfigException(prefix + lower + "sasl.jaas.config", e.getMessage());
            }
            String reauth = props.getOrDefault(
                    lower + SecurityConfigs.CONNECTIONS_MAX_REAUTH_MS.name(),
                    props.getOrDefault(SecurityConfigs.CONNECTIONS_MAX_REAUTH_MS.name(), "0"));
            maxReauthMs.put(mechanism, SecurityConfigs.parseLong(SecurityConfigs.CONNECTIONS_MAX_REAUTH_MS, reauth));
        }
        if (enabled.isEmpty()) {
            throw new SecurityConfigException(
                    SecurityConfigs.SASL_ENABLED_MECHANISMS.name(),
                    "listener " + listenerName + " is SASL but no " + "mechanism is enabled");
        }
        return new ListenerSasl(
                listenerName,
                protocol,
                List.copyOf(enabled),
                jaas,
                maxReauthMs,
                credentials,
                (int) SecurityConfigs.parseLong(
                        SecurityConfigs.SASL_SERVER_MAX_RECEIVE_SIZE,
                        props.getOrDefault(SecurityConfigs.SASL_SERVER_MAX_RECEIVE_SIZE.name(), "524288")),
                SecurityConfigs.parseLong(
                        SecurityConfigs.CONNECTION_FAILED_AUTHENTICATION_DELAY_MS,
                        props.getOrDefault(SecurityConfigs.CONNECTION_FAILED_AUTHENTICATION_DELAY_MS.name(), "100")));
    }

    /** The enabled mechanisms, as a SaslHandshake response lists them. */
    public List<String> enabledMechanisms() {
        return enabled;
    }

    /** A server for one authentication with an enabled mechanism. */
    public SaslServer newServer(String mechanism) {
        JaasContext context = jaas.get(mechanism);
        if (context == null) {
            throw new IllegalArgumentException("mechanism " + mechanism + " is not enabled");
        }
        if (mechanism.equals("PLAIN")) {
            PlainServerCallbackHandler handler = new PlainServerCallbackHandler();
            handler.configure(Map.of(), mechanism, context.configurationEntries());
            return new PlainSaslServer(handler);
        }
        ScramMechanism scram = ScramMechanism.fromMechanismName(mechanism);
        try {
            return new ScramSaslServer(
                    org.apache.kafka.common.security.scram.internals.ScramMechanism.forMechanismName(mechanism),
                    Map.of(),
                    new ScramCallbackHandler(credentials, scram));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no " + mechanism, e);
        }
    }

    /** The principal of a completed authentication: {@code User:} and the authorization id. */
    public KafkaPrincipal principal(SaslServer server, java.net.InetAddress client) {
        return principals.build(new SaslAuthenticationContext(server, protocol, client, listenerName));
    }

    /** {@code connections.max.reauth.ms} for the mechanism: 0 for sessions that never expire. */
    public long maxReauthMs(String mechanism) {
        return maxReauthMs.getOrDefault(mechanism, 0L);
    }

    /** {@code sasl.server.max.receive.size}: the largest frame before authentication completes. */
    public int maxReceiveSize() {
        return maxReceiveSize;
    }

    /** {@code connection.failed.authentication.delay.ms}: how long a failed connection waits to be closed. */
    public long failedAuthenticationDelayMs() {
        return failedAuthenticationDelayMs;
    }

    /** Counts a completed authentication: a first one, or a re-authentication. */
    public void authenticated(boolean reauthentication) {
        (reauthentication ? reauthentications : authentications).incrementAndGet();
    }

    /** Counts a failed authentication. */
    public void failed() {
        failures.incrementAndGet();
    }

    /** Kafka's {@code successful-authentication-total} of this listener. */
    public long authentications() {
        return authentications.get();
    }

    /** Kafka's {@code successful-reauthentication-total} of this listener. */
    public long reauthentications() {
        return reauthentications.get();
    }

    /** Kafka's {@code failed-authentication-total} of this listener. */
    public long failures() {
        return failures.get();
    }
}
