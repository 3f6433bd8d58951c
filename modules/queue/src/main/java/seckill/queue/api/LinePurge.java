package seckill.queue.api;

/**
 * The waiting line's part of a rehearsal's purge (issue #34, docs/rehearsal.md "The purge"): every key of its
 * line ({@code rh:{q:a<id>}:*}), a pattern built from {@code rh:} and the rehearsal id only.
 */
public interface LinePurge {

    /**
     * Deletes the rehearsal's line keys.
     *
     * @return how many keys were deleted
     * @throws IllegalArgumentException for a real activity id
     */
    long purge(long rehearsalId);
}
