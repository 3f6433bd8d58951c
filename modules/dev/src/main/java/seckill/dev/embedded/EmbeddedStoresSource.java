package seckill.dev.embedded;

import java.util.Set;

import org.eclipse.microprofile.config.spi.ConfigSource;
import seckill.dev.api.DevServers;

/**
 * The stores of the zero-setup default, as configuration: {@code seckill.redis.uri} and
 * {@code seckill.db.url} of the embedded servers. The lowest-ranked source, so a store configured
 * anywhere else wins and this source is never asked for it; a server starts the first time its key
 * is asked for here, so a service that configured both starts neither. The embedded MariaDB's user
 * is {@code root} with no password, which is what the service assumes when {@code seckill.db.user}
 * is not set.
 */
public final class EmbeddedStoresSource implements ConfigSource {

    static final String REDIS_URI = "seckill.redis.uri";
    static final String DB_URL = "seckill.db.url";

    // a handle only: the servers are JVM-wide and stopped by DevServersLifecycle
    private final DevServers servers = new DevServers(true);

    @Override
    public Set<String> getPropertyNames() {
        return Set.of(REDIS_URI, DB_URL);
    }

    @Override
    public String getValue(String propertyName) {
        return switch (propertyName) {
            case REDIS_URI -> servers.redisUri();
            case DB_URL -> servers.jdbcUrl();
            default -> null;
        };
    }

    @Override
    public String getName() {
        return DevServers.CONFIG_SOURCE_NAME;
    }

    @Override
    public int getOrdinal() {
        return 0;
    }
}
