/**
 * Ordering: turns reservation events into orders in MySQL, the final ledger. Owns the tables
 * seckill_activity, seckill_stock, seckill_order, seckill_stock_log, seckill_reservation_failure and
 * stock_sync_outbox (refills are written in the ledger transaction they mirror); writes seckill_payment
 * (created by settlement's changelog) in the payment transaction, with the order's status.
 * Only {@code seckill.ledger.api} is visible to other modules ({@code seckill.ledger.hooks}, the workers'
 * crash and batch-size hooks, to {@code seckill.app} alone).
 */
module seckill.ledger {
    requires transitive seckill.reservation;
    requires io.helidon.dbclient;
    requires io.helidon.common;
    requires jakarta.cdi;
    requires jakarta.inject;
    requires jakarta.annotation;
    requires microprofile.config.api;
    requires microprofile.metrics.api;
    requires java.logging;
    requires com.github.benmanes.caffeine;
    requires java.sql;

    exports seckill.ledger.api;
    // crash and batch-size hooks for the service's own drill, benchmark and tests: no ordinary caller's
    exports seckill.ledger.hooks to seckill.app, seckill.bench;
}
