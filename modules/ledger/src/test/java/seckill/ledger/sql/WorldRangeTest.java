package seckill.ledger.sql;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import seckill.ledger.TestLedger;
import seckill.ledger.api.catalogue.NewActivity;
import seckill.ledger.api.catalogue.SkuLine;
import seckill.redis.World;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Issue #34 (docs/rehearsal.md): a ledger registers only ids of its own world's range. The real catalogue
 * never hands out a rehearsal's id (whose keys would be rh:), and the shadow one never a real id; the
 * refused insert leaves no row behind.
 */
class WorldRangeTest {

    @RegisterExtension
    static final TestLedger LEDGER = new TestLedger();

    private static NewActivity activity(String name) {
        return new NewActivity(name, Instant.now().minusSeconds(1), Instant.now().plus(Duration.ofHours(1)),
                Duration.ofMinutes(15), List.of(new SkuLine(1, 10, 1, 1)));
    }

    @Test
    void theRealLedgerRefusesAnIdOfTheRehearsalRange() {
        long before = LEDGER.count("SELECT COUNT(*) FROM seckill_activity");
        long stockBefore = LEDGER.count("SELECT COUNT(*) FROM seckill_stock");
        try {
            LEDGER.db().execute().dml("ALTER TABLE seckill_activity AUTO_INCREMENT = " + World.REHEARSAL_IDS_FROM);
            IllegalStateException refused = assertThrows(IllegalStateException.class,
                    () -> new ActivityRows(LEDGER.db()).insert(activity("real past the range"), Instant.now()));
            assertThat(refused.getMessage(), containsString("rehearsal"));
            assertThat(LEDGER.count("SELECT COUNT(*) FROM seckill_activity"), is(before));
            assertThat(LEDGER.count("SELECT COUNT(*) FROM seckill_stock"), is(stockBefore));
        } finally {
            // back to the highest id + 1
            LEDGER.db().execute().dml("ALTER TABLE seckill_activity AUTO_INCREMENT = 1");
        }
        assertThat(World.of(LEDGER.register(activity("real again")).id()), is(World.REAL));
    }

    @Test
    void theShadowLedgerRefusesARealId() {
        long before = LEDGER.count("SELECT COUNT(*) FROM seckill_activity");
        assertThrows(IllegalStateException.class,
                () -> new ActivityRows(LEDGER.db(), World.REHEARSAL).insert(activity("rehearsal in the real range"), Instant.now()));
        assertThat(LEDGER.count("SELECT COUNT(*) FROM seckill_activity"), is(before));
    }
}
