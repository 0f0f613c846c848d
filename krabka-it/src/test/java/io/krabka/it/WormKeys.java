package io.krabka.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.util.Base64;

/**
 * An Ed25519 key pair as an operator keeps one for the archive: the private key a PKCS#8 DER file for the broker,
 * the public key a PEM file for {@code krabka verify}.
 *
 * @param id         the key id
 * @param privateKey the PKCS#8 file
 * @param publicKey  the PEM file
 */
record WormKeys(String id, Path privateKey, Path publicKey) {

    static WormKeys generate(Path dir, String id) throws IOException, GeneralSecurityException {
        KeyPair pair = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
        Files.createDirectories(dir);
        Path privateKey =
                Files.write(dir.resolve(id + ".pk8"), pair.getPrivate().getEncoded());
        String pem = "-----BEGIN PUBLIC KEY-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                        .encodeToString(pair.getPublic().getEncoded())
                + "\n-----END PUBLIC KEY-----\n";
        Path publicKey = Files.writeString(dir.resolve(id + ".pub.pem"), pem);
        return new WormKeys(id, privateKey, publicKey);
    }
}
