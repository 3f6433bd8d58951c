package seckill.system.ops;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import seckill.drill.api.InvariantCheck;
import seckill.system.SaleFixture;
import seckill.system.ServiceTest;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.startsWith;

/**
 * The drill's auditor must catch what it exists to catch: each test runs a small real sale, checks
 * that the audit is clean, then plants one defect in the database and expects it named.
 */
class InvariantCheckTest extends ServiceTest {

    private static final long SKU = 9001;

    private SaleFixture sale;
    private InvariantCheck check;

    @BeforeEach
    void fixture() {
        sale = new SaleFixture(target.getUri(), db);
        check = new InvariantCheck(db, redis);
    }

    private long soldThreeOfFive() {
        long activity = sale.createOpenActivity(SKU, 5, 1);
        for (int i = 1; i <= 3; i++) {
            assertThat(sale.purchase(activity, activity * 100 + i, SKU, 1, "audit-" + i).statusCode(), is(202));
        }
        SaleFixture.await("orders", Duration.ofSeconds(30), () -> sale.orders(activity) == 3);
        assertThat(InvariantCheck.violations(check.audit(activity)), empty());
        return activity;
    }

    @Test
    void catchesAnOversell() {
        long activity = soldThreeOfFive();
        db.execute().dml("UPDATE seckill_stock SET available = -1 WHERE activity_id = ?", activity);
        try {
            List<String> violations = InvariantCheck.violations(check.audit(activity));
            assertThat(violations, hasItem(startsWith("sku " + SKU + ": OVERSOLD: available is -1")));
            assertThat(violations, hasItem(startsWith("sku " + SKU + ": LEDGER_MISMATCH")));
        } finally {
            // planted defects would keep reconciliation (and so any halted sale) from passing for other tests
            db.execute().dml("UPDATE seckill_stock SET available = 2 WHERE activity_id = ?", activity);
        }
    }

    @Test
    void catchesALostReservation() {
        long activity = soldThreeOfFive();
        // the ledger stays self-consistent: the order, its log row and its unit all vanish together
        String reservation = sale.column("SELECT reservation_id FROM seckill_order WHERE activity_id = ? LIMIT 1",
                activity).getFirst();
        String lostBuyer = sale.column("SELECT user_id FROM seckill_order WHERE reservation_id = ?", reservation)
                .getFirst();
        db.execute().dml("DELETE FROM seckill_order WHERE reservation_id = ?", reservation);
        db.execute().dml("DELETE FROM seckill_stock_log WHERE biz_id = ?", reservation);
        db.execute().dml("UPDATE seckill_stock SET available = available + 1 WHERE activity_id = ?", activity);
        List<String> violations = InvariantCheck.violations(check.audit(activity));
        assertThat(violations, hasItem(startsWith("sku " + SKU + ": LOST_RESERVATION")));
        // undo in Redis too: the lost unit goes back on the shelf and its buyer is forgotten
        redis.incr(InvariantCheck.bucketKey(activity, SKU, 0, 1, "stock"));
        redis.hdel(InvariantCheck.bucketKey(activity, SKU, 0, 1, "buyers"), lostBuyer);
        assertThat(InvariantCheck.violations(check.audit(activity)), empty());
    }

    @Test
    void catchesADuplicateOrder() {
        long activity = soldThreeOfFive();
        // the unique key makes a duplicate impossible, so it is lifted for the plant and restored after
        db.execute().dml("ALTER TABLE seckill_order DROP INDEX uk_order_buyer");
        try {
            db.execute().dml("""
                    INSERT INTO seckill_order (order_no, reservation_id, request_id, activity_id, sku_id, user_id,
                        quantity, status, expire_at, created_at, updated_at)
                    SELECT CONCAT('D', SUBSTRING(order_no, 2)), CONCAT(reservation_id, 'd'), CONCAT(request_id, 'd'),
                        activity_id, sku_id, user_id, quantity, status, expire_at, created_at, updated_at
                    FROM seckill_order WHERE activity_id = ? ORDER BY id LIMIT 1""", activity);
            List<String> violations = InvariantCheck.violations(check.audit(activity));
            assertThat(violations, hasItem(startsWith("sku " + SKU + ": DUPLICATE_ORDER: 4 orders for 3 distinct buyers")));
            assertThat(violations, hasItem(startsWith("sku " + SKU + ": OVER_LIMIT")));
        } finally {
            db.execute().dml("DELETE FROM seckill_order WHERE activity_id = ? AND reservation_id LIKE '%d'", activity);
            db.execute().dml("ALTER TABLE seckill_order ADD UNIQUE KEY uk_order_buyer (activity_id, user_id, sku_id)");
        }
    }
}
