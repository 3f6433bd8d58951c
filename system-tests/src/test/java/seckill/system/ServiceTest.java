package seckill.system;

import io.helidon.dbclient.DbClient;
import io.helidon.microprofile.testing.junit5.AddConfig;
import io.helidon.microprofile.testing.junit5.HelidonTest;
import jakarta.inject.Inject;
import jakarta.ws.rs.client.WebTarget;
import org.eclipse.microprofile.config.Config;
import redis.clients.jedis.UnifiedJedis;

/**
 * What every system test starts from: the service, started in-process by {@code @HelidonTest} on a
 * random port over the test's stores (src/test/resources/META-INF/microprofile-config.properties:
 * {@code SECKILL_*} when set, else the embedded servers), with the admin token the fixtures use; and
 * the four handles the tests read it with: the service's address, its ledger, its Redis and its
 * configuration. A test adds its own {@code @AddConfig} and {@code @AddBean} (they add to these) and
 * builds its fixtures by constructor from these fields, e.g. {@code new SaleFixture(target.getUri(), db)}.
 */
@HelidonTest
@AddConfig(key = "seckill.admin.token", value = SaleFixture.ADMIN_TOKEN)
public abstract class ServiceTest {

    /** The service's HTTP address (the in-process instance). */
    @Inject
    protected WebTarget target;

    /** The ledger, through the service's own database client. */
    @Inject
    protected DbClient db;

    /** The service's Redis, through its own client (single node, Sentinel or cluster alike). */
    @Inject
    protected UnifiedJedis redis;

    /** The configuration the service started with (the stores' addresses among it). */
    @Inject
    protected Config config;
}
