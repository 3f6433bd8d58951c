package seckill.ledger.api.catalogue;

/**
 * One SKU on sale in an activity: its total stock, how many units one buyer may hold, and how many
 * Redis buckets its stock is split into.
 */
public record SkuLine(long skuId, long total, int perUserLimit, int buckets) {

    public SkuLine {
        if (skuId <= 0 || total < 0 || perUserLimit < 1 || buckets < 1) {
            throw new IllegalArgumentException("invalid SKU line");
        }
    }
}
