package seckill.drill.api;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The drill's command line as picocli reads it: each option, its default and its help text. Ranges
 * picocli cannot express (positive counts, at most 64 buckets, a ratio from 0 to 1, a known fault)
 * are checked in {@link #options()}.
 */
@Command(name = "java -jar seckill.jar drill", sortOptions = false, usageHelpWidth = 110,
        footer = {"Verification reads MySQL and Redis directly; with --url, seckill.redis.uri and seckill.db.url "
                + "must name the target's stores.", "See also: drill chaos --help (seeded faults on several instances), "
                + "drill rehearse --help (the ramp that finds the first layer to give), "
                + "drill switches --help (each hot switch's time to effect on every instance)."})
final class DrillArguments {

    @Option(names = "--url", paramLabel = "URL", description = "service to drill (default: start one in-process on "
            + "the embedded default or on the configured seckill.redis.uri / seckill.db.url)")
    String url;

    @Option(names = "--buyers", paramLabel = "N", description = "distinct buyers (default ${DEFAULT-VALUE})")
    int buyers = 5_000;

    @Option(names = "--stock", paramLabel = "N", description = "units per SKU (default ${DEFAULT-VALUE})")
    int stock = 500;

    @Option(names = "--skus", paramLabel = "N", description = "SKUs in the activity (default ${DEFAULT-VALUE})")
    int skus = 1;

    @Option(names = "--concurrency", paramLabel = "N", description = "requests in flight at once (default ${DEFAULT-VALUE})")
    int concurrency = 200;

    @Option(names = "--clicks", paramLabel = "N", description = "purchase clicks per buyer (default ${DEFAULT-VALUE})")
    int clicks = 1;

    @Option(names = "--per-user-limit", paramLabel = "N", description = "units one buyer may hold (default ${DEFAULT-VALUE})")
    int perUserLimit = 1;

    @Option(names = "--buckets", paramLabel = "N",
            description = "stock buckets per SKU, 1..64 (default ${DEFAULT-VALUE}; a hot SKU spread over shards)")
    int buckets = 1;

    @Option(names = "--duration", paramLabel = "SECONDS", description = "cap on the buying phase (default ${DEFAULT-VALUE})")
    int durationSeconds = 60;

    @Option(names = "--settle-timeout", paramLabel = "SECONDS",
            description = "how long to wait for every reservation to be ordered (default ${DEFAULT-VALUE})")
    int settleSeconds = 120;

    @Option(names = "--admin-token", paramLabel = "TOKEN",
            description = "admin token of the service (default: seckill.admin.token, or the dev token)")
    String adminToken;

    @Option(names = "--json", paramLabel = "FILE", description = "also write the report as JSON")
    Path json;

    @Option(names = "--fault", paramLabel = "NAME", description = "inject a fault a third into the sale: "
            + "restart-workers (in-process only), redis-pause (CLIENT PAUSE), db-stall (FLUSH TABLES WITH READ "
            + "LOCK; the database user needs RELOAD), db-down (the in-process service's database connections cut "
            + "by a TCP proxy), redis-failover (SENTINEL FAILOVER; needs a redis-sentinel:// URI)")
    String fault;

    @Option(names = "--fault-seconds", paramLabel = "N", description = "how long the fault lasts (default ${DEFAULT-VALUE})")
    int faultSeconds = 3;

    @Option(names = "--payment-window", paramLabel = "SECONDS",
            description = "payment window of the drill's activity (default ${DEFAULT-VALUE})")
    int paymentWindowSeconds = 900;

    @Option(names = "--pay-ratio", paramLabel = "R", description = "after settling, pay this fraction (0..1) of the "
            + "orders through signed callbacks, leave the rest unpaid and wait until their stock is back on the "
            + "shelf; then reconciliation must be clean (use a short window)")
    Double payRatio;

    @Option(names = "--payment-key", paramLabel = "KEY",
            description = "HMAC key for the callbacks (default: seckill.payment.hmac-key, or the dev key)")
    String paymentKey;

    @Option(names = "--identity-key", paramLabel = "ID=KEY",
            description = "HMAC key (with its key id) the drill signs its buyers' bearer tokens with (default: the "
                    + "first of seckill.identity.hmac-keys, which in dev mode is the dev key)")
    String identityKey;

    DrillOptions options() {
        positive("--buyers", buyers);
        positive("--stock", stock);
        positive("--skus", skus);
        positive("--concurrency", concurrency);
        positive("--clicks", clicks);
        positive("--per-user-limit", perUserLimit);
        positive("--buckets", buckets);
        positive("--duration", durationSeconds);
        positive("--settle-timeout", settleSeconds);
        positive("--fault-seconds", faultSeconds);
        positive("--payment-window", paymentWindowSeconds);
        if (buckets > 64) {
            throw new IllegalArgumentException("--buckets must be at most 64, got " + buckets);
        }
        if (fault != null && !DrillOptions.FAULTS.contains(fault)) {
            throw new IllegalArgumentException("unknown fault " + fault + "; one of " + DrillOptions.FAULTS);
        }
        if (payRatio != null && !(payRatio >= 0 && payRatio <= 1)) {
            throw new IllegalArgumentException("--pay-ratio must be a number from 0 to 1, got " + payRatio);
        }
        return new DrillOptions(Optional.ofNullable(url), buyers, stock, skus, concurrency, clicks, perUserLimit,
                Duration.ofSeconds(durationSeconds), Duration.ofSeconds(settleSeconds), Optional.ofNullable(adminToken),
                Optional.ofNullable(json), Optional.ofNullable(fault), paymentWindowSeconds,
                Optional.ofNullable(payRatio), Optional.ofNullable(paymentKey), buckets,
                Duration.ofSeconds(faultSeconds), Optional.ofNullable(identityKey));
    }

    private static void positive(String name, int value) {
        if (value <= 0) {
            throw new IllegalArgumentException(name + " must be a positive integer, got " + value);
        }
    }
}
