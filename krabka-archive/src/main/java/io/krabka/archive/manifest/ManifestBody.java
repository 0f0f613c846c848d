package io.krabka.archive.manifest;

import java.util.List;
import java.util.Objects;

/**
 * What a manifest attests: a segment, its objects and its place in the chain. The chain and the signature cover
 * its {@link CanonicalManifestBytes canonical bytes}, never its JSON.
 *
 * @param formatVersion the manifest format, {@value #FORMAT_VERSION}
 * @param segment       the segment
 * @param objects       the segment's objects, in the order they are encoded
 * @param chain         the manifest's place in the chain
 */
public record ManifestBody(long formatVersion, SegmentIdentity segment, List<ObjectEntry> objects, ChainStamp chain) {

    /** The manifest format this writes: {@code MANIFEST_FORMAT_VERSION}. */
    public static final long FORMAT_VERSION = 1;

    /** The oldest manifest format this reads. */
    public static final long MIN_FORMAT_VERSION = 1;

    /** Validates the parts and freezes the objects. */
    public ManifestBody {
        Objects.requireNonNull(segment, "segment");
        Objects.requireNonNull(chain, "chain");
        objects = List.copyOf(objects);
        if (formatVersion < MIN_FORMAT_VERSION || formatVersion > FORMAT_VERSION) {
            throw new IllegalArgumentException("manifest format version " + formatVersion + " is not "
                    + MIN_FORMAT_VERSION + ".." + FORMAT_VERSION);
        }
    }

    /** A body of the current format. */
    public ManifestBody(SegmentIdentity segment, List<ObjectEntry> objects, ChainStamp chain) {
        this(FORMAT_VERSION, segment, objects, chain);
    }

    /** The chain head this body makes: {@code SHA-256(prev_head ‖ seq ‖ canonical bytes)}. */
    public ChainHead head() {
        return chain.prevHead().next(chain.seq(), CanonicalManifestBytes.of(this));
    }
}
