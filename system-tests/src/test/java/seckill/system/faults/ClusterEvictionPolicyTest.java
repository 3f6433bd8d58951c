package seckill.system.faults;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

import io.helidon.microprofile.testing.junit5.AddConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import seckill.system.ClusterTopology;
import seckill.system.SaleFixture;
import seckill.system.ServiceTest;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;

/**
 * {@link EvictionPolicyTest}'s promise on a Redis Cluster (issue #30, the chaos drill's {@code EVICTION}
 * on the cluster): the policy is per node, so the service must read it on every master, not on the one
 * its client happens to ask. Three masters with a replica each ({@link ClusterTopology}); an evicting
 * policy under a memory limit is set from outside on one master at a time: each time the instance
 * halts sales naming that policy and that node (purchases 503 {@code HALTED}, never 202), and with
 * {@code noeviction} back it resumes by itself and sells.
 */
@AddConfig(key = "seckill.redis.timeout-millis", value = "1000")
@AddConfig(key = "seckill.redis.min-replica-acks", value = "1")
@AddConfig(key = "seckill.redis.replica-ack-timeout-millis", value = "100")
@AddConfig(key = "seckill.admission.rate-limit-partitions", value = "3")
class ClusterEvictionPolicyTest extends ServiceTest {

    @RegisterExtension
    static final ClusterTopology CLUSTER = new ClusterTopology();

    private static final long SKU = 30_551;

    @Test
    void anEvictingPolicyOnAnyOneMasterHaltsSalesUntilNoevictionIsBack() {
        SaleFixture sale = new SaleFixture(target.getUri(), db);
        SaleFixture.await("sales open", Duration.ofSeconds(30), () -> sales(sale).contains("\"state\":\"OPEN\""));
        long activity = sale.createBucketedActivity(SKU, 30, 3);
        long buyer = activity * 1000;
        assertThat(sale.purchaseRetrying(activity, buyer + 1, SKU, 1, "before").statusCode(), is(202));
        List<HostAndPort> masters = CLUSTER.masters();
        assertThat(masters.toString(), masters.size(), is(3));
        int i = 10;
        for (HostAndPort master : masters) {
            try (Jedis outside = new Jedis(master)) {
                outside.configSet("maxmemory", "512mb");
                outside.configSet("maxmemory-policy", "allkeys-random");
                try {
                    SaleFixture.await("sales halted, naming the policy on " + master, Duration.ofSeconds(10),
                            () -> {
                                String sales = sales(sale);
                                return sales.contains("\"state\":\"HALTED\"") && sales.contains("allkeys-random")
                                        && sales.contains(":" + master.getPort());
                            });
                    HttpResponse<String> refused = sale.purchase(activity, buyer + i, SKU, 1, "during-" + i);
                    assertThat(refused.body(), refused.statusCode(), is(503));
                    assertThat(refused.body(), containsString("HALTED"));
                } finally {
                    outside.configSet("maxmemory-policy", "noeviction");
                    outside.configSet("maxmemory", "0");
                }
            }
            SaleFixture.await("sales resumed by themselves after " + master, Duration.ofSeconds(30),
                    () -> sales(sale).contains("\"state\":\"OPEN\""));
            i++;
        }
        assertThat(sale.purchaseRetrying(activity, buyer + 2, SKU, 1, "after").statusCode(), is(202));
        SaleFixture.await("the two 202s ordered", Duration.ofSeconds(30), () -> sale.orders(activity) == 2);
    }

    private static String sales(SaleFixture sale) {
        return sale.send(HttpRequest.newBuilder(sale.base.resolve("/api/v1/admin/sales"))
                .header("Authorization", "Bearer " + SaleFixture.ADMIN_TOKEN).GET()).body();
    }
}
