package seckill.system.edge;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;

import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import seckill.dev.api.DevServers;
import seckill.system.SaleFixture;
import seckill.system.SecondInstance;
import seckill.system.ServiceTest;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;

/**
 * {@code /health}, {@code /metrics} and {@code /openapi} are the operator's: with the deployable's
 * layout they answer only on the management socket (loopback), and the service port, the one the
 * internet reaches, does not have them. Asked from outside, of a real instance in its own JVM.
 */
class ManagementPortTest extends ServiceTest {

    @Inject
    DevServers devServers;

    @Test
    void healthMetricsAndOpenApiAnswerOnlyOnTheManagementSocket() throws Exception {
        Map<String, String> stores = SecondInstance.storesOf(config, devServers);
        try (SecondInstance instance = SecondInstance.startWithManagementSocket(stores, db,
                "seckill.ordering.enabled=false")) {
            SaleFixture service = new SaleFixture(instance.base(), db);
            SaleFixture management = new SaleFixture(instance.managementBase(), db);
            for (String path : new String[] {"/health", "/health/ready", "/metrics", "/openapi"}) {
                HttpResponse<String> outside = service.get(path, null);
                assertThat(path + " on the service port: " + outside.body(), outside.statusCode(), is(404));
                assertThat(path + " on the management port", management.get(path, null).statusCode(), is(200));
            }
            assertThat(management.get("/metrics", null).body(), containsString("seckill_purchases_in_flight"));
            // the service port still serves the API and the pages
            assertThat(service.get("/", null).statusCode(), is(200));
            assertThat(service.send(HttpRequest.newBuilder(instance.base().resolve("/api/v1/admin/sales"))
                    .header("Authorization", "Bearer " + SaleFixture.ADMIN_TOKEN)).statusCode(), is(200));
            // ... and the management port serves neither
            assertThat(management.get("/", null).statusCode(), is(404));
        }
    }
}
