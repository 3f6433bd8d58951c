package seckill.drill.chaos;

import java.util.List;

/**
 * What a chaos schedule is made of, apart from the seed: the SKUs (stock, buckets), how many buyers
 * click how often, the shares of retries, reused requestIds, hostile requests and payments (on time,
 * late, twice), and how many halts and faults a minute. {@link #standard()} is what the command runs;
 * a test may shape its own.
 */
public record PlanShape(List<SkuShape> skus, int buyers, int buyerOpsPerSecond, double retryShare, double reuseShare,
                 double hostileShare, double payShare, double lateShare, double twiceShare, long paymentWindowSeconds,
                 double haltsPerMinute, double faultsPerMinute) {

    record SkuShape(long skuId, long stock, int buckets) {
    }

    /** Demand well over stock (several hundred buyers for 80 units), so the promise that stock sells out is tested. */
    public static PlanShape standard() {
        return new PlanShape(List.of(new SkuShape(1, 30, 1), new SkuShape(2, 30, 2), new SkuShape(3, 20, 4)),
                400, 15, 0.15, 0.05, 0.05, 0.5, 0.2, 0.15, 12, 2, 8);
    }

    /** The same shape with the buyers clicking {@code opsPerSecond} a second in all, their number grown in step. */
    public PlanShape at(int opsPerSecond) {
        if (opsPerSecond == buyerOpsPerSecond) {
            return this;
        }
        int scaled = (int) Math.max(buyers, (long) buyers * opsPerSecond / buyerOpsPerSecond);
        return new PlanShape(skus, scaled, opsPerSecond, retryShare, reuseShare, hostileShare, payShare, lateShare,
                twiceShare, paymentWindowSeconds, haltsPerMinute, faultsPerMinute);
    }
}
