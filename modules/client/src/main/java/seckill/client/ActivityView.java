package seckill.client;

import java.util.List;

/**
 * An activity as buyers see it: its window, and per SKU the stock, the per-buyer limit, a hint of
 * what remains and whether it is sold out; {@code state} is UPCOMING, OPEN, SOLD_OUT or ENDED;
 * {@code serverTime} is the service's clock when it answered (count down to the start on it).
 */
public record ActivityView(long activityId, String name, String startsAt, String endsAt, long paymentWindowSeconds,
                           String state, List<Sku> skus, String serverTime) {

    /**
     * One SKU of the activity; {@code remaining} is null when the service cannot tell right now;
     * {@code name}, {@code price} and {@code pictureUrl} (a path on the service) are null for a SKU
     * launched without them (show it as "SKU id", without a price).
     */
    public record Sku(long skuId, long stock, int perUserLimit, Long remaining, boolean soldOut, String name,
                      NewActivity.Price price, String pictureUrl) {
    }
}
