/**
 * The system tests: the service as a whole (module {@code seckill.app}, started in-process by
 * {@code @HelidonTest} and as further JVMs), in packages by room: {@code sale}, {@code faults},
 * {@code edge}, {@code browser}, {@code chaos}, {@code ops}, and {@code architecture} (what every
 * module's {@code api} and {@code rules} packages may import, and javac's module boundary). There is
 * no main code: this descriptor is what the tests, compiled into this module, may see, so javac holds
 * them to each module's exported packages as it holds the app. Two exceptions are granted in the pom,
 * by name ({@code seckill.ledger.hooks}, the workers' crash points; {@code seckill.drill.chaos}, the
 * chaos drill's runner). Tests run on the class path, as the service does.
 */
module seckill.system {
    requires seckill.app;
    requires seckill.redis;
    requires seckill.admission;
    requires seckill.reservation;
    requires seckill.ledger;
    requires seckill.settlement;
    requires seckill.client;
    requires seckill.chaos;
    requires seckill.drill;
    requires seckill.dev;

    requires io.helidon.dbclient;
    requires io.helidon.config;
    requires jakarta.cdi;
    requires jakarta.inject;
    requires jakarta.annotation;
    requires jakarta.ws.rs;
    requires jakarta.json;
    requires microprofile.config.api;
    requires microprofile.metrics.api;
    requires redis.clients.jedis;
    requires embedded.redis;

    // what the tests use of the JDK: HTTP to the service, JDBC, logs, captcha pictures, javac (ModuleBoundaryTest)
    requires java.net.http;
    // a recording upstream in the instances' place behind the shipped edge (EdgeTest)
    requires jdk.httpserver;
    requires java.sql;
    requires java.logging;
    requires java.desktop;
    requires java.compiler;
    requires java.management;
}
