package seckill.ordering.sql;

/** What writing one reservation into the ledger came to. */
public enum SettlementOutcome {
    /** A new order was committed. */
    ORDERED,
    /** The reservation already had its order; nothing was written. */
    ALREADY_ORDERED,
    /** The reservation can never become an order; the reason was committed. */
    FAILED,
    /** Nothing was committed; the event must stay pending and be tried again. */
    RETRY
}
