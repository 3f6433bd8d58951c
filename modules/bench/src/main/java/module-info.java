/**
 * The settlement benchmark ({@code java -jar seckill.jar bench-settle}, dispatched by the app's
 * {@code SeckillMain}): starts the service in-process, queues reservations through the reservation
 * module's api and times the ordering workers turning them into orders; its ceiling is the same rows
 * written directly, through the ledger module's {@code LedgerBenchmark}. It names no table and no
 * Redis key; the only SQL it sends is about the database server itself (resting InnoDB between
 * phases). Not part of the service: the app only dispatches to it.
 */
module seckill.bench {
    requires seckill.reservation;
    requires seckill.ledger;
    requires io.helidon.microprofile.server;
    requires io.helidon.dbclient;
    requires jakarta.cdi;
    requires microprofile.config.api;

    exports seckill.bench.api;
}
