package seckill.system.faults;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.helidon.microprofile.testing.junit5.AddConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Protocol;
import seckill.system.SaleFixture;
import seckill.system.SentinelTopology;
import seckill.system.ServiceTest;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;

/**
 * {@link EvictionPolicyTest}'s promise behind Sentinel (issue #30, the chaos drill's {@code EVICTION}
 * there): the policy the service judges is the one of the master the Sentinels name, whichever node
 * that is now. An evicting policy under a memory limit set from outside on the master halts sales
 * naming it; set on both replicas only (a replica does not evict: {@code replica-ignore-maxmemory}),
 * then a failover ({@code SENTINEL FAILOVER}) makes one of them the master: the instance halts again,
 * naming the policy (the service reads the master its Sentinel client follows). With {@code noeviction} back on every node it resumes by itself and sells.
 */
@AddConfig(key = "seckill.redis.timeout-millis", value = "1000")
class SentinelEvictionPolicyTest extends ServiceTest {

    @RegisterExtension
    static final SentinelTopology TOPOLOGY = new SentinelTopology();

    private static final long SKU = 30_561;

    @Test
    void anEvictingPolicyOnTheMasterTheSentinelsNameHaltsSalesAlsoAfterAFailover() {
        SaleFixture sale = new SaleFixture(target.getUri(), db);
        SaleFixture.await("sales open", Duration.ofSeconds(30), () -> sales(sale).contains("\"state\":\"OPEN\""));
        long activity = sale.createOpenActivity(SKU, 30, 1);
        long buyer = activity * 1000;
        assertThat(sale.purchaseRetrying(activity, buyer + 1, SKU, 1, "before").statusCode(), is(202));

        HostAndPort master = TOPOLOGY.master();
        setEvicting(master);
        try {
            awaitHaltNaming(sale, master);
            HttpResponse<String> refused = sale.purchase(activity, buyer + 2, SKU, 1, "on-master");
            assertThat(refused.body(), refused.statusCode(), is(503));
            assertThat(refused.body(), containsString("HALTED"));
        } finally {
            setSafe(master);
        }
        SaleFixture.await("sales resumed by themselves", Duration.ofSeconds(30),
                () -> sales(sale).contains("\"state\":\"OPEN\""));

        // the nodes that may be promoted: the replicas now
        List<HostAndPort> replicas = new ArrayList<>(TOPOLOGY.replicas());
        replicas.add(master);
        replicas.removeIf(n -> n.equals(master));
        replicas.forEach(this::setEvicting);
        try {
            try (Jedis sentinel = new Jedis(TOPOLOGY.sentinel())) {
                sentinel.sendCommand(Protocol.Command.SENTINEL, "FAILOVER", SentinelTopology.MASTER_NAME);
            }
            SaleFixture.await("the Sentinels name another master", Duration.ofSeconds(30),
                    () -> !TOPOLOGY.master().equals(master));
            HostAndPort promoted = TOPOLOGY.master();
            assertThat(replicas.contains(promoted), is(true));
            awaitHaltNaming(sale, promoted);
            HttpResponse<String> refused = sale.purchase(activity, buyer + 3, SKU, 1, "after-failover");
            assertThat(refused.body(), refused.statusCode(), not(is(202)));
        } finally {
            replicas.forEach(this::setSafe);
        }
        SaleFixture.await("sales resumed by themselves after the failover", Duration.ofSeconds(60),
                () -> sales(sale).contains("\"state\":\"OPEN\""));
        assertThat(sale.purchaseRetrying(activity, buyer + 4, SKU, 1, "after").statusCode(), is(202));
        SaleFixture.await("the two 202s ordered", Duration.ofSeconds(30), () -> sale.orders(activity) == 2);
    }

    private void setEvicting(HostAndPort node) {
        try (Jedis outside = new Jedis(node)) {
            outside.configSet("maxmemory", "512mb");
            outside.configSet("maxmemory-policy", "allkeys-random");
        }
    }

    private void setSafe(HostAndPort node) {
        try (Jedis outside = new Jedis(node)) {
            outside.configSet("maxmemory-policy", "noeviction");
            outside.configSet("maxmemory", "0");
        }
    }

    private static void awaitHaltNaming(SaleFixture sale, HostAndPort node) {
        SaleFixture.await("sales halted for the policy of " + node, Duration.ofSeconds(20), () -> {
            String sales = sales(sale);
            return sales.contains("\"state\":\"HALTED\"") && sales.contains("allkeys-random");
        });
    }

    private static String sales(SaleFixture sale) {
        return sale.send(HttpRequest.newBuilder(sale.base.resolve("/api/v1/admin/sales"))
                .header("Authorization", "Bearer " + SaleFixture.ADMIN_TOKEN).GET()).body();
    }
}
