package io.krabka.kernel.restore.bound;

import static io.krabka.kernel.restore.bound.Bounds.flags;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.spi.common.TopicPartition;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The checks {@link RestoreBounds#of} makes before the archive is read, and the ones made after the scan. */
class RestoreBoundsValidationTest {

    @Test
    void aPartitionTakesOneToOffset() throws Exception {
        Bounds twice = flags().toOffset("orders:0=5").toOffset("orders:0=7");
        assertRefused("--to-offset 'orders:0=7': partition orders-0 already has --to-offset orders:0=5", twice);
        Bounds same = flags().toOffset("orders:0=5").toOffset("orders:0=5");
        assertRefused("--to-offset 'orders:0=5': partition orders-0 already has --to-offset orders:0=5", same);
        assertDoesNotThrow(() -> flags().toOffset("orders:0=5")
                .toOffset("orders:1=5")
                .toOffset("other:0=5")
                .build());
    }

    @Test
    void aBoundMustNameASelectedTopic() throws Exception {
        Set<String> selected = Set.of("orders");
        InvalidRestoreArgumentException toOffset = assertThrows(
                InvalidRestoreArgumentException.class,
                () -> RestoreBounds.of(
                        flags().toOffset("orders:0=5").toOffset("payments:0=5").arguments(), selected));
        assertEquals("--to-offset 'payments:0=5': topic 'payments' is not selected by --topic", toOffset.getMessage());
        InvalidRestoreArgumentException exclusion = assertThrows(
                InvalidRestoreArgumentException.class,
                () -> RestoreBounds.of(flags().excludeOffset("payments:0=1..5").arguments(), selected));
        assertEquals(
                "--exclude-offset 'payments:0=1..=4': topic 'payments' is not selected by --topic",
                exclusion.getMessage());
        assertDoesNotThrow(() -> RestoreBounds.of(
                flags().toOffset("orders:0=5").excludeOffset("orders:0=1..5").arguments(), selected));
        assertDoesNotThrow(
                () -> RestoreBounds.of(flags().toOffset("payments:0=5").arguments(), Set.of()),
                "with no --topic every topic is selected");
    }

    @Test
    void anExclusionWhollyAfterTheToOffsetIsAContradiction() throws Exception {
        assertRefused(
                "--exclude-offset 't:0=11..=19': excludes nothing: it lies after --to-offset t:0=10",
                flags().toOffset("t:0=10").excludeOffset("t:0=11..20"));
        assertDoesNotThrow(
                () -> flags().toOffset("t:0=10").excludeOffset("t:0=10..20").build(),
                "offset 10 is kept by the bound, so excluding it is meaningful");
        assertDoesNotThrow(
                () -> flags().toOffset("t:1=10").excludeOffset("t:0=11..20").build(),
                "the bound is on another partition");
    }

    @Test
    void exclusionsCoveringEveryOffsetUpToTheBoundAreRefused() throws Exception {
        String message = "--to-offset 't:0=9': --exclude-offset excludes every offset up to it: nothing of "
                + "partition t-0 would be restored";
        assertRefused(message, flags().toOffset("t:0=9").excludeOffset("t:0=0..=9"));
        assertRefused(message, flags().toOffset("t:0=9").excludeOffset("t:0=0..10"));
        // Together: 0..5 is 0 to 4, and 5..=9 starts right after.
        assertRefused(
                message, flags().toOffset("t:0=9").excludeOffset("t:0=5..=9").excludeOffset("t:0=0..5"));
        assertRefused(
                message, flags().toOffset("t:0=9").excludeOffset("t:0=0..=3").excludeOffset("t:0=2..=12"));
    }

    @Test
    void exclusionsLeavingAnOffsetUpToTheBoundAreAllowed() {
        assertDoesNotThrow(
                () -> flags().toOffset("t:0=9").excludeOffset("t:0=0..9").build(), "B is exclusive");
        assertDoesNotThrow(
                () -> flags().toOffset("t:0=9").excludeOffset("t:0=1..=9").build());
        assertDoesNotThrow(
                () -> flags().toOffset("t:0=9")
                        .excludeOffset("t:0=0..5")
                        .excludeOffset("t:0=6..=9")
                        .build(),
                "offset 5 is kept");
        assertDoesNotThrow(
                () -> flags().excludeOffset("t:0=0..=9223372036854775807").build(),
                "without --to-offset the bound is the archive's end, known only after the scan");
    }

    @Test
    void bothCutsAndEveryExclusionMayBeGivenTogether() {
        assertDoesNotThrow(() -> flags().toOffset("t:0=9")
                .toTimestamp("2024-05-01T12:00:00Z")
                .excludeOffset("t:0=2..4")
                .excludeKey("k")
                .excludeHeader("h=v")
                .excludeProducerId("7")
                .build());
    }

    @Test
    void unknownPartitionsAreTheBoundsTheArchiveLacks() throws Exception {
        RestoreBounds bounds = flags().toOffset("t:0=9")
                .toOffset("t:5=9")
                .excludeOffset("t:1=0..3")
                .excludeOffset("u:0=0..3")
                .build();
        List<PartitionArgument> unknown = bounds.unknownPartitions(Set.of(Bounds.T0, Bounds.T1));
        assertEquals(List.of(OffsetBound.parse("t:5=9"), OffsetExclusion.parse("u:0=0..3")), unknown);
        assertEquals(
                List.of("--to-offset", "--exclude-offset"),
                unknown.stream().map(PartitionArgument::flag).toList());
        assertEquals(
                List.of(),
                bounds.unknownPartitions(
                        Set.of(Bounds.T0, Bounds.T1, new TopicPartition("t", 5), new TopicPartition("u", 0))));
    }

    @Test
    void aPartitionIsCompletePastItsToOffsetOnly() throws Exception {
        RestoreBounds bounds = flags().toOffset("t:0=10").toTimestamp("0").build();
        assertFalse(bounds.isComplete(Bounds.T0, 10));
        assertTrue(bounds.isComplete(Bounds.T0, 11));
        assertFalse(bounds.isComplete(Bounds.T1, Long.MAX_VALUE), "a timestamp cut is not known by offset");
    }

    private static void assertRefused(String message, Bounds flags) {
        InvalidRestoreArgumentException e = assertThrows(InvalidRestoreArgumentException.class, flags::build);
        assertEquals(message, e.getMessage());
    }
}
