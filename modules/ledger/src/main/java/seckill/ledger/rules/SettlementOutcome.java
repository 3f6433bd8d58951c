package seckill.ledger.rules;

/**
 * What writing one reservation into the ledger came to. A database outage is none of these: it is
 * thrown as {@link seckill.ledger.api.LedgerUnavailable} and the event stays pending untouched.
 */
public sealed interface SettlementOutcome {

    /**
     * Whether the event's outcome is now committed, so it may be acknowledged: everything but a
     * refusal, which leaves it pending for another delivery until {@link RefusalCount} says otherwise.
     */
    default boolean settlesTheEvent() {
        return !(this instanceof Rejected);
    }

    /** A new order was committed. */
    record Ordered() implements SettlementOutcome {
    }

    /** The reservation already had its outcome (an order or a recorded failure); nothing was written. */
    record AlreadySettled() implements SettlementOutcome {
    }

    /** The reservation can never become an order; the reason and the refill were committed. */
    record Failed(String reason) implements SettlementOutcome {
    }

    /**
     * The ledger refused the reservation this time (bad data, not enough stock in the ledger);
     * nothing was written. Refusals are counted, and enough of them dead-letter the event.
     */
    record Rejected(String reason) implements SettlementOutcome {
    }
}
