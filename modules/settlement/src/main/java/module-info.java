/**
 * Settlement: everything after a reservation is recorded (tracking its status for the buyer; later
 * payment, timeout, refill through the outbox, reconciliation). Owns the tables seckill_payment and
 * seckill_reconciliation. The decisive status changes are the ledger's use cases ({@code OrderPayments},
 * {@code OrderExpiry}); the outbox table is the ledger's, and settlement relays it to Redis through
 * the ledger's {@code RefillOutbox} without naming it.
 * Only {@code seckill.settlement.api} is visible to other modules.
 */
module seckill.settlement {
    requires seckill.ledger;
    requires seckill.reservation;
    requires seckill.admission;
    requires jakarta.json;
    requires microprofile.metrics.api;
    requires io.helidon.dbclient;
    requires jakarta.cdi;
    requires jakarta.inject;
    requires jakarta.annotation;
    requires microprofile.config.api;
    requires java.logging;
    requires microprofile.fault.tolerance.api;
    requires java.sql;

    exports seckill.settlement.api;
}
