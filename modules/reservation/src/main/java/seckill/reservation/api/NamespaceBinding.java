package seckill.reservation.api;

/**
 * Which ledger this Redis namespace belongs to. Every reservation event in the namespace names an
 * activity of one ledger; an instance over another ledger (a staging copy, a wrong environment
 * variable) would read those events as unknown and acknowledge them, losing buyers' 202s. The first
 * instance to start binds the namespace to its ledger's id; every instance checks it before it
 * reserves or orders anything.
 */
public interface NamespaceBinding {

    /**
     * Binds the namespace to {@code ledgerId} if it belongs to no ledger yet (the first start, or a
     * namespace whose binding was lost) and returns the ledger it belongs to, this one or another.
     *
     * @throws ReservationUnavailable when Redis does not answer
     */
    String bindTo(String ledgerId);

    /**
     * The ledger the namespace is bound to, read without binding it; empty when the binding is lost
     * or was never made.
     *
     * @throws ReservationUnavailable when Redis does not answer
     */
    java.util.Optional<String> owner();

    /**
     * Whether the namespace holds a sale's data (its stream registry): events of some ledger, which
     * only the ledger that bound the namespace before may claim once the binding is lost.
     *
     * @throws ReservationUnavailable when Redis does not answer
     */
    boolean holdsEvents();
}
