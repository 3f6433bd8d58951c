package seckill.drill.chaos;

import java.util.List;
import java.util.Locale;

/**
 * The Redis a chaos run starts for its instances, and the faults that make sense on it.
 * {@code single}: one {@code redis-server}, each instance through its own TCP proxy (so one
 * instance's Redis can be cut). {@code sentinel}: a master, two replicas and three Sentinels
 * ({@link SentinelGroup}). {@code cluster}: three masters with a replica each ({@link OwnCluster}).
 * Behind Sentinel and on a cluster the instances connect to the nodes the Sentinels or the cluster
 * name, not to an address the runner chose, so a per-instance proxy cannot stand in the way:
 * {@code REDIS_CUT} is not drawn there; {@code REDIS_PAUSE} pauses every master.
 */
public enum Topology {
    SINGLE(List.of(Step.Kind.KILL, Step.Kind.PAUSE_PROCESS, Step.Kind.DB_CUT, Step.Kind.REDIS_CUT,
            Step.Kind.REDIS_PAUSE), List.of(Step.Kind.KEY_LOSS, Step.Kind.EVICTION), List.of()),
    SENTINEL(List.of(Step.Kind.KILL, Step.Kind.PAUSE_PROCESS, Step.Kind.DB_CUT, Step.Kind.REDIS_PAUSE,
            Step.Kind.MASTER_KILL, Step.Kind.REPLICA_FREEZE), List.of(), List.of(Step.Kind.KEY_LOSS, Step.Kind.EVICTION)),
    CLUSTER(List.of(Step.Kind.KILL, Step.Kind.PAUSE_PROCESS, Step.Kind.DB_CUT, Step.Kind.REDIS_PAUSE,
            Step.Kind.MASTER_KILL, Step.Kind.REPLICA_FREEZE), List.of(), List.of(Step.Kind.KEY_LOSS, Step.Kind.EVICTION));

    private final List<Step.Kind> faults;
    private final List<Step.Kind> laterFaults;
    private final List<Step.Kind> lastFaults;

    Topology(List<Step.Kind> faults, List<Step.Kind> laterFaults, List<Step.Kind> lastFaults) {
        this.faults = faults;
        this.laterFaults = laterFaults;
        this.lastFaults = lastFaults;
    }

    /**
     * Fault kinds added on {@code single} after seeds had results ({@code KEY_LOSS}, {@code EVICTION}):
     * each drawn once, after every draw the schedule had then (right after the halts), so a seed's
     * earlier steps stay exactly what they were and these come after them.
     */
    List<Step.Kind> laterFaults() {
        return laterFaults;
    }

    /**
     * The same kinds added later still on {@code sentinel} and {@code cluster} (2026-12-03): drawn once
     * each after every other step of the schedule (after the moved clocks), so every earlier step of a
     * seed on those topologies stays exactly what it was.
     */
    List<Step.Kind> lastFaults() {
        return lastFaults;
    }

    /** The fault kinds a schedule on this topology draws from (each at least once), in drawing order. */
    List<Step.Kind> faults() {
        return faults;
    }

    /** Shards a node fault picks from: one master behind Sentinel, three on the cluster. */
    int shards() {
        return this == CLUSTER ? 3 : 1;
    }

    /** As the option and the history's {@code run} line spell it. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Topology parse(String value) {
        for (Topology t : values()) {
            if (t.label().equals(value)) {
                return t;
            }
        }
        throw new IllegalArgumentException("--topology must be single, sentinel or cluster, not " + value);
    }
}
