package seckill.client;

import java.util.List;

/**
 * An activity to launch: name, window (ISO-8601 instants), payment window, and its SKUs with their
 * stock, per-buyer limit and stock buckets (null fields take the service's defaults).
 */
public record NewActivity(String name, String startsAt, String endsAt, Long paymentWindowSeconds, List<Sku> skus) {

    /** A SKU of a new activity. */
    public record Sku(long skuId, long stock, Integer perUserLimit, Integer buckets) {
    }
}
