package seckill.ledger;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import seckill.reservation.api.EventPosition;
import seckill.reservation.api.ReservationEvent;
import seckill.reservation.api.ReservationId;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/**
 * Issue #35: a coalesced call's reservations share one stream entry, and the ledger's batches (one
 * transaction each) are made of whole entries, so each batch acknowledges what it settled wholly.
 */
class WholeEntriesTest {

    @Test
    void batchesNeverSplitAnEntryAndStayWithinTheBatchSizeUnlessOneEntryIsLarger() {
        // entries of 3, 2, 4, 1 and 6 events
        List<ReservationEvent> events = new ArrayList<>();
        int[] sizes = {3, 2, 4, 1, 6};
        for (int entry = 0; entry < sizes.length; entry++) {
            for (int i = 0; i < sizes[entry]; i++) {
                events.add(event(entry, i));
            }
        }
        List<List<ReservationEvent>> batches = OrderingPass.wholeEntries(events, 5);
        assertThat(batches.stream().map(List::size).toList(), is(List.of(5, 5, 6)));
        assertThat(batches.stream().flatMap(List::stream).toList(), is(events));
        assertThat(OrderingPass.wholeEntries(events, 100).size(), is(1));
        assertThat(OrderingPass.wholeEntries(List.of(), 5), is(List.of()));
    }

    private static ReservationEvent event(int entry, int i) {
        return new ReservationEvent(new ReservationId(1, 1, 0, entry * 100L + i), 1, 1, "r", java.time.Instant.EPOCH,
                new EventPosition("s", "1-" + entry), 1);
    }
}
