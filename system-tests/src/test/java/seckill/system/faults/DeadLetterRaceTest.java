package seckill.system.faults;

import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Map;

import io.helidon.microprofile.testing.junit5.AddConfig;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import seckill.dev.api.DevServers;
import seckill.ledger.api.OrderingSwitch;
import seckill.reservation.api.ReservationId;
import seckill.system.SaleFixture;
import seckill.system.SecondInstance;
import seckill.system.ServiceTest;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/**
 * A dead letter and a reclaimed delivery of the same event never both win (issue #29, item 11).
 * The test plays another instance dead-lettering a reservation, with the same statements in one
 * open transaction (lock the order's unique-key slot, record the failure and its refill), while this
 * instance's worker is handed the same event; then it commits. The ledger must end with the failure
 * or the order, never both (both would return a unit that was also sold).
 */
@AddConfig(key = "seckill.admission.token-required", value = "false")
class DeadLetterRaceTest extends ServiceTest {

    private static final long SKU = 29_113;

    @Inject
    DevServers devServers;

    @Inject
    OrderingSwitch ordering;

    @AfterEach
    void resume() {
        ordering.resume();
    }

    @Test
    void aDeadLetterCommittedWhileAWorkerWritesTheSameEventLeavesOneOutcome() throws Exception {
        SaleFixture sale = new SaleFixture(target.getUri(), db);
        long activity = sale.createOpenActivity(SKU, 5, 1);
        long buyer = activity * 1000 + 1;
        ordering.pause();
        HttpResponse<String> reserved = sale.purchaseRetrying(activity, buyer, SKU, 1, "race-1");
        assertThat(reserved.body(), reserved.statusCode(), is(202));
        String id = SaleFixture.field(reserved.body(), "reservationId");
        ReservationId parsed = ReservationId.parse(id).orElseThrow();

        Map<String, String> stores = SecondInstance.storesOf(config, devServers);
        try (Connection other = SecondInstance.ledgerConnection(stores)) {
            other.setAutoCommit(false);
            try (PreparedStatement lock = other.prepareStatement(
                    "SELECT reservation_id FROM seckill_order WHERE reservation_id = ? FOR UPDATE")) {
                lock.setString(1, id);
                lock.executeQuery().close();
            }
            String now = LocalDateTime.now(ZoneOffset.UTC).toString().replace('T', ' ');
            try (PreparedStatement failure = other.prepareStatement("INSERT INTO seckill_reservation_failure"
                    + " (reservation_id, activity_id, sku_id, user_id, quantity, reason, failed_at) VALUES (?, ?, ?, ?, 1, ?, ?)");
                 PreparedStatement refill = other.prepareStatement("INSERT INTO stock_sync_outbox (activity_id, sku_id,"
                         + " bucket, reservation_id, user_id, quantity, change_type, release_buyer, status, attempts, created_at)"
                         + " VALUES (?, ?, 0, ?, ?, 1, 2, 1, 0, 0, ?)")) {
                failure.setString(1, id);
                failure.setLong(2, activity);
                failure.setLong(3, SKU);
                failure.setLong(4, buyer);
                failure.setString(5, "DEAD_LETTER: played by the test");
                failure.setString(6, now);
                failure.executeUpdate();
                refill.setLong(1, activity);
                refill.setLong(2, SKU);
                refill.setString(3, id);
                refill.setLong(4, buyer);
                refill.setString(5, now);
                refill.executeUpdate();
            }

            ordering.resume();
            // the worker has read the event and waits on a lock the dead-letter transaction holds
            SaleFixture.await("the worker waiting on the dead letter's locks", Duration.ofSeconds(30), () -> {
                try (Statement probe = other.createStatement();
                     // a row-lock wait as InnoDB lists it, or the worker's statement still running on a ledger
                     // table this transaction holds locks in (the lock list is refreshed lazily); in this test's
                     // database only, as CI runs the cluster's tests over another database at the same time
                     ResultSet rows = probe.executeQuery("SELECT (SELECT COUNT(*) FROM information_schema.INNODB_TRX t"
                             + " JOIN information_schema.PROCESSLIST p ON p.ID = t.trx_mysql_thread_id"
                             + " WHERE t.trx_state = 'LOCK WAIT' AND p.DB = DATABASE())"
                             + " + (SELECT COUNT(*) FROM information_schema.PROCESSLIST"
                             + " WHERE ID <> CONNECTION_ID() AND DB = DATABASE() AND COMMAND <> 'Sleep'"
                             + " AND (INFO LIKE '%FROM seckill_reservation_failure%'"
                             + " OR INFO LIKE 'INSERT INTO seckill_order %'))")) {
                    rows.next();
                    return rows.getLong(1) > 0;
                } catch (java.sql.SQLException e) {
                    throw new IllegalStateException(e);
                }
            });
            other.commit();
        }
        assertThat(parsed.activityId(), is(activity));

        SaleFixture.await("the event acknowledged", Duration.ofSeconds(30), () -> pendingOf(activity) == 0);
        assertThat("the failure was committed and the worker wrote no order for the same reservation",
                sale.count("SELECT COUNT(*) FROM seckill_order WHERE reservation_id = ?", id), is(0L));
        assertThat(sale.available(activity, SKU), is(5L));
    }

    /** Entries of the SKU's stream delivered and not acknowledged, as the consumer group counts them. */
    private long pendingOf(long activity) {
        String stream = seckill.drill.api.InvariantCheck.bucketKey(activity, SKU, 0, 1, "events");
        return redis.xinfoGroups(stream).stream().mapToLong(g -> g.getPending()).sum();
    }
}
