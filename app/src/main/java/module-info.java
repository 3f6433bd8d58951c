/**
 * The deployable: the HTTP edge (routes, resources, identity, pages), the purchase use case and the
 * wiring of Redis and the database, whose addresses it reads from configuration only (with none set,
 * the dev module, from dev-libs/, supplies its embedded servers' as config). It also dispatches the
 * tools {@code drill} (the drill module) and {@code bench-settle} (the bench module), and serves
 * the benchmarks' trivial endpoint {@code POST /api/v1/baseline}, measured on the service itself. It may use the modules only through their exported api packages; javac
 * rejects anything else.
 */
module seckill.app {
    requires seckill.redis;
    requires seckill.admission;
    requires seckill.reservation;
    requires seckill.ledger;
    requires seckill.settlement;
    requires seckill.queue;
    requires seckill.client;
    requires seckill.bench;
    requires seckill.drill;

    requires io.helidon.microprofile.cdi;
    requires io.helidon.microprofile.server;
    requires io.helidon.webserver;
    requires io.helidon.dbclient;
    requires io.helidon.config;
    requires io.helidon.config.yaml.mp;
    requires io.helidon.common.config;
    requires jakarta.cdi;
    requires jakarta.inject;
    requires jakarta.annotation;
    requires jakarta.ws.rs;
    requires jakarta.json;
    requires microprofile.config.api;
    requires microprofile.health.api;
    requires microprofile.fault.tolerance.api;
    requires microprofile.metrics.api;
    requires org.apache.commons.pool2;
    requires redis.clients.jedis;
    requires liquibase.core;
    // the dev module: compile-time constants only (its config source's name, the dev secrets)
    requires static seckill.dev;
    requires java.logging;
    requires java.management;
    requires jdk.management;
    requires java.sql;
    requires com.nimbusds.jose.jwt;
    requires com.github.benmanes.caffeine;

    exports seckill.app;
    opens seckill.app.http;
    opens seckill.app.health;
    opens seckill.app.infra;
    opens seckill.app.identity;
    opens seckill.app.sale;

    provides org.eclipse.microprofile.config.spi.ConfigSource with seckill.app.infra.ConfigDirectorySource,
            seckill.app.infra.SwitchesFileSource, seckill.app.infra.DevDefaultsSource, seckill.app.infra.ConnectionCapSource;
    provides jakarta.enterprise.inject.spi.Extension with seckill.app.infra.ConnectionLimits;
}
