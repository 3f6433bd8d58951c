/**
 * The drills, dispatched by the app's {@code SeckillMain} ({@code java -jar seckill.jar drill ...}):
 * the drill ({@code seckill.drill.api}: buyers through the typed client, an in-process service or one
 * at {@code --url}, faults from outside, then {@code InvariantCheck} audits the stores) and the chaos
 * drill's runner ({@code seckill.drill.chaos}, {@code drill chaos}: service instances as processes,
 * seeded faults, a history the chaos module's checker judges), and the ramp ({@code drill rehearse},
 * {@code seckill.drill.ramp}: load in steps up to 1.5 times a target rate against a deployment, its
 * stores read-only, and the first layer to shed or saturate judged by the plain
 * {@code seckill.drill.ramp.rules}); with {@code --rehearsal} the ramp and the switch drill ({@code drill switches})
 * run as a shadow sale, launched as a rehearsal, every buyer request signed with the edge's mark (the client's
 * {@code RehearsalMark}) and purged at the end. Not part of the service: the app only
 * dispatches to it. It names no table of the ledger: the audit, the wait for a sale to settle and the
 * chaos runner's wait for quiet ask the ledger's {@code LedgerAudit} on a connection of their own.
 * Only {@code seckill.drill.api} is visible to other modules.
 */
module seckill.drill {
    requires seckill.client;
    requires seckill.chaos;
    requires seckill.redis;
    requires seckill.reservation;
    requires seckill.ledger;
    // the embedded stores when none is configured, from the app's dev-libs/
    requires static seckill.dev;
    requires io.helidon.microprofile.server;
    requires io.helidon.dbclient;
    requires jakarta.cdi;
    requires microprofile.config.api;
    requires jakarta.json;
    requires info.picocli;
    requires HdrHistogram;
    requires redis.clients.jedis;
    requires java.net.http;
    requires java.sql;
    requires java.logging;

    exports seckill.drill.api;
    // picocli reads the drill's options reflectively
    opens seckill.drill.api to info.picocli;
}
