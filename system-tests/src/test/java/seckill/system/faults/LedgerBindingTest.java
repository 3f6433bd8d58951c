package seckill.system.faults;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.helidon.microprofile.testing.junit5.AddConfig;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import seckill.dev.api.DevServers;
import seckill.ledger.api.OrderingSwitch;
import seckill.system.SaleFixture;
import seckill.system.SecondInstance;
import seckill.system.ServiceTest;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;

/**
 * One Redis namespace belongs to one ledger (issue #29, item 8). While this instance's workers are
 * paused with 20 reservations in the stream, a second deployment is started over the same Redis and
 * another, empty database (a staging copy, a wrong variable). It must refuse to start, and every
 * 202 of the first deployment must still become an order in its ledger.
 */
@AddConfig(key = "seckill.admission.token-required", value = "false")
class LedgerBindingTest extends ServiceTest {

    private static final long SKU = 29_801;

    @Inject
    DevServers devServers;

    @Inject
    OrderingSwitch ordering;

    @AfterEach
    void resume() {
        ordering.resume();
    }

    @Test
    void aSecondDeploymentOverTheSameRedisRefusesToStartAndTakesNoEvent() throws Exception {
        SaleFixture sale = new SaleFixture(target.getUri(), db);
        long activity = sale.createOpenActivity(SKU, 20, 1);
        ordering.pause();
        List<String> reserved = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            HttpResponse<String> answer = sale.purchaseRetrying(activity, activity * 1000 + i, SKU, 1, "bind-" + i);
            assertThat(answer.body(), answer.statusCode(), is(202));
            reserved.add(SaleFixture.field(answer.body(), "reservationId"));
        }

        Map<String, String> stores = SecondInstance.storesOf(config, devServers);
        String url = stores.get("SECKILL_DB_URL");
        String otherDatabase = databaseOf(url) + "_other";
        db.execute().dml("DROP DATABASE IF EXISTS " + otherDatabase);
        db.execute().dml("CREATE DATABASE " + otherDatabase);
        stores.put("SECKILL_DB_URL", url.replaceFirst("/" + databaseOf(url) + "(\\?|$)", "/" + otherDatabase + "$1"));
        String log;
        try {
            log = SecondInstance.startRefused(stores, "seckill.admission.token-required=false");
        } catch (AssertionError startedAfterAll) {
            // it ran for a minute over the stream (the defect): the ledger below shows what it did
            log = startedAfterAll.getMessage();
        } finally {
            ordering.resume();
        }

        SaleFixture.await("every reservation settled", Duration.ofSeconds(60), () -> reserved.stream()
                .mapToLong(id -> sale.count("SELECT COUNT(*) FROM seckill_order WHERE reservation_id = ?", id)
                        + sale.count("SELECT COUNT(*) FROM seckill_reservation_failure WHERE reservation_id = ?", id))
                .sum() == 20 || sale.orders(activity) == 20);
        assertThat("every 202 is an order of this deployment's ledger", sale.orders(activity), is(20L));
        assertThat(sale.available(activity, SKU), is(0L));
        assertThat(sale.count("SELECT COUNT(*) FROM " + otherDatabase + ".seckill_reservation_failure"), is(0L));
        assertThat(log, containsString("refusing to start: this Redis namespace belongs to ledger"));
        db.execute().dml("DROP DATABASE IF EXISTS " + otherDatabase);
    }

    private static String databaseOf(String jdbcUrl) {
        String path = jdbcUrl.substring(jdbcUrl.indexOf("//") + 2);
        path = path.substring(path.indexOf('/') + 1);
        int query = path.indexOf('?');
        return query < 0 ? path : path.substring(0, query);
    }
}
