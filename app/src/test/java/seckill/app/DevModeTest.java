package seckill.app;

import java.util.HashMap;
import java.util.Map;

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
    Config config;

    @Inject
    DevServers devServers;

    @Test
    void storesNamedInLowerCaseEnvironmentVariablesAreNotDevMode() throws Exception {
        // the same stores under lower-case names, and no admin token
        Map<String, String> environment = new HashMap<>();
        SecondInstance.storesOf(config, devServers).forEach((name, value) -> {
            if (!name.equals("SECKILL_ADMIN_TOKEN")) {
                environment.put(name.toLowerCase(java.util.Locale.ROOT), value);
            }
        });
        // not dev mode, so no dev admin token: it refuses to start, naming the key
        String log = SecondInstance.startRefused(environment);
        assertThat(log, containsString("seckill.admin.token is not set"));
        assertThat(log.contains("DEV MODE"), is(false));
    }
}
