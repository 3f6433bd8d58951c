package seckill.reservation.api;

/**
 * The reservation module's part of a rehearsal's purge (issue #34, docs/rehearsal.md "The purge"): its bucket
 * streams leave {@code rh:streams} (no worker reads them again), then every key of its buckets goes
 * ({@code rh:{a<id>:s*}: stock, events, served, dead letters, lost, windows). Patterns built from {@code rh:}
 * and the rehearsal id only, so no real key, nor another rehearsal's, can match.
 */
public interface StockPurge {

    /**
     * Unlists the rehearsal's streams and deletes its stock keys.
     *
     * @return how many keys were deleted
     * @throws IllegalArgumentException for a real activity id
     */
    long purge(long rehearsalId);
}
