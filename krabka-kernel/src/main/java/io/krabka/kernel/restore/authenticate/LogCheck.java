package io.krabka.kernel.restore.authenticate;

import io.krabka.archive.manifest.ObjectEntry;
import io.krabka.archive.manifest.Sha256Digest;
import io.krabka.kernel.restore.AuthenticationException;
import io.krabka.kernel.restore.SegmentAuthority.SegmentCheck;
import java.io.InputStream;
import java.util.Optional;

/**
 * The check on one {@code .log} as the verify stage reads it: the version its manifest records, and the size and
 * SHA-256 of what was read against the manifest's claim. Nothing of the bytes is kept but the running digest.
 */
final class LogCheck implements SegmentCheck {

    private final ObjectEntry claim;
    private final AuthenticationTally tally;
    private DigestingInputStream read;

    LogCheck(ObjectEntry claim, AuthenticationTally tally) {
        this.claim = claim;
        this.tally = tally;
    }

    @Override
    public Optional<String> logVersion() {
        return claim.versionId();
    }

    @Override
    public InputStream wrap(InputStream in) {
        read = new DigestingInputStream(in);
        return read;
    }

    @Override
    public void finish() throws AuthenticationException {
        if (read == null) {
            throw new AuthenticationException(claim.key(), "the .log was never read, so nothing vouches for it");
        }
        if (read.count() != claim.sizeBytes()) {
            throw new AuthenticationException(
                    claim.key(), read.count() + " bytes were read, the manifest claims " + claim.sizeBytes());
        }
        Sha256Digest digest = new Sha256Digest(read.digest());
        if (!digest.equals(claim.sha256())) {
            throw new AuthenticationException(
                    claim.key(),
                    "SHA-256 " + digest + " of the bytes read differs from the " + "manifest's " + claim.sha256());
        }
        tally.objectsChecked(1);
    }
}
