package seckill.reservation.api;

import java.util.Optional;

/**
 * Whether Redis may evict the keys a sale relies on, asked by whoever decides to sell. Every key a
 * reservation touches (a bucket's stock, its buyers, its event stream, its minted ids) expires with
 * the activity, so a {@code volatile-*} {@code maxmemory-policy} reaches them as surely as an
 * {@code allkeys-*} one: only {@code noeviction} keeps them (memory pressure then refuses writes,
 * which the service answers 503, instead of losing reservations already answered 202).
 */
public interface EvictionStatus {

    /**
     * What makes the Redis unsafe to sell on ({@code "maxmemory-policy allkeys-random on 127.0.0.1:6379"}),
     * or empty when every node answered {@code noeviction}. A node that does not answer is not judged
     * here (an unreachable Redis halts sales on its own); Redis failures surface as {@link ReservationUnavailable}
     * only when no node answered at all.
     */
    Optional<String> unsafePolicy();

    /**
     * As {@link #unsafePolicy()}, except that a Redis whose policy cannot be read counts as unsafe
     * ({@code "maxmemory-policy unread on 127.0.0.1:6379"}): the master that does not answer or refuses
     * {@code INFO}, a cluster node that refuses it (a node that does not answer at all evicts nothing
     * and is judged when it answers again). What lifting an eviction halt needs is {@code noeviction}
     * read, not merely no eviction seen.
     */
    Optional<String> unsafeOrUnread();
}
