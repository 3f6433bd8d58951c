package seckill.reservation.api;

/**
 * Which ledger this Redis namespace belongs to. Every reservation event in the namespace names an
 * activity of one ledger; an instance over another ledger (a staging copy, a wrong environment
 * variable) would read those events as unknown and acknowledge them, losing buyers' 202s. The first
 * instance to start binds the namespace to its ledger's id; every instance checks it before it
 * reserves or orders anything. Each world has its own binding (issue #34, docs/rehearsal.md): the real
 * namespace's ({@code sk:ledger}) to the real ledger, the rehearsals' ({@code rh:ledger}) to the shadow
 * ledger; the methods without a world are the real namespace's.
 */
public interface NamespaceBinding {

    /** {@link #bindTo(String)} of one world's namespace. */
    String bindTo(seckill.redis.World world, String ledgerId);

    /** {@link #owner()} of one world's namespace. */
    java.util.Optional<String> owner(seckill.redis.World world);

    /** {@link #holdsEvents()} of one world's namespace (its own stream registry). */
    boolean holdsEvents(seckill.redis.World world);

    /**
     * Binds the namespace to {@code ledgerId} if it belongs to no ledger yet (the first start, or a
     * namespace whose binding was lost) and returns the ledger it belongs to, this one or another.
     *
     * @throws ReservationUnavailable when Redis does not answer
     */
    default String bindTo(String ledgerId) {
        return bindTo(seckill.redis.World.REAL, ledgerId);
    }

    /**
     * The ledger the namespace is bound to, read without binding it; empty when the binding is lost
     * or was never made.
     *
     * @throws ReservationUnavailable when Redis does not answer
     */
    default java.util.Optional<String> owner() {
        return owner(seckill.redis.World.REAL);
    }

    /**
     * Whether the namespace holds a sale's data (its stream registry): events of some ledger, which
     * only the ledger that bound the namespace before may claim once the binding is lost.
     *
     * @throws ReservationUnavailable when Redis does not answer
     */
    default boolean holdsEvents() {
        return holdsEvents(seckill.redis.World.REAL);
    }
}
