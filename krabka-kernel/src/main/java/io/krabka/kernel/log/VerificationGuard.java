package io.krabka.kernel.log;

/**
 * The token of one verification that a partition is in a producer's transaction (KIP-890, Kafka's name): the
 * partition hands it out before it asks the transaction coordinator, and a transactional batch that opens a
 * transaction is appended only with the token still current. A marker written in between ends the verification,
 * so a batch verified before its transaction ended cannot open a transaction that nothing will close. Compared by
 * identity.
 */
public final class VerificationGuard {

    /** No verification: what an append that needs none carries; it verifies nothing. */
    public static final VerificationGuard SENTINEL = new VerificationGuard();

    /** Whether {@code requestGuard} is this verification (the sentinel never is). */
    public boolean verify(VerificationGuard requestGuard) {
        return requestGuard != SENTINEL && requestGuard == this;
    }

    @Override
    public String toString() {
        return this == SENTINEL ? "VerificationGuard(SENTINEL)" : "VerificationGuard@" + System.identityHashCode(this);
    }
}
