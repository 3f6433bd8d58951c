package seckill.ledger.api;

import seckill.reservation.api.ReservationId;

/**
 * The ledger module's door for support: everything the ledger holds of one reservation (its
 * order and payment, its recorded failure and the refusals before it, its refill and whether the
 * outbox applied it), read in one go.
 */
public interface LedgerTrail {

    LedgerTrace follow(ReservationId id);
}
