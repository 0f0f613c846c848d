package io.krabka.testservers;

import java.io.IOException;
import java.io.OutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import javax.security.auth.x500.X500Principal;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.CertIOException;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A test certificate authority, made in the test's JVM with BouncyCastle: its trust store, a broker certificate for
 * 127.0.0.1 and localhost (subject alternative names) and client certificates, all signed by it, each in a PKCS12
 * store with one password. A second authority gives a trust store that trusts none of the first's certificates.
 */
public final class TestCertificates {

    private static final AtomicLong SERIAL = new AtomicLong(System.currentTimeMillis());

    private final Path dir;
    private final String password;
    private final KeyPair caKeys;
    private final X509Certificate ca;

    private TestCertificates(Path dir, String password, KeyPair caKeys, X509Certificate ca) {
        this.dir = dir;
        this.password = password;
        this.caKeys = caKeys;
        this.ca = ca;
    }

    /**
     * Makes an authority and its trust store ({@link #truststore()}) and certificate ({@link #caPem()}) in {@code
     * dir}.
     *
     * @throws IOException if a file cannot be written
     */
    public static TestCertificates create(Path dir, String password) throws IOException {
        Files.createDirectories(dir);
        KeyPair keys = keyPair();
        X509Certificate ca = sign(
                new JcaX509v3CertificateBuilder(
                                new X500Principal("CN=Krabka Test CA"),
                                serial(),
                                notBefore(),
                                notAfter(),
                                new X500Principal("CN=Krabka Test CA"),
                                keys.getPublic())
                        .addExtension(Extension.basicConstraints, true, new BasicConstraints(true))
                        .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign)),
                keys.getPrivate());
        TestCertificates certificates = new TestCertificates(dir, password, keys, ca);
        KeyStore trust = emptyStore();
        try {
            trust.setCertificateEntry("ca", ca);
            Files.writeString(
                    certificates.caPem(),
                    "-----BEGIN CERTIFICATE-----\n"
                            + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                                    .encodeToString(ca.getEncoded())
                            + "\n-----END CERTIFICATE-----\n");
        } catch (GeneralSecurityException e) {
            throw new IOException("cannot store the test authority", e);
        }
        certificates.store(trust, certificates.truststore());
        return certificates;
    }

    /** The store password of every store. */
    public String password() {
        return password;
    }

    /** The trust store (PKCS12) holding the authority's certificate. */
    public Path truststore() {
        return dir.resolve("truststore.p12");
    }

    /** The authority's certificate in PEM. */
    public Path caPem() {
        return dir.resolve("ca.pem");
    }

    /**
     * A key store (PKCS12) with a key and its certificate, signed by the authority, for 127.0.0.1 and localhost, for
     * servers and clients alike.
     *
     * @param name  the store's file name (without extension) and the key's alias
     * @param dname the certificate's subject as Kafka renders it (RFC 2253), such as {@code CN=broker,OU=Test,O=Krabka}
     * @throws IOException if the store cannot be written
     */
    public Path keystore(String name, String dname) throws IOException {
        KeyPair keys = keyPair();
        X509Certificate certificate;
        try {
            certificate = sign(
                    new JcaX509v3CertificateBuilder(
                                    ca, serial(), notBefore(), notAfter(), new X500Principal(dname), keys.getPublic())
                            .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
                            .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature))
                            .addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(new KeyPurposeId[] {
                                KeyPurposeId.id_kp_serverAuth, KeyPurposeId.id_kp_clientAuth
                            }))
                            .addExtension(Extension.subjectAlternativeName, false, new GeneralNames(new GeneralName[] {
                                new GeneralName(GeneralName.iPAddress, "127.0.0.1"),
                                new GeneralName(GeneralName.dNSName, "localhost")
                            })),
                    caKeys.getPrivate());
        } catch (CertIOException e) {
            throw new IOException("cannot make the certificate of " + dname, e);
        }
        KeyStore store = emptyStore();
        try {
            store.setKeyEntry(name, keys.getPrivate(), password.toCharArray(), new Certificate[] {certificate, ca});
        } catch (GeneralSecurityException e) {
            throw new IOException("cannot store the key of " + dname, e);
        }
        Path file = dir.resolve(name + ".p12");
        store(store, file);
        return file;
    }

    /**
     * Kafka's TLS settings of a broker (or a client) with this key store and the authority's trust store, both
     * PKCS12: {@code ssl.keystore.*}, {@code ssl.key.password} and {@code ssl.truststore.*}.
     */
    public Map<String, String> sslSettings(Path keystore) {
        return Map.of(
                "ssl.keystore.type",
                "PKCS12",
                "ssl.keystore.location",
                keystore.toString(),
                "ssl.keystore.password",
                password,
                "ssl.key.password",
                password,
                "ssl.truststore.type",
                "PKCS12",
                "ssl.truststore.location",
                truststore().toString(),
                "ssl.truststore.password",
                password);
    }

    private static KeyPair keyPair() throws IOException {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(256);
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IOException("no EC keys in this JDK", e);
        }
    }

    private static X509Certificate sign(X509v3CertificateBuilder builder, PrivateKey issuerKey) throws IOException {
        try {
            return new JcaX509CertificateConverter()
                    .getCertificate(builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(issuerKey)));
        } catch (OperatorCreationException | GeneralSecurityException e) {
            throw new IOException("cannot sign a test certificate", e);
        }
    }

    private static BigInteger serial() {
        return BigInteger.valueOf(SERIAL.incrementAndGet());
    }

    private static Date notBefore() {
        return Date.from(Instant.now().minus(Duration.ofHours(1)));
    }

    private static Date notAfter() {
        return Date.from(Instant.now().plus(Duration.ofDays(30)));
    }

    private static KeyStore emptyStore() throws IOException {
        try {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            return store;
        } catch (GeneralSecurityException e) {
            throw new IOException("no PKCS12 key stores in this JDK", e);
        }
    }

    private void store(KeyStore store, Path file) throws IOException {
        Path temporary = file.resolveSibling(file.getFileName() + ".tmp");
        try (OutputStream out = Files.newOutputStream(temporary)) {
            store.store(out, password.toCharArray());
        } catch (GeneralSecurityException e) {
            throw new IOException("cannot write " + file, e);
        }
        Files.move(temporary, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }
}
