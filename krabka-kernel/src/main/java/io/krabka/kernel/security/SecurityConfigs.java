package io.krabka.kernel.security;

import static io.krabka.spi.plugin.ConfigType.LIST;
import static io.krabka.spi.plugin.ConfigType.LONG;
import static io.krabka.spi.plugin.ConfigType.PASSWORD;
import static io.krabka.spi.plugin.ConfigType.STRING;

import io.krabka.spi.plugin.ConfigKey;
import io.krabka.spi.plugin.ConfigType;
import io.krabka.spi.plugin.ConfigValidator;
import java.util.List;
import java.util.Map;

/**
 * The listeners' security settings, with Kafka's names and defaults. Each may also be given for one listener as
 * {@code listener.name.<listener in lower case>.<key>}, which takes precedence (and the SASL ones for one mechanism
 * of it, {@code listener.name.<l>.<mechanism in lower case>.<key>}). The TLS ones are read by kafka-clients' {@code
 * DefaultSslEngineFactory}, as Kafka reads them.
 */
public final class SecurityConfigs {

    public static final ConfigKey SSL_KEYSTORE_TYPE =
            key("ssl.keystore.type", STRING, "JKS", "The key store's format: JKS, PKCS12 or PEM.");
    public static final ConfigKey SSL_KEYSTORE_LOCATION =
            key("ssl.keystore.location", STRING, "", "The key store file: the broker's certificate and private key.");
    public static final ConfigKey SSL_KEYSTORE_PASSWORD =
            key("ssl.keystore.password", PASSWORD, "", "The key store file's password.");
    public static final ConfigKey SSL_KEYSTORE_KEY = key(
            "ssl.keystore.key",
            PASSWORD,
            "",
            "With ssl.keystore.type=PEM and no file: the private key in PEM (PKCS#8), inline.");
    public static final ConfigKey SSL_KEYSTORE_CERTIFICATE_CHAIN = key(
            "ssl.keystore.certificate.chain",
            PASSWORD,
            "",
            "With ssl.keystore.type=PEM and no file: the certificate chain in PEM, inline.");
    public static final ConfigKey SSL_KEY_PASSWORD = key(
            "ssl.key.password",
            PASSWORD,
            "",
            "The private key's password in the key store (or of an encrypted PEM key).");
    public static final ConfigKey SSL_TRUSTSTORE_TYPE =
            key("ssl.truststore.type", STRING, "JKS", "The trust store's format: JKS, PKCS12 or PEM.");
    public static final ConfigKey SSL_TRUSTSTORE_LOCATION = key(
            "ssl.truststore.location",
            STRING,
            "",
            "The trust store file: the certificate authorities client certificates are checked against.");
    public static final ConfigKey SSL_TRUSTSTORE_PASSWORD =
            key("ssl.truststore.password", PASSWORD, "", "The trust store file's password.");
    public static final ConfigKey SSL_TRUSTSTORE_CERTIFICATES = key(
            "ssl.truststore.certificates",
            PASSWORD,
            "",
            "With ssl.truststore.type=PEM and no file: the trusted certificates in PEM, inline.");
    public static final ConfigKey SSL_CLIENT_AUTH = key(
                    "ssl.client.auth",
                    STRING,
                    "none",
                    "Whether TLS clients must show a certificate: required (refused at the handshake without one), "
                            + "requested, or none.")
            .withValidator(ConfigValidator.oneOf("required", "requested", "none"));
    public static final ConfigKey SSL_ENABLED_PROTOCOLS =
            key("ssl.enabled.protocols", LIST, "TLSv1.2,TLSv1.3", "The TLS versions a client may use.");
    public static final ConfigKey SSL_CIPHER_SUITES =
            key("ssl.cipher.suites", LIST, "", "The cipher suites a client may use; empty for the JDK's.");
    public static final ConfigKey SSL_PROTOCOL =
            key("ssl.protocol", STRING, "TLSv1.3", "The protocol of the SSLContext the engines come from.");
    public static final ConfigKey SSL_ENDPOINT_IDENTIFICATION_ALGORITHM = key(
            "ssl.endpoint.identification.algorithm",
            STRING,
            "https",
            "How a client checks the broker's host name against its certificate; the broker keeps it for its own "
                    + "client side, as Kafka.");
    public static final ConfigKey SSL_KEYMANAGER_ALGORITHM =
            key("ssl.keymanager.algorithm", STRING, "SunX509", "The key manager factory's algorithm.");
    public static final ConfigKey SSL_TRUSTMANAGER_ALGORITHM =
            key("ssl.trustmanager.algorithm", STRING, "PKIX", "The trust manager factory's algorithm.");
    public static final ConfigKey SSL_PRINCIPAL_MAPPING_RULES = key(
            "ssl.principal.mapping.rules",
            STRING,
            "DEFAULT",
            "Rules mapping a client certificate's subject to the principal's name, as Kafka's; DEFAULT keeps the "
                    + "subject (User:CN=...,OU=...).");
    public static final ConfigKey SASL_ENABLED_MECHANISMS = key(
            "sasl.enabled.mechanisms",
            LIST,
            "GSSAPI",
            "The SASL mechanisms of SASL listeners. Krabka serves PLAIN, SCRAM-SHA-256 and SCRAM-SHA-512; Kafka's "
                    + "default GSSAPI is refused when a SASL listener is configured.");
    public static final ConfigKey SASL_MECHANISM_INTER_BROKER_PROTOCOL = key(
            "sasl.mechanism.inter.broker.protocol",
            STRING,
            "GSSAPI",
            "The mechanism brokers use between them; accepted, unused by a single Krabka node.");
    public static final ConfigKey SASL_JAAS_CONFIG = key(
            "sasl.jaas.config",
            PASSWORD,
            "",
            "As in Kafka, a broker ignores it unprefixed: give listener.name.<l>.<mechanism>.sasl.jaas.config.");
    public static final ConfigKey SECURITY_INTER_BROKER_PROTOCOL = key(
                    "security.inter.broker.protocol",
                    STRING,
                    "PLAINTEXT",
                    "The inter-broker listener when inter.broker.listener.name is not set: the listener named as "
                            + "this protocol.")
            .withValidator(ConfigValidator.oneOf("PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL"));
    public static final ConfigKey INTER_BROKER_LISTENER_NAME = key(
            "inter.broker.listener.name",
            STRING,
            "",
            "The listener brokers use between them; it must be among the advertised listeners, as in Kafka.");
    public static final ConfigKey CONNECTIONS_MAX_REAUTH_MS = key(
            "connections.max.reauth.ms",
            LONG,
            0L,
            "KIP-368: a SASL session's longest life; a client re-authenticates on its connection before it ends, "
                    + "and a connection used after it is closed. 0: sessions never end.");
    public static final ConfigKey CONNECTION_FAILED_AUTHENTICATION_DELAY_MS = key(
                    "connection.failed.authentication.delay.ms",
                    LONG,
                    100L,
                    "How long a connection whose authentication failed waits before it is closed.")
            .withValidator(ConfigValidator.atLeast(0));
    public static final ConfigKey SASL_SERVER_MAX_RECEIVE_SIZE = key(
                    "sasl.server.max.receive.size",
                    LONG,
                    524_288L,
                    "The largest request a connection may send before it has authenticated.")
            .withValidator(ConfigValidator.between(1, Integer.MAX_VALUE));

