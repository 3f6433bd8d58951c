package seckill.ledger.api;

import java.util.Optional;

/**
 * Whether this instance's Redis namespace belongs to its ledger, as last checked (at start, then
 * every {@code seckill.ordering.binding-check-seconds}). While it does not, the ordering workers
 * consume nothing and sales are halted: the namespace's events are another ledger's, or nobody can
 * tell whose.
 */
public interface LedgerBinding {

    /** Empty while the namespace is this ledger's; otherwise what is wrong, in words for operators. */
    Optional<String> foreign();
}
