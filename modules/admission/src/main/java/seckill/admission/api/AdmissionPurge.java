package seckill.admission.api;

import java.util.List;

/**
 * Admission's part of a rehearsal's purge (issue #34, docs/rehearsal.md "The purge"): the rehearsal is told sold
 * out on {@code rh:soldout} (no instance admits another purchase of it), then its keys go: tokens, challenges,
 * rate leases ({@code rh:tok:{a<id>:*}, {@code rh:chal:{a<id>:*}, {@code rh:{rl:a<id>:*}). Patterns built from
 * {@code rh:} and the rehearsal id only ({@code seckill.redis.RehearsalKeys}): no real key can match.
 */
public interface AdmissionPurge {

    /**
     * Stops admitting purchases of the rehearsal's SKUs everywhere, then deletes its admission keys.
     *
     * @return how many keys were deleted
     * @throws IllegalArgumentException for a real activity id
     */
    long purge(long rehearsalId, List<Long> skuIds);
}