    /** Every key, in the order of the documentation. */
    public static final List<ConfigKey> KEYS = List.of(
            SSL_KEYSTORE_TYPE,
            SSL_KEYSTORE_LOCATION,
            SSL_KEYSTORE_PASSWORD,
            SSL_KEYSTORE_KEY,
            SSL_KEYSTORE_CERTIFICATE_CHAIN,
            SSL_KEY_PASSWORD,
            SSL_TRUSTSTORE_TYPE,
            SSL_TRUSTSTORE_LOCATION,
            SSL_TRUSTSTORE_PASSWORD,
            SSL_TRUSTSTORE_CERTIFICATES,
            SSL_CLIENT_AUTH,
            SSL_ENABLED_PROTOCOLS,
            SSL_CIPHER_SUITES,
            SSL_PROTOCOL,
            SSL_ENDPOINT_IDENTIFICATION_ALGORITHM,
            SSL_KEYMANAGER_ALGORITHM,
            SSL_TRUSTMANAGER_ALGORITHM,
            SSL_PRINCIPAL_MAPPING_RULES,
            SASL_ENABLED_MECHANISMS,
            SASL_MECHANISM_INTER_BROKER_PROTOCOL,
            SASL_JAAS_CONFIG,
            SECURITY_INTER_BROKER_PROTOCOL,
            INTER_BROKER_LISTENER_NAME,
            CONNECTIONS_MAX_REAUTH_MS,
            CONNECTION_FAILED_AUTHENTICATION_DELAY_MS,
            SASL_SERVER_MAX_RECEIVE_SIZE);

    private SecurityConfigs() {}

    private static ConfigKey key(String name, ConfigType type, Object defaultValue, String documentation) {
        return ConfigKey.optional(name, type, defaultValue, documentation);
    }

    /** A list setting as {@code props} give it, else its default. */
    @SuppressWarnings("unchecked")
    static List<String> list(Map<String, String> props, ConfigKey key) {
        String raw = props.get(key.name());
        return raw == null
                ? (List<String>) key.defaultValue().orElseThrow()
                : (List<String>) key.type().parse(key.name(), raw);
    }

    /** A long setting's value, checked. */
    static long parseLong(ConfigKey key, String raw) {
        try {
            Object value = key.type().parse(key.name(), raw);
            key.validator().ensureValid(key.name(), value);
            return (Long) value;
        } catch (RuntimeException e) {
            throw new SecurityConfigException(key.name(), e.getMessage());
        }
    }
}
