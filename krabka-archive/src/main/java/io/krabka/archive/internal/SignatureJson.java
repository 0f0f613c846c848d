package io.krabka.archive.internal;

import com.fasterxml.jackson.core.JsonGenerator;
import io.krabka.archive.MalformedDocumentException;
import io.krabka.archive.manifest.ManifestSignature;
import java.io.IOException;
import java.util.Optional;
import java.util.Set;

/** The {@code signature} object that manifests and abandonment records share: {@code {key_id, public_key, signature}}. */
public final class SignatureJson {

    private static final Set<String> FIELDS = Set.of("key_id", "public_key", "signature");

    private SignatureJson() {}

    /** Reads a signature object; empty when it is absent or null. */
    public static Optional<ManifestSignature> read(Optional<StrictJsonObject> signature)
            throws MalformedDocumentException {
        if (signature.isEmpty()) {
            return Optional.empty();
        }
        StrictJsonObject fields = signature.get().allowOnly(FIELDS);
        return Optional.of(
                new ManifestSignature(fields.string("key_id"), fields.hex("public_key"), fields.hex("signature")));
    }

    /** Writes a signature object, or null for none. */
    public static void write(JsonGenerator json, Optional<ManifestSignature> signature) throws IOException {
        if (signature.isEmpty()) {
            json.writeNull();
            return;
        }
        json.writeStartObject();
        json.writeStringField("key_id", signature.get().keyId());
        json.writeStringField("public_key", Hex.encode(signature.get().publicKey()));
        json.writeStringField("signature", Hex.encode(signature.get().signature()));
        json.writeEndObject();
    }
}
