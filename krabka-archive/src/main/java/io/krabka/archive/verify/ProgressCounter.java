package io.krabka.archive.verify;

import java.util.concurrent.atomic.AtomicLong;

/** The totals of every partition's verification, passed on to whoever watches. */
final class ProgressCounter {

    /** How many hashed bytes pass between two reports inside one large object. */
    private static final long REPORT_EVERY_BYTES = 64L << 20;

    private final VerifyProgress sink;
    private final AtomicLong objects = new AtomicLong();
    private final AtomicLong bytes = new AtomicLong();

    ProgressCounter(VerifyProgress sink) {
        this.sink = sink;
    }

    /** One more object checked. */
    void objectChecked() {
        sink.checked(objects.incrementAndGet(), bytes.get());
    }

    /** More bytes hashed; reports every {@value #REPORT_EVERY_BYTES} bytes so a large object shows progress. */
    void bytesHashed(long count) {
        long before = bytes.getAndAdd(count);
        if (before / REPORT_EVERY_BYTES != (before + count) / REPORT_EVERY_BYTES) {
            sink.checked(objects.get(), before + count);
        }
    }
}
