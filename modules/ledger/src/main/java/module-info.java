/**
 * The ledger: MySQL, the final word on what was sold. Owns the tables seckill_activity, seckill_stock,
 * seckill_order, seckill_stock_log, seckill_reservation_failure, stock_sync_outbox (the refill
 * outbox: every refill is written in the ledger transaction it mirrors; settlement relays it to Redis
 * through {@code RefillOutbox} and never names the table) and seckill_line_turn_left (the waiting line's
 * turns that ran out unused and were left by joining again, kept where the line's Redis keys are not; read
 * and written through {@code LineTurns}); writes seckill_payment (created by
 * settlement's changelog) in the payment transaction, with the order's status.
 * <p>
 * Its use cases, one class per action: the activity catalogue ({@code catalogue.RegisteringActivities},
 * one per ledger behind {@code catalogue.CataloguesByWorld});
 * turning reservation events into orders ({@code OrderingWorkers}, {@code PlacingOrders}); the status
 * transitions ({@code PayingOrders}, {@code ExpiringOrders}, each one compare-and-set); keeping the
 * outbox ({@code KeepingTheOutbox}); the ledger's side of reconciliation and restore
 * ({@code AnsweringReconciliation}, {@code ReadingHoldings}); and the audit an outside checker reads
 * ({@code LedgerAudit}). Its SQL is in {@code sql}. Rehearsals (docs/rehearsal.md) have a ledger of their own,
 * the {@code @ShadowLedger} client the app produces: the use cases choose it by {@code World}
 * ({@code LedgersByWorld}), and {@code RehearsalOrdering} runs a second worker graph over it.
 * <p>
 * Only {@code seckill.ledger.api} and {@code seckill.ledger.api.catalogue} are visible to other
 * modules ({@code seckill.ledger.hooks}, the workers' crash and batch-size hooks, to the app and the
 * benchmark alone). Its config keys keep the prefix {@code seckill.ordering.*}, its metrics the names
 * {@code seckill.ordering.*}.
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
    exports seckill.ledger.api.catalogue;
    // crash and batch-size hooks for the service's own drill, benchmark and tests: no ordinary caller's
    exports seckill.ledger.hooks to seckill.app, seckill.bench;
    // the @ShadowLedger qualifier of the rehearsals' DbClient (docs/rehearsal.md): the app produces it, settlement
    // will need it for its shadow tables
    exports seckill.ledger.wiring to seckill.app, seckill.settlement;
}
