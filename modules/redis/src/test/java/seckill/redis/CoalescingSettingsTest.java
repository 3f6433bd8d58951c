package seckill.redis;

import java.lang.reflect.Proxy;
import java.util.Map;
import java.util.Optional;

import org.eclipse.microprofile.config.Config;
import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

class CoalescingSettingsTest {

    /** Only the values given: every other key is absent. */
    private static Config configOf(Map<String, String> values) {
        return (Config) Proxy.newProxyInstance(Config.class.getClassLoader(), new Class<?>[] {Config.class},
                (proxy, method, args) -> {
                    if (!method.getName().equals("getOptionalValue")) {
                        throw new UnsupportedOperationException(method.getName());
                    }
                    String text = values.get((String) args[0]);
                    if (text == null) {
                        return Optional.empty();
                    }
                    Class<?> type = (Class<?>) args[1];
                    if (type == Boolean.class) {
                        return Optional.of(Boolean.valueOf(text));
                    }
                    return type == Integer.class ? Optional.of(Integer.valueOf(text)) : Optional.of(Long.valueOf(text));
                });
    }

    @Test
    void byDefaultCallsCarryUpTo64BuyersAndALoadedLaneWaits500MicrosForCompany() {
        CoalescingSettings settings = CoalescingSettings.from(configOf(Map.of()));

        assertThat(settings.enabled(), is(true));
        assertThat(settings.maxBatch(), is(64));
        assertThat(settings.maxWaitMicros(), is(500L));
        assertThat(settings.callsPerLane(), is(1));
    }

    @Test
    void anOperatorsSettingsWinAndTheOlderKeysAreStillRead() {
        CoalescingSettings settings = CoalescingSettings.from(configOf(Map.of(
                "seckill.redis.coalescing.max-wait-micros", "0",
                "seckill.reservation.coalescing.max-batch", "32")));

        assertThat(settings.maxWaitMicros(), is(0L));
        assertThat(settings.maxBatch(), is(32));
    }
}
