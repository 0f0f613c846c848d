package io.krabka.kernel.security;

import java.net.InetAddress;
import java.util.HashMap;
import java.util.Map;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLSession;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.SslClientAuth;
import org.apache.kafka.common.config.internals.BrokerSecurityConfigs;
import org.apache.kafka.common.security.auth.KafkaPrincipal;
import org.apache.kafka.common.security.auth.SslAuthenticationContext;
import org.apache.kafka.common.security.authenticator.DefaultKafkaPrincipalBuilder;
import org.apache.kafka.common.security.ssl.DefaultSslEngineFactory;
import org.apache.kafka.common.security.ssl.SslPrincipalMapper;

/**
 * The TLS of one listener: the {@code ssl.*} settings as that listener sees them, read by kafka-clients' own {@link
 * DefaultSslEngineFactory} (PKCS12, JKS and PEM key and trust stores, {@code ssl.client.auth}, protocols and cipher
 * suites as Kafka applies them), and the principal of a client certificate as Kafka's {@link
 * DefaultKafkaPrincipalBuilder} renders it with {@code ssl.principal.mapping.rules}.
 */
public final class ListenerTls {

    // Kafka's broker SSL settings: the client's set (stores, protocols, suites, algorithms) and the broker's own.
    private static final ConfigDef SSL_CONFIG = new ConfigDef()
            .withClientSslSupport()
            .define(
                    BrokerSecurityConfigs.SSL_CLIENT_AUTH_CONFIG,
                    ConfigDef.Type.STRING,
                    BrokerSecurityConfigs.SSL_CLIENT_AUTH_DEFAULT,
                    ConfigDef.ValidString.in("required", "requested", "none"),
                    ConfigDef.Importance.MEDIUM,
                    BrokerSecurityConfigs.SSL_CLIENT_AUTH_DOC)
            .define(
                    BrokerSecurityConfigs.SSL_PRINCIPAL_MAPPING_RULES_CONFIG,
                    ConfigDef.Type.STRING,
                    BrokerSecurityConfigs.DEFAULT_SSL_PRINCIPAL_MAPPING_RULES,
                    ConfigDef.Importance.LOW,
                    BrokerSecurityConfigs.SSL_PRINCIPAL_MAPPING_RULES_DOC);

    private final String listenerName;
    private final DefaultSslEngineFactory engines;
    private final DefaultKafkaPrincipalBuilder principals;
    private final boolean requiresClientCertificate;

    private ListenerTls(
            String listenerName,
            DefaultSslEngineFactory engines,
            DefaultKafkaPrincipalBuilder principals,
            boolean requiresClientCertificate) {
        this.listenerName = listenerName;
        this.engines = engines;
        this.principals = principals;
        this.requiresClientCertificate = requiresClientCertificate;
    }

    /**
     * The TLS of {@code listenerName} from the broker's settings.
     *
     * @throws org.apache.kafka.common.config.ConfigException for a setting that does not parse
     * @throws org.apache.kafka.common.KafkaException         for a store that cannot be read (missing, wrong password)
     */
    public static ListenerTls of(Map<String, String> originals, String listenerName) {
        Map<String, String> props = new HashMap<>();
        ListenerProps.of(originals, listenerName).forEach((key, value) -> {
            if (SSL_CONFIG.names().contains(key)) {
                props.put(key, value);
            }
        });
        Map<String, Object> parsed = SSL_CONFIG.parse(props);
        DefaultSslEngineFactory engines = new DefaultSslEngineFactory();
        engines.configure(parsed);
        SslPrincipalMapper mapper = SslPrincipalMapper.fromRules(
                (String) parsed.get(BrokerSecurityConfigs.SSL_PRINCIPAL_MAPPING_RULES_CONFIG));
        boolean required = SslClientAuth.forConfig((String) parsed.get(BrokerSecurityConfigs.SSL_CLIENT_AUTH_CONFIG))
                == SslClientAuth.REQUIRED;
        return new ListenerTls(listenerName, engines, new DefaultKafkaPrincipalBuilder(null, mapper), required);
    }

    /** Whether {@code ssl.client.auth=required}: else a client without a certificate is ANONYMOUS, as in Kafka. */
    public boolean requiresClientCertificate() {
        return requiresClientCertificate;
    }

    /** A server engine for a connection from this peer, client authentication as {@code ssl.client.auth} asks. */
    public SSLEngine newEngine(String peerHost, int peerPort) {
        return engines.createServerSslEngine(peerHost, peerPort);
    }

    /**
     * The principal of a completed handshake: {@code User:} and the client certificate's subject mapped by {@code
     * ssl.principal.mapping.rules}, {@link KafkaPrincipal#ANONYMOUS} for a client that sent none (where {@code
     * ssl.client.auth} lets it).
     */
    public KafkaPrincipal principal(SSLSession session, InetAddress client) {
        return principals.build(new SslAuthenticationContext(session, client, listenerName));
    }
}
