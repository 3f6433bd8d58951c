package seckill.app;

import java.util.HashMap;
import java.util.Map;

import io.helidon.dbclient.DbClient;
import io.helidon.microprofile.testing.junit5.AddConfig;
import io.helidon.microprofile.testing.junit5.HelidonTest;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.Config;
import org.junit.jupiter.api.Test;
import seckill.app.infra.DevServers;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;

/**
 * Dev mode is decided by MicroProfile Config itself: an instance given its stores under lower-case
 * environment names (valid MP names) is not in dev mode, so it gets no dev secrets and, without an
 * admin token, refuses to start.
 */
@HelidonTest
@AddConfig(key = "seckill.admin.token", value = SaleFixture.ADMIN_TOKEN)
class DevModeTest {

    @Inject
    DbClient db;

    @Inject
    Config config;

    @Inject
    DevServers devServers;

    @Test
    void storesNamedInLowerCaseEnvironmentVariablesAreNotDevMode() throws Exception {
        Map<String, String> environment = new HashMap<>();
        environment.put("seckill_redis_uri", config.getOptionalValue("seckill.redis.uri", String.class)
                .orElseGet(devServers::redisUri));
        environment.put("seckill_db_url", config.getOptionalValue("seckill.db.url", String.class)
                .orElseGet(devServers::jdbcUrl));
        environment.put("seckill_db_user", config.getOptionalValue("seckill.db.user", String.class).orElse("root"));
        config.getOptionalValue("seckill.db.password", String.class).ifPresent(p -> environment.put("seckill_db_password", p));
        // not dev mode, so no dev admin token: it refuses to start, naming the key
        String log = SecondInstance.startRefused(environment);
        assertThat(log, containsString("seckill.admin.token is not set"));
        assertThat(log.contains("DEV MODE"), is(false));
    }
}
