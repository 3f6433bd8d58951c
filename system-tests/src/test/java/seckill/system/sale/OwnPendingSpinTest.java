package seckill.system.sale;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import io.helidon.microprofile.testing.junit5.AddConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.StreamEntryID;
import redis.clients.jedis.params.XAddParams;
import redis.clients.jedis.params.XPendingParams;
import redis.clients.jedis.resps.StreamPendingEntry;
import seckill.drill.api.InvariantCheck;
import seckill.system.DatabaseBehindProxy;
import seckill.system.SaleFixture;
import seckill.system.ServiceTest;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.lessThanOrEqualTo;

/**
 * A worker's own pending entries after a database cut: an entry nobody can read (added to the
 * stream by hand) and reservations the ledger refuses (its stock set short from outside) are each
 * tried once per pass, then left to the reclaim's spacing. The worker neither spins on them (their
 * delivery counts, the warnings and the refusals stay small) nor burns {@code max-deliveries} in
 * milliseconds, and every real reservation is ordered once the ledger takes it.
 */
// one worker: a spinning worker is the only one, so nothing else would order the reservations
@AddConfig(key = "seckill.ordering.workers", value = "1")
@AddConfig(key = "seckill.ordering.reclaim-idle-seconds", value = "8")
@AddConfig(key = "seckill.ordering.max-deliveries", value = "5")
@AddConfig(key = "seckill.ordering.max-backoff-millis", value = "500")
class OwnPendingSpinTest extends ServiceTest {

    private static final long SKU = 9101;
    private static final long STOCK = 50;

    @RegisterExtension
    static final DatabaseBehindProxy DATABASE = new DatabaseBehindProxy();

