package seckill.ledger;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import seckill.ledger.api.catalogue.Activity;
import seckill.ledger.api.catalogue.NewActivity;
import seckill.ledger.api.catalogue.SkuLine;
import seckill.ledger.sql.OrderWriter;
import seckill.reservation.api.EventPosition;
import seckill.reservation.api.ReservationEvent;
import seckill.reservation.api.ReservationId;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The ledger's part of a rehearsal's purge (issue #34, docs/rehearsal.md "The purge"), on a real MariaDB with a
 * real ledger and a shadow one: the rehearsal is ended, then every row of it goes from the shadow tables, while
 * another rehearsal's rows and the real ledger's (an order of the same sequence) stay; idempotent; a real id is
 * refused, and without a shadow ledger nothing can be purged.
 */
class PurgingRehearsalRowsTest {

    @RegisterExtension
    static final TestLedger REAL = new TestLedger().withSettlementTables();

    @RegisterExtension
    static final TestLedger SHADOW = TestLedger.shadow().withSettlementTables();

    private static NewActivity activity(String name) {
        return new NewActivity(name, Instant.now().minusSeconds(1), Instant.now().plus(Duration.ofHours(1)),
                Duration.ofMinutes(15), List.of(new SkuLine(1, 10, 1, 1)));
    }

    private static void ordered(TestLedger ledger, ReservationId id, long user) {
        ReservationEvent event = new ReservationEvent(id, user, 1, "r-" + id, Instant.now(),
                new EventPosition("test-stream", System.currentTimeMillis() + "-" + (id.sequence() % 1000)), 1);
        assertThat(new OrderWriter(ledger.db()).writeBatch(List.of(event), a -> Duration.ofMinutes(15), Instant.now()),
                is(1));
    }

    private static String rowsOf(TestLedger ledger, long activity) {
        return ledger.count("SELECT COUNT(*) FROM seckill_activity WHERE id = ?", activity) + "/"
                + ledger.count("SELECT COUNT(*) FROM seckill_stock WHERE activity_id = ?", activity) + "/"
                + ledger.count("SELECT COUNT(*) FROM seckill_order WHERE activity_id = ?", activity) + "/"
                + ledger.count("SELECT COUNT(*) FROM seckill_stock_log WHERE activity_id = ?", activity) + "/"
                + ledger.count("SELECT COUNT(*) FROM seckill_order_number WHERE reservation_id LIKE CONCAT(?, '-%')",
                Long.toString(activity));
    }

    @Test
    void aRehearsalsRowsGoAndNoOtherRowDoes() {
        Activity purged = SHADOW.register(activity("purged rehearsal"));
        Activity kept = SHADOW.register(activity("kept rehearsal"));
        Activity real = REAL.register(activity("real"));
        long sequence = System.nanoTime() % 1_000_000_000_000L;
        ordered(SHADOW, new ReservationId(purged.id(), 1, 0, sequence), 1);
        ordered(SHADOW, new ReservationId(kept.id(), 1, 0, sequence + 1), 1); // one ledger: its own number
        ordered(REAL, new ReservationId(real.id(), 1, 0, sequence), 1);
        String keptBefore = rowsOf(SHADOW, kept.id());
        String realBefore = rowsOf(REAL, real.id()) + "/" + REAL.count("SELECT COUNT(*) FROM seckill_order");
        assertThat(rowsOf(SHADOW, purged.id()).startsWith("1/1/1/"), is(true));

        PurgingRehearsalRows purge = new PurgingRehearsalRows(Optional.of(SHADOW.db()));
        Instant now = Instant.now();
        assertThat(purge.end(purged.id(), now), is(true));
        assertThat(SHADOW.count("SELECT COUNT(*) FROM seckill_activity WHERE id = ? AND ends_at <= ?", purged.id(),
                seckill.ledger.sql.UtcTime.column(now)), is(1L));
        assertThat(purge.purgeRows(purged.id()) >= 4, is(true));

        assertThat(rowsOf(SHADOW, purged.id()), is("0/0/0/0/0"));
        assertThat(purge.end(purged.id(), now), is(false));
        assertThat(purge.purgeRows(purged.id()), is(0L));
        assertThat(rowsOf(SHADOW, kept.id()), is(keptBefore));
        assertThat(rowsOf(REAL, real.id()) + "/" + REAL.count("SELECT COUNT(*) FROM seckill_order"), is(realBefore));
        assertThrows(IllegalArgumentException.class, () -> purge.purgeRows(real.id()));
        assertThrows(IllegalStateException.class,
                () -> new PurgingRehearsalRows(Optional.empty()).purgeRows(kept.id()));
    }
}
