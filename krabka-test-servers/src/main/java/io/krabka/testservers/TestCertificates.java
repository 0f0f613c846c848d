package io.krabka.testservers;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A test certificate authority made with the JDK's {@code keytool}: its trust store, a broker certificate for
 * 127.0.0.1 and localhost (subject alternative names) and client certificates, all signed by it, each in a PKCS12
 * store with one password. A second authority gives a trust store that trusts none of the first's certificates.
 */
public final class TestCertificates {

    private final Path dir;
    private final String password;

    private TestCertificates(Path dir, String password) {
        this.dir = dir;
        this.password = password;
    }

    /**
     * Makes an authority and its trust store ({@link #truststore()}) in {@code dir}.
     *
     * @throws IOException if keytool fails
     */
    public static TestCertificates create(Path dir, String password) throws IOException {
        Files.createDirectories(dir);
        TestCertificates certificates = new TestCertificates(dir, password);
        certificates.keytool(
                "-genkeypair",
                "-alias",
                "ca",
                "-dname",
                "CN=Krabka Test CA",
                "-keyalg",
                "EC",
                "-groupname",
                "secp256r1",
                "-ext",
                "bc:c",
                "-validity",
                "30",
                "-keystore",
                "ca.p12");
        certificates.keytool("-exportcert", "-rfc", "-alias", "ca", "-keystore", "ca.p12", "-file", "ca.pem");
        certificates.keytool(
                "-importcert", "-noprompt", "-alias", "ca", "-file", "ca.pem", "-keystore", "truststore.p12");
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
     * A key store (PKCS12) with a key and its certificate, signed by the authority, for 127.0.0.1 and localhost.
     *
     * @param name  the store's file name (without extension) and the key's alias
     * @param dname the certificate's subject, such as {@code CN=broker,OU=Test,O=Krabka}
     * @throws IOException if keytool fails
     */
    public Path keystore(String name, String dname) throws IOException {
        String store = name + ".p12";
        keytool(
                "-genkeypair",
                "-alias",
                name,
                "-dname",
                dname,
                "-keyalg",
                "EC",
                "-groupname",
                "secp256r1",
                "-validity",
                "30",
                "-keystore",
                store);
        keytool("-certreq", "-alias", name, "-keystore", store, "-file", name + ".csr");
        keytool(
                "-gencert",
                "-alias",
                "ca",
                "-keystore",
                "ca.p12",
                "-infile",
                name + ".csr",
                "-outfile",
                name + ".pem",
                "-rfc",
                "-validity",
                "30",
                "-ext",
                "san=ip:127.0.0.1,dns:localhost");
        keytool("-importcert", "-noprompt", "-alias", "ca", "-file", "ca.pem", "-keystore", store);
        keytool("-importcert", "-alias", name, "-file", name + ".pem", "-keystore", store);
        return dir.resolve(store);
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

    private void keytool(String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(args));
        command.addAll(List.of("-storetype", "PKCS12", "-storepass", password, "-keypass", password));
        Process process = new ProcessBuilder(command)
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .start();
        try {
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IOException("keytool " + String.join(" ", args) + " failed: " + output);
            }
        } catch (InterruptedException e) {
            process.destroy();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted running keytool", e);
        }
    }
}
