package seckill.system.sale;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import redis.clients.jedis.StreamEntryID;
import seckill.drill.api.InvariantCheck;
import seckill.reservation.api.ReservationId;
import seckill.system.SaleFixture;
import seckill.system.ServiceTest;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.is;

/**
 * Issue 29 item 4, the order number: two reservations of two SKUs with one sequence (two instances under
 * one node id, each in its own bucket, so no bucket refuses the id) derive one order number. The second
 * is recorded from outside exactly as reserve.lua records one. Read from MariaDB: both are orders, with
 * two numbers (the second the ledger's own, {@code yyDDD99…}), no failure, nothing oversold.
 */
class OrderNumberCollisionTest extends ServiceTest {

    private static final long SKU_A = 4201;
    private static final long SKU_B = 4202;
    private static final Pattern RESERVATION = Pattern.compile("\"reservationId\"\\s*:\\s*\"([^\"]+)\"");

    @Test
    void anOrderNumberTakenByAnotherSkusReservationNeverFailsAWinner() {
        SaleFixture sale = new SaleFixture(target.getUri(), db);
        String json = """
                {"name":"order number collision","startsAt":"%s","endsAt":"%s",
                 "skus":[{"skuId":%d,"stock":10,"perUserLimit":1,"buckets":1},
                         {"skuId":%d,"stock":10,"perUserLimit":1,"buckets":1}]}""".formatted(
                Instant.now().minusSeconds(5), Instant.now().plusSeconds(600), SKU_A, SKU_B);
        HttpResponse<String> created = sale.createActivity(json, SaleFixture.ADMIN_TOKEN);
        assertThat(created.body(), created.statusCode(), is(201));
        long activity = SaleFixture.number(created.body(), "activityId");
        long first = activity * 1000 + 1;
        long second = activity * 1000 + 2;

        HttpResponse<String> bought = sale.purchase(activity, first, SKU_A, 1, "first");
        assertThat(bought.body(), bought.statusCode(), is(202));
        Matcher m = RESERVATION.matcher(bought.body());
        assertThat(m.find(), is(true));
        ReservationId mine = ReservationId.parse(m.group(1)).orElseThrow();
        SaleFixture.await("first order", Duration.ofSeconds(30), () -> sale.orders(activity) == 1);

        // the other instance's reservation of SKU B under the same sequence, as reserve.lua records it
        String bucket = InvariantCheck.bucketKey(activity, SKU_B, 0, 1, "");
        String twin = new ReservationId(activity, SKU_B, 0, mine.sequence()).toString();
        redis.decrBy(bucket + "stock", 1);
        redis.hset(bucket + "buyers", Long.toString(second), twin);
        redis.hset(bucket + "served", twin, Long.toString(second));
        redis.xadd(bucket + "events", StreamEntryID.NEW_ENTRY, Map.of("reservationId", twin,
                "userId", Long.toString(second), "activityId", Long.toString(activity), "skuId", Long.toString(SKU_B),
                "quantity", "1", "requestId", "twin", "reservedAt", Long.toString(Instant.now().toEpochMilli())));

        SaleFixture.await("both settled", Duration.ofSeconds(30), () -> sale.orders(activity)
                + sale.count("SELECT COUNT(*) FROM seckill_reservation_failure WHERE activity_id = ?", activity) == 2);
        assertThat(sale.count("SELECT COUNT(*) FROM seckill_reservation_failure WHERE activity_id = ?", activity), is(0L));
        assertThat(sale.ordersOf(mine.toString(), first), is(1L));
        assertThat(sale.ordersOf(twin, second), is(1L));
        assertThat(sale.count("SELECT COUNT(DISTINCT order_no) FROM seckill_order WHERE activity_id = ?", activity), is(2L));
        assertThat("the second is numbered by the ledger", sale.count("SELECT COUNT(*) FROM seckill_order WHERE "
                + "reservation_id = ? AND SUBSTRING(order_no, 6, 2) = '99' AND LENGTH(order_no) = 24", twin), is(1L));
        assertThat(sale.available(activity, SKU_A) + sale.available(activity, SKU_B), is(18L));
        assertThat(InvariantCheck.violations(new InvariantCheck(db, redis).audit(activity)), empty());
    }
}
