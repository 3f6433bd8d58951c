package seckill.ledger;

import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/**
 * The waiting line's turns left (issue #33) on a real MariaDB: the highest place per buyer and activity is kept,
 * a re-run or an earlier place changes nothing, and buyers and activities are apart.
 */
class KeepingLineTurnsTest {

    @RegisterExtension
    static final TestLedger LEDGER = new TestLedger();

    private static final AtomicLong ACTIVITIES = new AtomicLong(System.currentTimeMillis() % 1_000_000_000 * 100);

    private final Instant at = Instant.parse("2030-01-01T10:00:05.123Z");

    @Test
    void theHighestPlaceLeftIsKeptPerBuyerAndActivity() {
        KeepingLineTurns turns = new KeepingLineTurns(new LedgersByWorld(LEDGER.db(), java.util.Optional.empty()));
        long activity = ACTIVITIES.incrementAndGet();
        assertThat("none recorded", turns.lastLeft(activity, 7), is(0L));
        turns.recordLeft(activity, 7, 1_000_001_000_001L, at);
        turns.recordLeft(activity, 7, 1_000_001_000_001L, at.plusSeconds(1));
        assertThat(turns.lastLeft(activity, 7), is(1_000_001_000_001L));
        assertThat("one row, its time the first record's", LEDGER.count(
                "SELECT COUNT(*) FROM seckill_line_turn_left WHERE activity_id = ? AND user_id = 7 AND left_at = ?",
                activity, "2030-01-01 10:00:05.123"), is(1L));
        turns.recordLeft(activity, 7, 1_000_009_000_001L, at.plusSeconds(9));
        turns.recordLeft(activity, 7, 1_000_002_000_001L, at.plusSeconds(10));
        assertThat("an earlier place recorded later changes nothing", turns.lastLeft(activity, 7),
                is(1_000_009_000_001L));
        assertThat(LEDGER.count("SELECT COUNT(*) FROM seckill_line_turn_left WHERE activity_id = ? AND user_id = 7"
                + " AND left_at = ?", activity, "2030-01-01 10:00:14.123"), is(1L));
        assertThat("another buyer", turns.lastLeft(activity, 8), is(0L));
        assertThat("another activity", turns.lastLeft(activity + 1, 7), is(0L));
    }
}
