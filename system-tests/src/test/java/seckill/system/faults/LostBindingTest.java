package seckill.system.faults;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

import io.helidon.microprofile.testing.junit5.AddConfig;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import seckill.dev.api.DevServers;
import seckill.system.SaleFixture;
import seckill.system.SecondInstance;
import seckill.system.ServiceTest;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.nullValue;

/**
 * A lost binding is not taken by an empty ledger (#29 item 8, review). This deployment sells and
 * orders; then {@code sk:ledger} is deleted from outside (an operator, an eviction, a failover that
 * lost it) while the namespace still holds the sale. A second deployment over another, empty
 * database starts: it must refuse, saying the namespace is bound to no ledger, and leave the key
 * unclaimed (this class checks the binding rarely, so only the second deployment acts on it).
 */
@AddConfig(key = "seckill.ordering.binding-check-seconds", value = "3600")
class LostBindingTest extends ServiceTest {

    private static final long SKU = 29_951;

    @Inject
    DevServers devServers;

    @Test
    void anEmptyLedgerDoesNotClaimALostBindingOfANamespaceWithASale() throws Exception {
        SaleFixture sale = new SaleFixture(target.getUri(), db);
        long activity = sale.createOpenActivity(SKU, 5, 1);
        HttpResponse<String> bought = sale.send(SaleFixture.asBuyer(HttpRequest.newBuilder(
                        sale.base.resolve("/api/v1/activities/" + activity + "/purchases"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"skuId\":%d,\"quantity\":1,\"requestId\":\"lost\"}"
                        .formatted(SKU))), activity * 1000 + 1));
        assertThat(bought.body(), bought.statusCode(), is(202));
        SaleFixture.await("the order", Duration.ofSeconds(30), () -> sale.orders(activity) == 1);
        String mine = sale.column("SELECT ledger_id FROM seckill_ledger WHERE id = 1").getFirst();

        Map<String, String> stores = SecondInstance.storesOf(config, devServers);
        String url = stores.get("SECKILL_DB_URL");
        String database = url.substring(url.indexOf("//") + 2);
        database = database.substring(database.indexOf('/') + 1).replaceFirst("\\?.*$", "");
        String otherDatabase = database + "_other";
        db.execute().dml("DROP DATABASE IF EXISTS " + otherDatabase);
        db.execute().dml("CREATE DATABASE " + otherDatabase);
        stores.put("SECKILL_DB_URL", url.replaceFirst("/" + database + "(\\?|$)", "/" + otherDatabase + "$1"));
        redis.del("sk:ledger");
        String log;
        String claimed;
        try {
            try {
                log = SecondInstance.startRefused(stores);
            } catch (AssertionError startedAfterAll) {
                log = startedAfterAll.getMessage();
            }
            claimed = redis.get("sk:ledger");
        } finally {
            redis.set("sk:ledger", mine);
            db.execute().dml("DROP DATABASE IF EXISTS " + otherDatabase);
        }
        assertThat("an empty ledger claimed the namespace", claimed, nullValue());
        assertThat(log, containsString("bound to no ledger"));
        assertThat(sale.orders(activity), is(1L));
    }
}
