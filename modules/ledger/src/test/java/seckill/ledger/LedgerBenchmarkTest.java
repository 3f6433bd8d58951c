package seckill.ledger;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import seckill.ledger.api.LedgerBenchmark;
import seckill.ledger.api.catalogue.Activity;
import seckill.ledger.api.catalogue.NewActivity;
import seckill.ledger.api.catalogue.SkuLine;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The settlement benchmark's door to the ledger (bench-settle's plain-SQL ceiling and its progress
 * reads): the ceiling writes what the workers write, takes the units from the guard row, and the
 * guard refuses a batch the shelf cannot hold, leaving nothing of it behind.
 */
class LedgerBenchmarkTest {

    @RegisterExtension
    static final TestLedger LEDGER = new TestLedger();

    LedgerBenchmark ledger;

    @BeforeEach
    void benchmarkDoor() {
        ledger = new MeasuringTheLedger(LEDGER.db());
    }

    @Test
    void theCeilingWritesOrdersAndTakesTheirUnitsUntilTheShelfIsEmpty() {
        Activity activity = LEDGER.register(new NewActivity("ledger benchmark", Instant.now().minusSeconds(1),
                Instant.now().plus(Duration.ofHours(1)), Duration.ofMinutes(15), List.of(new SkuLine(1, 10, 1, 1))));
        long firstUser = activity.id() * 100_000_000L;
        assertThat(ledger.available(activity.id(), 1), is(10L));

        ledger.writeDirectly(activity.id(), 1, firstUser, 0, 4, Instant.now());
        assertThat(ledger.available(activity.id(), 1), is(6L));
        assertThat(ledger.orders(activity.id()), is(4L));
        ledger.writeDirectly(activity.id(), 1, firstUser, 4, 10, Instant.now());
        assertThat(ledger.available(activity.id(), 1), is(0L));
        assertThat(ledger.orders(activity.id()), is(10L));
        // pending orders of one unit each, one deduct log row per order: what the workers write
        assertThat(count("SELECT COUNT(*) FROM seckill_order WHERE activity_id = ? AND status = 0 AND quantity = 1",
                activity.id()), is(10L));
        assertThat(count("SELECT COUNT(*) FROM seckill_stock_log WHERE activity_id = ? AND change_type = 1",
                activity.id()), is(10L));

        assertThrows(IllegalStateException.class,
                () -> ledger.writeDirectly(activity.id(), 1, firstUser, 10, 11, Instant.now()));
        assertThat(ledger.orders(activity.id()), is(10L));
        assertThat(count("SELECT COUNT(*) FROM seckill_stock_log WHERE activity_id = ?", activity.id()), is(10L));
        assertThat(ledger.available(activity.id(), 1), is(0L));
    }

    private static long count(String sql, long activityId) {
        return LEDGER.count(sql, activityId);
    }
}
