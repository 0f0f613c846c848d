package io.krabka.it;

import java.io.IOException;
import java.io.OutputStream;
import java.io.Writer;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import javax.security.auth.x500.X500Principal;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * The TLS material of a test, made fresh in a directory: a CA, the broker's key and certificate for {@code 127.0.0.1}
 * and {@code localhost} (subject alternative names, so clients verify the host as they do by default), client keys
 * with the subjects a test names (their principal on an mTLS listener), and a second, unrelated CA whose truststore
 * trusts none of them. Keystores and truststores are PKCS12 files with {@link #PASSWORD}; the CA is also written as
 * PEM. EC P-256 keys: quick to make, and every TLS stack in the tests takes them.
 */
final class TestCertificates {
    /** The password of every keystore, truststore and key here. */
    static final String PASSWORD = "test-secret";

    private static final String SIGNATURE = "SHA256withECDSA";
    private static final Duration VALIDITY = Duration.ofDays(2);

    private final Path dir;
    private final Issuer ca;

    private record Issuer(KeyPair keys, X509Certificate certificate) {}

    private TestCertificates(Path dir, Issuer ca) {
        this.dir = dir;
        this.ca = ca;
    }

    /**
     * Makes the CA, its truststore ({@link #truststore()}), the broker's keystore ({@link #brokerKeystore()}) and the
     * unrelated CA's truststore ({@link #untrustedTruststore()}) in {@code dir}.
     */
    static TestCertificates create(Path dir) throws IOException, GeneralSecurityException {
        Files.createDirectories(dir);
        Issuer ca = authority("CN=Krabka Test CA,O=Krabka");
        TestCertificates certificates = new TestCertificates(dir, ca);
        certificates.writeTruststore("ca-trust.p12", ca.certificate());
        certificates.writeTruststore(
                "other-ca-trust.p12",
                authority("CN=Unrelated Test CA,O=Elsewhere").certificate());
        KeyPair broker = keyPair();
        X509Certificate brokerCertificate =
                certificates.issue(ca, "CN=localhost,O=Krabka", broker, new GeneralNames(new GeneralName[] {
                    new GeneralName(GeneralName.iPAddress, "127.0.0.1"),
                    new GeneralName(GeneralName.dNSName, "localhost")
                }));
        certificates.writeKeystore("broker.p12", "broker", broker, brokerCertificate);
        certificates.writePem("ca.pem", ca.certificate());
        return certificates;
    }

    /**
     * Issues a client certificate for {@code subject} (such as {@code CN=alice,OU=eng,O=Krabka}) from the CA and
     * returns its PKCS12 keystore, {@code <name>.p12}.
     */
    Path clientKeystore(String name, String subject) throws IOException, GeneralSecurityException {
        KeyPair keys = keyPair();
        return writeKeystore(name + ".p12", name, keys, issue(ca, subject, keys, null));
    }

    /** The broker's keystore: its key and its certificate chain up to the CA. */
    Path brokerKeystore() {
        return dir.resolve("broker.p12");
    }

    /** The truststore holding the CA, which issued the broker's and the clients' certificates. */
    Path truststore() {
        return dir.resolve("ca-trust.p12");
    }

    /** A truststore of another CA, which issued none of the certificates here: a handshake with it fails. */
    Path untrustedTruststore() {
        return dir.resolve("other-ca-trust.p12");
    }

    /** The CA's certificate, PEM: a truststore as {@code ssl.truststore.type=PEM} takes it. */
    Path caPem() {
        return dir.resolve("ca.pem");
    }

    private static Issuer authority(String subject) throws GeneralSecurityException, IOException {
        KeyPair keys = keyPair();
        X500Principal name = new X500Principal(subject);
        X509v3CertificateBuilder builder = builder(name, name, keys);
        JcaX509ExtensionUtils extensions = new JcaX509ExtensionUtils();
        builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(true))
                .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign))
                .addExtension(
                        Extension.subjectKeyIdentifier, false, extensions.createSubjectKeyIdentifier(keys.getPublic()));
        return new Issuer(keys, sign(builder, keys));
    }

    // A leaf certificate for both ends of a connection; with names, the host names it is valid for.
    private X509Certificate issue(Issuer issuer, String subject, KeyPair keys, GeneralNames names)
            throws GeneralSecurityException, IOException {
        X509v3CertificateBuilder builder =
                builder(issuer.certificate().getSubjectX500Principal(), new X500Principal(subject), keys);
        JcaX509ExtensionUtils extensions = new JcaX509ExtensionUtils();
        builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
                .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyAgreement))
                .addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(new KeyPurposeId[] {
                    KeyPurposeId.id_kp_serverAuth, KeyPurposeId.id_kp_clientAuth
                }))
                .addExtension(
                        Extension.authorityKeyIdentifier,
                        false,
                        extensions.createAuthorityKeyIdentifier(issuer.certificate()));
        if (names != null) {
            builder.addExtension(Extension.subjectAlternativeName, false, names);
        }
        return sign(builder, issuer.keys());
    }

    private static X509v3CertificateBuilder builder(X500Principal issuer, X500Principal subject, KeyPair keys) {
        Instant now = Instant.now();
        return new JcaX509v3CertificateBuilder(
                issuer,
                new BigInteger(64, new SecureRandom()),
                // An hour back: a clock a little behind the one that made it still accepts it.
                Date.from(now.minus(Duration.ofHours(1))),
                Date.from(now.plus(VALIDITY)),
                subject,
                keys.getPublic());
    }

    private static X509Certificate sign(X509v3CertificateBuilder builder, KeyPair signer)
            throws GeneralSecurityException {
        try {
            return new JcaX509CertificateConverter()
                    .getCertificate(builder.build(new JcaContentSignerBuilder(SIGNATURE).build(signer.getPrivate())));
        } catch (OperatorCreationException e) {
            throw new GeneralSecurityException("cannot sign with " + SIGNATURE, e);
        }
    }

    private static KeyPair keyPair() throws GeneralSecurityException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"));
        return generator.generateKeyPair();
    }

    private Path writeKeystore(String file, String alias, KeyPair keys, X509Certificate certificate)
            throws IOException, GeneralSecurityException {
        KeyStore store = emptyPkcs12();
        store.setKeyEntry(
                alias, keys.getPrivate(), PASSWORD.toCharArray(), new Certificate[] {certificate, ca.certificate()});
        return store(store, file);
    }

    private void writeTruststore(String file, X509Certificate authority) throws IOException, GeneralSecurityException {
        KeyStore store = emptyPkcs12();
        store.setCertificateEntry("ca", authority);
        store(store, file);
    }

    private static KeyStore emptyPkcs12() throws IOException, GeneralSecurityException {
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        return store;
    }

    // Written to a temporary name and renamed: a reader never sees half a store.
    private Path store(KeyStore store, String file) throws IOException, GeneralSecurityException {
        Path temporary = dir.resolve(file + ".tmp");
        try (OutputStream out = Files.newOutputStream(temporary)) {
            store.store(out, PASSWORD.toCharArray());
        }
        return Files.move(temporary, dir.resolve(file), StandardCopyOption.ATOMIC_MOVE);
    }

    private void writePem(String file, X509Certificate certificate) throws IOException {
        Path temporary = dir.resolve(file + ".tmp");
        try (Writer out = Files.newBufferedWriter(temporary, StandardCharsets.US_ASCII);
                JcaPEMWriter pem = new JcaPEMWriter(out)) {
            pem.writeObject(certificate);
        }
        Files.move(temporary, dir.resolve(file), StandardCopyOption.ATOMIC_MOVE);
    }
}
