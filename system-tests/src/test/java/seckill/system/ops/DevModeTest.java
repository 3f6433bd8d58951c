package seckill.system.ops;

import java.util.HashMap;
import java.util.Map;

import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import seckill.dev.api.DevServers;
import seckill.system.SecondInstance;
import seckill.system.ServiceTest;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;

/**
 * Dev mode is decided by MicroProfile Config itself: an instance given its stores under lower-case
 * environment names (valid MP names) is not in dev mode, so it gets no dev secrets and, without an
 * admin token, refuses to start. Outside dev mode every secret must be there and long enough: each
 * case is a real JVM that must refuse to start and name the key.
 */
class DevModeTest extends ServiceTest {

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

    /**
     * Every key missing at once: the start check collects its problems before it refuses, so one JVM
     * names each of them (one start instead of one per key keeps CI's system tests shorter).
     */
    @Test
    void missingKeysRefuseTheStartNamingEach() throws Exception {
        // the test resources supply keys; an empty value removes them (MicroProfile Config 3)
        String log = SecondInstance.startRefused(SecondInstance.storesOf(config, devServers),
                "seckill.admission.token-keys=", "seckill.identity.hmac-keys=");
        assertThat(log, containsString("seckill.admission.token-keys is not set"));
        assertThat(log, containsString("seckill.identity.hmac-keys or seckill.identity.jwks-file must be set"));
    }

    /**
     * Every key too short, the gateway mode without its key, and the dev sign-in switched on outside dev
     * mode without the second switch, in one start: each is named. The dev sign-in case is the review of
     * #36 item 1: one switch turned the dev sign-in on outside dev mode, minting tokens with the real
     * identity key for any buyer id (confirmed: the start only logged SEVERE).
     */
    @Test
    void shortKeysTheGatewayWithoutItsKeyAndTheDevSignInRefuseTheStartNamingEach() throws Exception {
        Map<String, String> environment = SecondInstance.storesOf(config, devServers);
        environment.put("SECKILL_ADMIN_TOKEN", "only-twenty-chars-ok");
        String log = SecondInstance.startRefused(environment,
                "seckill.admission.token-keys=new=" + "n".repeat(32) + ",old=short-old-key",
                "seckill.payment.hmac-key=short-payment-key",
                "seckill.identity.mode=gateway", "seckill.identity.hmac-keys=idp=short-identity-key",
                "seckill.identity.dev-sign-in=true", "seckill.identity.dev-sign-in-outside-dev-mode=false");
        assertThat(log, containsString("refusing to start"));
        assertThat(log, containsString("seckill.admin.token is shorter than 32 characters"));
        assertThat(log, containsString("seckill.admission.token-keys: the key 'old' is shorter than 32 characters"));
        assertThat(log, containsString("seckill.payment.hmac-key is shorter than 32 characters"));
        assertThat(log, containsString("seckill.identity.gateway.hmac-key is not set"));
        assertThat(log, containsString("seckill.identity.hmac-keys: the key 'idp' is shorter than 32 characters"));
        assertThat(log, containsString("seckill.identity.dev-sign-in is on outside dev mode"));
    }
}