    @Test
    void ownPendingEntriesThatStayPendingAreTriedOncePerPassNotInALoop() throws Exception {
        SaleFixture sale = new SaleFixture(target.getUri(), DATABASE.direct());
        long activity = sale.createOpenActivity(SKU, STOCK, 1);
        String stream = InvariantCheck.bucketKey(activity, SKU, 0, 1, "events");
        Map<String, Long> buyerOf = new ConcurrentHashMap<>();
        buy(sale, activity, 0, 10, buyerOf);
        SaleFixture.await("the first orders", Duration.ofSeconds(30), () -> sale.orders(activity) == 10);

        AtomicInteger unreadableWarnings = new AtomicInteger();
        Handler counter = new Handler() {
            @Override
            public void publish(LogRecord record) {
                String message = String.valueOf(record.getMessage());
                // this test's stream only: entries left by earlier runs on the same Redis are reclaimed too
                if (message.startsWith("unreadable reservation event") && message.contains("stream=" + stream + ",")) {
                    unreadableWarnings.incrementAndGet();
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Logger placing = Logger.getLogger("seckill.ledger.PlacingOrders");
        placing.addHandler(counter);
        StreamEntryID junk = null;
        try {
            // an entry no reservation wrote: the worker reads it and leaves it pending for an operator
            junk = redis.xadd(stream, XAddParams.xAddParams(), Map.of("note", "added by hand"));
            StreamEntryID handMade = junk;
            SaleFixture.await("the hand-made entry delivered", Duration.ofSeconds(10),
                    () -> deliveries(stream, handMade) >= 1);
            // the ledger refuses what comes next (its stock short, set from outside) until it is put back
            long ledgerLeft = sale.available(activity, SKU);
            DATABASE.direct().execute().dml("UPDATE seckill_stock SET available = 0 WHERE activity_id = ? AND sku_id = ?",
                    activity, SKU);

            // 2 s without the database; buyers go on winning from Redis meanwhile
            DATABASE.proxy().cut();
            long cutAt = System.nanoTime();
            buy(sale, activity, 10, 15, buyerOf);
            long left = 2_000 - Duration.ofNanos(System.nanoTime() - cutAt).toMillis();
            if (left > 0) {
                // the fault lasts a set time; there is no condition to wait for
                Thread.sleep(left);
            }
            DATABASE.proxy().restore();

            // after the cut the worker settles its own pending entries: each is tried, then it moves on
            SaleFixture.await("the refused reservations tried again after the cut", Duration.ofSeconds(20),
                    () -> rejections(sale, buyerOf) > 0);
            // a few seconds, shorter than the reclaim's idle time, in which nothing is due again
            Thread.sleep(3_000);
            long junkDeliveries = deliveries(stream, handMade);
            long maxRejections = maxRejections(sale, buyerOf);
            long failures = sale.count("SELECT COUNT(*) FROM seckill_reservation_failure WHERE activity_id = ?", activity);
            int warnings = unreadableWarnings.get();
            System.out.println("own pending after the cut: hand-made entry delivered " + junkDeliveries
                    + " times, " + warnings + " warnings about it, at most " + maxRejections
                    + " refusals of one reservation, " + failures + " failure rows");

            // the ledger takes orders again: every real reservation becomes an order, new ones too
            DATABASE.direct().execute().dml("UPDATE seckill_stock SET available = ? WHERE activity_id = ? AND sku_id = ?",
                    ledgerLeft, activity, SKU);
            buy(sale, activity, 15, 20, buyerOf);
            SaleFixture.await("every 202 ordered", Duration.ofSeconds(60), () -> sale.orders(activity) >= 20);

            assertThat("the hand-made entry's deliveries (a spinning worker re-reads it thousands of times)",
                    junkDeliveries, lessThanOrEqualTo(4L));
            assertThat("warnings about the unreadable entry", warnings, lessThanOrEqualTo(4));
            assertThat("refusals of one reservation in 3 s (max-deliveries is 5; the reclaim spaces them 8 s)",
                    maxRejections, lessThanOrEqualTo(2L));
            assertThat("no reservation dead-lettered by a burst of refusals", failures, is(0L));
        } finally {
            placing.removeHandler(counter);
            if (junk != null) {
                // as an operator would: the hand-made entry is dealt with, so no later test meets it pending
                redis.xack(stream, "ordering", junk);
                redis.xdel(stream, junk);
            }
        }
        List<String> ordered = sale.column("SELECT reservation_id FROM seckill_order WHERE activity_id = ?", activity);
        assertThat(Set.copyOf(ordered), is(buyerOf.keySet()));
        assertThat(ordered.size(), is(20));
        assertThat(sale.count("SELECT COUNT(*) FROM seckill_reservation_failure WHERE activity_id = ?", activity), is(0L));
    }

    private static void buy(SaleFixture sale, long activity, int from, int to, Map<String, Long> buyerOf) {
        for (int i = from; i < to; i++) {
            long user = activity * 10_000 + i;
            HttpResponse<String> response = sale.purchase(activity, user, SKU, 1, "spin-" + user);
            assertThat(response.body(), response.statusCode(), is(202));
            buyerOf.put(SaleFixture.field(response.body(), "reservationId"), user);
        }
    }

    private long deliveries(String stream, StreamEntryID id) {
        List<StreamPendingEntry> pending = redis.xpending(stream, "ordering",
                XPendingParams.xPendingParams(id, id, 1));
        return pending.isEmpty() ? 0 : pending.getFirst().getDeliveredTimes();
    }

    private static long rejections(SaleFixture sale, Map<String, Long> buyerOf) {
        long total = 0;
        for (String id : buyerOf.keySet()) {
            total += sale.count("SELECT COALESCE(SUM(attempts), 0) FROM seckill_reservation_rejection WHERE reservation_id = ?", id);
        }
        return total;
    }

    private static long maxRejections(SaleFixture sale, Map<String, Long> buyerOf) {
        long max = 0;
        for (String id : buyerOf.keySet()) {
            max = Math.max(max, sale.count(
                    "SELECT COALESCE(MAX(attempts), 0) FROM seckill_reservation_rejection WHERE reservation_id = ?", id));
        }
        return max;
    }
}
