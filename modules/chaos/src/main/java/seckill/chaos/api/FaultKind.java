package seckill.chaos.api;

/** The faults a chaos run injects, each from outside the service. */
public enum FaultKind {
    /** {@code kill -9} of an instance's process, started again on the same port when the fault ends. */
    KILL,
    /** {@code SIGSTOP} of an instance's process, {@code SIGCONT} when the fault ends (a long GC pause). */
    PAUSE_PROCESS,
    /** Every database connection of one instance reset through its proxy; new ones refused. */
    DB_CUT,
    /** Every Redis connection of one instance reset through its proxy; new ones refused. */
    REDIS_CUT,
    /** Redis stops answering every client ({@code CLIENT PAUSE}). */
    REDIS_PAUSE,
    /**
     * {@code kill -9} of a Redis master (the one Sentinel names, or one cluster shard's); once its shard
     * has failed over it is started again on its port and rejoins as a replica.
     */
    MASTER_KILL,
    /** {@code SIGSTOP} of a Redis replica, {@code SIGCONT} when the fault ends. */
    REPLICA_FREEZE,
    /**
     * Keys the service relies on deleted from outside (an operator's {@code DEL}, an eviction, a failover
     * to a lagging replica): a quiet bucket's keys whole (then preheated again from the ledger when the
     * fault ends, as an operator would), the stream registry, or the node id leases.
     */
    KEY_LOSS,
    /**
     * {@code CONFIG SET maxmemory} and {@code maxmemory-policy} on the run's Redis: {@code noeviction} at the
     * memory in use (writes refused: OOM), or an evicting policy with headroom (the service must halt until
     * it is {@code noeviction} again); both reverted when the fault ends.
     */
    EVICTION,
    /**
     * One instance's wall clock ({@code System.currentTimeMillis}, {@code Instant.now}) moved forward or back
     * by seconds to minutes while it runs, then put back (libfaketime's timestamp file, rewritten by the
     * runner; monotonic time stays real). The target names the instance and the offset, e.g.
     * {@code instance 1: clock +120 s}.
     */
    CLOCK_MOVE
}
