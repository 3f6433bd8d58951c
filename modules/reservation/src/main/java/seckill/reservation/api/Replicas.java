package seckill.reservation.api;

/**
 * The replicas a reservation must reach ({@code seckill.redis.min-replica-acks}, in force now) and
 * how many are online at the master (on a cluster, at the master with the fewest).
 */
public record Replicas(long online, int required) {

    /** Whether a reservation can be acknowledged at all: fewer online than required and every one would be in doubt. */
    public boolean enough() {
        return online >= required;
    }
}
