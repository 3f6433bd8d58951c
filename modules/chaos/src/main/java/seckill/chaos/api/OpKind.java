package seckill.chaos.api;

/** What a client operation in the history did. */
public enum OpKind {
    /** A buyer's purchase (new, a repeat click, a retry with the same requestId, a requestId reused on another SKU). */
    PURCHASE,
    /** A purchase the runner sends after the heal to see that an instance sells again. */
    PROBE,
    /** A look-up of a reservation, to learn its order number. */
    LOOKUP,
    /** A signed payment callback (on time, late, or twice). */
    PAYMENT,
    /** An operator halt of one instance. */
    HALT,
    /** An operator resume of one instance. */
    RESUME,
    /** A request meant to be refused: bad JSON, huge numbers, forged or missing identity. */
    HOSTILE,
    /** Reconciliation through the admin API at the end. */
    RECONCILE,
    /** The operator's preheat through the admin API: a bucket's lost keys put back from the ledger. */
    PREHEAT,
    /** A hot switch written to one instance's {@code switches.yaml} (no request: answered 200 when written). */
    SWITCH_FLIP,
    /**
     * A payment callback forged on purpose (bad or no signature, a signature for another body, a
     * wrong amount or currency under a true signature, an order number that does not exist): it must
     * be answered 4xx and pay nothing. Its {@code forged} field names how it was forged.
     */
    HOSTILE_PAYMENT
}
