package seckill.app.infra;

import java.util.Map;
import java.util.Set;
import java.util.logging.Logger;

import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.spi.ConfigProviderResolver;
import org.eclipse.microprofile.config.spi.ConfigSource;

/**
 * Dev mode in one place. When neither {@code seckill.redis.uri} nor {@code seckill.db.url} is set in
 * any source MicroProfile Config reads, the service runs on embedded servers, and this lowest-ranked
 * source supplies well-known dev values for the secrets every module otherwise requires (the admin
 * token, the payment key, the purchase-token keys and the buyers' identity key, with the dev sign-in on) and a loopback {@code server.host}. Any real
 * value from another source wins. Outside dev mode it supplies nothing, so a missing secret stays
 * missing.
 */
public final class DevDefaultsSource implements ConfigSource {

    private static final Logger LOG = Logger.getLogger(DevDefaultsSource.class.getName());
    // compile-time constants of the dev module (the service runs without it on its class path)
    public static final String ADMIN_TOKEN = seckill.dev.api.DevSecrets.ADMIN_TOKEN;
    /** The dev mode's identity key (id {@code dev}): public knowledge, so any dev token is anyone's. */
    public static final String IDENTITY_KEY = seckill.dev.api.DevSecrets.IDENTITY_KEY;
    static final Map<String, String> DEV_SECRETS = Map.of(
            "seckill.admin.token", ADMIN_TOKEN,
            "seckill.payment.hmac-key", "dev-payment-key",
            // the one price a payment must equal (not a secret, but a production price is the operator's)
            "seckill.payment.price", "1.00",
            "seckill.payment.currency", "CNY",
            "seckill.admission.token-keys", "dev=dev-purchase-token-key",
            // buyers' bearer tokens: the dev key signs and verifies them, and the dev sign-in mints them
            "seckill.identity.hmac-keys", "dev=" + IDENTITY_KEY,
            "seckill.identity.dev-sign-in", "true",
            // a dev instance listens on loopback only, unless server.host is set explicitly
            "server.host", "127.0.0.1",
            // the benchmarks' trivial endpoint is on in dev mode only
            "seckill.baseline.enabled", "true");

    private final Map<String, String> values;

    public DevDefaultsSource() {
        Config others = ConfigProviderResolver.instance().getBuilder().addDefaultSources()
                .withSources(new ConfigDirectorySource()).build();
        boolean devMode = isDevMode(others);
        values = devMode ? DEV_SECRETS : Map.of();
        if (devMode) {
            LOG.warning("DEV MODE: no Redis or database configured; unless set, the admin token is '" + ADMIN_TOKEN
                    + "' and the payment, purchase-token and identity keys are well-known DEV keys (POST /api/v1/dev/sign-in "
                    + "signs anyone in). Never run like this in "
                    + "production.");
        }
    }

    /**
     * Dev mode: neither store is configured. This source supplies neither key; the dev module's
     * source (its embedded servers' addresses, when the dev module is on the class path) is left out
     * of the question, since it answers exactly when nothing else does.
     */
    public static boolean isDevMode(Config config) {
        Config others = withoutDevStores(config);
        return !configured(others, "seckill.redis.uri") && !configured(others, "seckill.db.url");
    }

    /**
     * Asks MicroProfile Config itself, built from every other source this service reads (system
     * properties, the environment in every name form the specification maps, the properties files,
     * the config directory), so no way of setting a store is missed; never a hand-written lookup.
     * This source is left out of that build: it must not answer its own question; nor is the dev
     * module's.
     */
    private static boolean configured(Config others, String key) {
        return others.getOptionalValue(key, String.class).filter(v -> !v.isBlank()).isPresent();
    }

    /** The same config without the dev module's source (its embedded servers' addresses). */
    private static Config withoutDevStores(Config config) {
        java.util.List<ConfigSource> sources = new java.util.ArrayList<>();
        config.getConfigSources().forEach(source -> {
            // a compile-time constant: the service runs without the dev module on its class path
            if (!source.getName().equals(seckill.dev.api.DevServers.CONFIG_SOURCE_NAME)) {
                sources.add(source);
            }
        });
        return ConfigProviderResolver.instance().getBuilder().withSources(sources.toArray(ConfigSource[]::new)).build();
    }

    @Override
    public Set<String> getPropertyNames() {
        return values.keySet();
    }

    @Override
    public String getValue(String propertyName) {
        return values.get(propertyName);
    }

    @Override
    public String getName() {
        return "dev-defaults";
    }

    @Override
    public int getOrdinal() {
        return 1;
    }
}
