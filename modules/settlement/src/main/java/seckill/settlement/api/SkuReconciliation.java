package seckill.settlement.api;

import java.time.Instant;
import java.util.Map;

/**
 * One reconciliation of one SKU: MySQL against itself ({@code total = available + deducted -
 * refilled}) and Redis against the ledger and the stream ({@code reserved in Redis = settled +
 * pending + dead-lettered - released}, per bucket, as of one atomic Redis snapshot). {@code state}
 * is CLEAN, MISMATCH, OVERSOLD, NOT_PREHEATED (the SKU's stock is not in Redis: not an alarm, an
 * operator preheats it again) or IN_FLIGHT (too many events in flight to list, or a bucket's stream was
 * missing from the stream registry and is registered again; judged again next time).
 */
public record SkuReconciliation(long activityId, long skuId, Instant checkedAt, String state,
                                Map<String, Long> figures, String detail) {

    public boolean clean() {
        return "CLEAN".equals(state);
    }

    public boolean alarming() {
        return "MISMATCH".equals(state) || "OVERSOLD".equals(state);
    }
}
