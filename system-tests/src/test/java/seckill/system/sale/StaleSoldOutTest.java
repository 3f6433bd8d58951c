package seckill.system.sale;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

import io.helidon.microprofile.testing.junit5.AddConfig;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import seckill.admission.api.Admission;
import seckill.drill.api.InvariantCheck;
import seckill.system.SaleFixture;
import seckill.system.ServiceTest;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/**
 * A sold-out flag never outlives stock (issue #29, item 11). A SKU's one unit is sold and the flag
 * raised; the order times out and its unit comes back (the flag is cleared); then a sold-out message
 * observed before the refill arrives late on the flags' channel, as from an instance whose answer
 * was overtaken by the refill. The next buyer must get the unit, not a 410.
 */
@AddConfig(key = "seckill.admission.token-required", value = "false")
@AddConfig(key = "seckill.settlement.timeout-scan-seconds", value = "1")
class StaleSoldOutTest extends ServiceTest {

    private static final long SKU = 29_112;

    @Inject
    Admission admission;

    @Test
    void aSoldOutMessageOvertakenByARefillRaisesNoFlag() {
        SaleFixture sale = new SaleFixture(target.getUri(), db);
        long activity = sale.createOpenActivity(SKU, 1, 1);
        assertThat(sale.purchaseRetrying(activity, activity * 1000 + 1, SKU, 1, "s-1").statusCode(), is(202));
        HttpResponse<String> late = sale.purchaseRetrying(activity, activity * 1000 + 2, SKU, 1, "s-2");
        assertThat(late.body(), late.statusCode(), is(410));
        assertThat(admission.isFlaggedSoldOut(activity, SKU), is(true));

        SaleFixture.await("the order", Duration.ofSeconds(30), () -> sale.orders(activity) == 1);
        db.execute().dml("UPDATE seckill_order SET expire_at = ? WHERE activity_id = ?",
                LocalDateTime.now(ZoneOffset.UTC).minusMinutes(1), activity);
        String stock = InvariantCheck.bucketKey(activity, SKU, 0, 1, "stock");
        SaleFixture.await("the unit back in Redis", Duration.ofSeconds(60), () -> "1".equals(redis.get(stock)));
        SaleFixture.await("the flag cleared", Duration.ofSeconds(10), () -> !admission.isFlaggedSoldOut(activity, SKU));

        // the late message, from outside, as another instance would publish its overtaken answer; then a
        // control message for another SKU: the channel keeps order, so once the control flag shows, the
        // late message has been applied (or ignored)
        String channel = SaleFixture.soldOutChannel(redis);
        redis.publish(channel, "S " + activity + " " + SKU);
        redis.publish(channel, "S " + activity + " " + (SKU + 1));
        SaleFixture.await("the messages delivered", Duration.ofSeconds(10),
                () -> admission.isFlaggedSoldOut(activity, SKU + 1));
        assertThat("no flag while the unit is on sale", admission.isFlaggedSoldOut(activity, SKU), is(false));
        HttpResponse<String> next = sale.purchaseRetrying(activity, activity * 1000 + 3, SKU, 1, "s-3");
        assertThat(next.body(), next.statusCode(), is(202));
        assertThat(redis.get(stock), is("0"));
    }
}
