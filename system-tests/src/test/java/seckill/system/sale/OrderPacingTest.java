package seckill.system.sale;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import io.helidon.microprofile.testing.junit5.AddConfig;
import org.junit.jupiter.api.Test;
import seckill.system.SaleFixture;
import seckill.system.ServiceTest;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.hamcrest.Matchers.is;

/**
 * Peak shaving: with {@code seckill.ordering.max-orders-per-second} set, a burst of reservations is
 * absorbed by the stream at once and turned into orders no faster than the cap (one second's worth
 * of burst, then the rate), and all of them become orders in the end. The count is read from the
 * ledger while it drains.
 */
@AddConfig(key = "seckill.ordering.max-orders-per-second", value = "100")
class OrderPacingTest extends ServiceTest {

    private static final long SKU = 7101;
    private static final int UNITS = 300;

    @Test
    void theLedgerWritesAtTheCapAfterABurst() throws Exception {
        SaleFixture sale = new SaleFixture(target.getUri(), db);
        long activity = sale.createOpenActivity(SKU, UNITS, 1);
        long start = System.nanoTime();
        List<Future<Integer>> answers = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(32)) {
            for (int i = 1; i <= UNITS; i++) {
                long user = activity * 1000 + i;
                answers.add(pool.submit(() -> sale.purchaseRetrying(activity, user, SKU, 1, "p-" + user).statusCode()));
            }
            List<String> violations = new ArrayList<>();
            long orders = 0;
            while (orders < UNITS) {
                orders = sale.orders(activity);
                double seconds = (System.nanoTime() - start) / 1e9;
                // one second's burst, then 100 per second, plus one batch the clock rounds in
                if (orders > 100 + 100 * seconds + 5) {
                    violations.add(orders + " orders after " + seconds + " s");
                }
                if (seconds > 60) {
                    throw new AssertionError("only " + orders + " orders after 60 s");
                }
                Thread.sleep(50);
            }
            assertThat(violations, empty());
            for (Future<Integer> answer : answers) {
                assertThat(answer.get(), is(202));
            }
        }
        // 300 units at 100 per second after a 100-unit burst cannot drain in less than two seconds
        assertThat((System.nanoTime() - start) / 1e9, greaterThanOrEqualTo(2.0));
        assertThat(sale.orders(activity), is((long) UNITS));
    }
}
