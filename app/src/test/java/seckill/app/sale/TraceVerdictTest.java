package seckill.app.sale;

import java.time.Duration;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import seckill.app.sale.TraceVerdict.Code;
import seckill.app.sale.TraceVerdict.Entry;
import seckill.app.sale.TraceVerdict.Facts;
import seckill.app.sale.TraceVerdict.Order;
import seckill.app.sale.TraceVerdict.Refill;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;

/** The verdict rule alone: every branch, no server. */
class TraceVerdictTest {

    private static final Duration STALLED_AFTER = Duration.ofSeconds(30);

    private static Facts facts(Optional<Order> order, Optional<String> failure, Refill refill, Entry entry,
                               Duration idle, int refusals) {
        return new Facts(order, failure, refill, entry, entry == Entry.PENDING ? Optional.of("host-1-w0") : Optional.empty(),
                entry == Entry.PENDING ? 2 : 0, idle, refusals, order.isEmpty() && failure.isEmpty());
    }

    private static Code judge(Facts facts) {
        return TraceVerdict.judge(facts, STALLED_AFTER).code();
    }

    @Test
    void anUndeliveredEntryWithoutALedgerRowIsQueued() {
        assertThat(judge(facts(Optional.empty(), Optional.empty(), Refill.NONE, Entry.UNDELIVERED, Duration.ZERO, 0)),
                is(Code.QUEUED));
    }

    @Test
    void aPendingEntryIsBeingSettledUntilItHasBeenIdleTooLong() {
        assertThat(judge(facts(Optional.empty(), Optional.empty(), Refill.NONE, Entry.PENDING, Duration.ofSeconds(29), 0)),
                is(Code.PENDING));
        TraceVerdict.Verdict stalled = TraceVerdict.judge(facts(Optional.empty(), Optional.empty(), Refill.NONE,
                Entry.PENDING, STALLED_AFTER, 3), STALLED_AFTER);
        assertThat(stalled.code(), is(Code.PENDING_STALLED));
        assertThat(stalled.words(), containsString("host-1-w0"));
        assertThat(stalled.words(), containsString("refused it 3 times"));
    }

    @Test
    void theOrdersStatusDecidesWhateverTheStreamSays() {
        for (Entry entry : Entry.values()) {
            assertThat(judge(facts(Optional.of(Order.PENDING), Optional.empty(), Refill.NONE, entry, Duration.ZERO, 0)),
                    is(Code.ORDERED));
            assertThat(judge(facts(Optional.of(Order.PAID), Optional.empty(), Refill.NONE, entry, Duration.ofHours(1), 0)),
                    is(Code.PAID));
        }
    }

    @Test
    void aTimedOutOrderIsRefilledOnlyOnceTheOutboxAppliedIt() {
        assertThat(judge(facts(Optional.of(Order.TIMEOUT), Optional.empty(), Refill.APPLIED, Entry.ACKNOWLEDGED,
                Duration.ZERO, 0)), is(Code.EXPIRED_REFILLED));
        assertThat(judge(facts(Optional.of(Order.TIMEOUT), Optional.empty(), Refill.WRITTEN, Entry.ACKNOWLEDGED,
                Duration.ZERO, 0)), is(Code.EXPIRED_REFILL_PENDING));
        assertThat(judge(facts(Optional.of(Order.TIMEOUT), Optional.empty(), Refill.NONE, Entry.ACKNOWLEDGED,
                Duration.ZERO, 0)), is(Code.EXPIRED_REFILL_PENDING));
    }

    @Test
    void aFailureIsRefilledOnlyOnceTheOutboxAppliedIt() {
        TraceVerdict.Verdict refilled = TraceVerdict.judge(facts(Optional.empty(), Optional.of("DEAD_LETTER: x"),
                Refill.APPLIED, Entry.ACKNOWLEDGED, Duration.ZERO, 2), STALLED_AFTER);
        assertThat(refilled.code(), is(Code.FAILED_REFILLED));
        assertThat(refilled.words(), containsString("DEAD_LETTER: x"));
        assertThat(judge(facts(Optional.empty(), Optional.of("x"), Refill.WRITTEN, Entry.PENDING, Duration.ZERO, 0)),
                is(Code.FAILED_REFILL_PENDING));
    }

    @Test
    void anAcknowledgedEntryWithoutAnyLedgerRowIsLost() {
        assertThat(judge(facts(Optional.empty(), Optional.empty(), Refill.NONE, Entry.ACKNOWLEDGED, Duration.ZERO, 0)),
                is(Code.ACKNOWLEDGED_WITHOUT_ORDER));
    }

    @Test
    void noEntryAndNoLedgerRowIsUnknown() {
        assertThat(judge(facts(Optional.empty(), Optional.empty(), Refill.NONE, Entry.NOT_FOUND, Duration.ZERO, 0)),
                is(Code.UNKNOWN));
        TraceVerdict.Verdict gone = TraceVerdict.judge(facts(Optional.empty(), Optional.empty(), Refill.NONE,
                Entry.STREAM_MISSING, Duration.ZERO, 0), STALLED_AFTER);
        assertThat(gone.code(), is(Code.UNKNOWN));
        assertThat(gone.words(), containsString("stream or its group is gone"));
    }
}
