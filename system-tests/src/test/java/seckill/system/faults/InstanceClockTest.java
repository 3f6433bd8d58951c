package seckill.system.faults;

import java.math.BigDecimal;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

import io.helidon.microprofile.testing.junit5.AddConfig;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import seckill.dev.api.DevServers;
import seckill.system.MachineTools;
import seckill.system.PaymentCallbacks;
import seckill.system.SaleFixture;
import seckill.system.SecondInstance;
import seckill.system.ServiceTest;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.lessThan;

/**
 * An instance whose host clock is wrong keeps the sale's time: the ledger database's. Found by the
 * chaos drill's CLOCK_MOVE (seed 13): an instance 126 s fast refused payments that came on time
 * ({@code 409 ORDER_EXPIRED}) and held its orders' units minutes past their window; 135 s slow, it
 * answered {@code NOT_STARTED} to an open sale. Here a second instance runs under libfaketime 126 s
 * fast (its wall clock only; monotonic time stays real), and is judged from outside: the time it
 * states, and a payment for an order the first instance placed, sent to it a second later.
 */
@AddConfig(key = "seckill.admission.token-required", value = "false")
@AddConfig(key = "seckill.payment.hmac-key", value = InstanceClockTest.KEY)
@AddConfig(key = "seckill.payment.price", value = "99.50")
@AddConfig(key = "seckill.payment.currency", value = "CNY")
class InstanceClockTest extends ServiceTest {

    static final String KEY = "instance-clock-test-key-of-32-characters";
    private static final long SKU = 9621;
    private static final long FAST_SECONDS = 126;

    @Inject
    DevServers devServers;

    @Test
    void anInstanceWithAFastHostClockKeepsTheLedgersTime() throws Exception {
        MachineTools.requireFaketime();
        SaleFixture sale = new SaleFixture(target.getUri(), db);
        long activity = sale.createActivity(Instant.now().minusSeconds(5), Instant.now().plusSeconds(3600), SKU, 10, 1, 60);
        long buyer = activity * 1000 + 1;
        HttpResponse<String> reserved = sale.purchase(activity, buyer, SKU, 1, "clock-1");
        assertThat(reserved.body(), reserved.statusCode(), is(202));
        SaleFixture.await("the order", Duration.ofSeconds(30), () -> sale.orders(activity) == 1);
        String orderNo = sale.column("SELECT order_no FROM seckill_order WHERE activity_id = ?", activity).getFirst();

        Map<String, String> env = new HashMap<>(SecondInstance.storesOf(config, devServers));
        env.put("LD_PRELOAD", MachineTools.FAKETIME.toString());
        env.put("FAKETIME", "+" + FAST_SECONDS + "s");
        env.put("FAKETIME_DONT_FAKE_MONOTONIC", "1");
        env.put("FAKETIME_FORCE_MONOTONIC_FIX", "0");
        env.put("NO_FAKE_STAT", "1");
        try (SecondInstance fast = SecondInstance.start(env, db, "seckill.ordering.enabled=false",
                "seckill.settlement.enabled=false", "seckill.admission.token-required=false",
                "seckill.payment.hmac-key=" + KEY, "seckill.payment.price=99.50", "seckill.payment.currency=CNY")) {
            HttpResponse<String> view = sale.send(HttpRequest.newBuilder(fast.base().resolve("/api/v1/activities/" + activity)).GET());
            Instant stated = Instant.parse(SaleFixture.field(view.body(), "serverTime"));
            Instant ledger = ledgerNow(sale);
            long skew = Math.abs(Duration.between(ledger, stated).toMillis());
            assertThat("the fast instance states the ledger's time (it said " + stated + ", the ledger " + ledger + ")",
                    skew, lessThan(2_000L));

            String body = "{\"orderNo\":\"%s\",\"paymentId\":\"clock-pay-%d\",\"amount\":99.50,\"currency\":\"CNY\",\"paidAt\":\"%s\"}"
                    .formatted(orderNo, activity, Instant.now());
            HttpResponse<String> paid = sale.send(HttpRequest.newBuilder(fast.base().resolve("/api/v1/payments/callback"))
                    .header("Content-Type", "application/json")
                    .header("X-Signature", PaymentCallbacks.header(KEY, Instant.now().getEpochSecond(), body))
                    .POST(HttpRequest.BodyPublishers.ofString(body)));
            assertThat("a payment 1 s into a 60 s window: " + paid.body(), paid.statusCode(), is(200));
            assertThat(sale.count("SELECT status FROM seckill_order WHERE order_no = ?", orderNo), is(1L));
        }
    }

    private static Instant ledgerNow(SaleFixture sale) {
        return sale.db.execute().get("SELECT UNIX_TIMESTAMP(NOW(6)) AS now")
                .map(row -> {
                    BigDecimal seconds = new BigDecimal(String.valueOf(row.column("now").get()));
                    return Instant.ofEpochSecond(0, seconds.movePointRight(9).longValueExact());
                }).orElseThrow();
    }
}
