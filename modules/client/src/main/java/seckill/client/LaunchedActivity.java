package seckill.client;

import java.util.List;

/** A launched activity as the admin API answers it. */
public record LaunchedActivity(long activityId, String name, String startsAt, String endsAt, long paymentWindowSeconds,
                               List<NewActivity.Sku> skus) {
}
