package io.krabka.it;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListTransactionsOptions;
import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.clients.admin.TransactionState;

/**
 * Kills an application under test in the middle of a transaction, for sure: the application is frozen (SIGSTOP), the
 * broker's coordinator asked which transactions are open (ListTransactions, state Ongoing), and the application is
 * killed (SIGKILL) only while one is, else let go on (SIGCONT) and caught again. Frozen, it cannot end the transaction
 * between the answer and the kill; its restart must abort what the dead instance left open.
 */
final class OpenTransactions {
    private static final Duration BOUND = Duration.ofMinutes(1);
    // Lets the requests the application sent before it froze (an EndTxn) reach the broker before it is asked.
    private static final long SETTLE_MS = 100;

    private OpenTransactions() {}

    /**
     * Kills {@code application} while it has a transaction open.
     *
     * @return the transactional ids open when it was killed (never empty)
     * @throws AssertionError if no transaction was open within a minute (a bound against hanging only)
     */
    static Set<String> killInOne(KrabkaProcess application, String bootstrap) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            long deadline = System.nanoTime() + BOUND.toNanos();
            while (true) {
                application.signal("STOP");
                Thread.sleep(SETTLE_MS);
                Set<String> open = ongoing(admin);
                if (!open.isEmpty()) {
                    application.signal("KILL");
                    application.awaitExit();
                    return open;
                }
                application.signal("CONT");
                if (System.nanoTime() > deadline) {
                    throw new AssertionError(
                            "the application had no transaction open within " + BOUND + "\n" + application.describe());
                }
                Thread.sleep(SETTLE_MS);
            }
        }
    }

    private static Set<String> ongoing(Admin admin) throws Exception {
        Set<String> ids = new TreeSet<>();
        for (TransactionListing listing : admin.listTransactions(
                        new ListTransactionsOptions().filterStates(List.of(TransactionState.ONGOING)))
                .all()
                .get(1, TimeUnit.MINUTES)) {
            ids.add(listing.transactionalId());
        }
        return ids;
    }
}
