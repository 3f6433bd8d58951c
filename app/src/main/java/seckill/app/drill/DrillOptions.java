package seckill.app.drill;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Options of {@code seckill.jar drill}. Parsed from {@code --name value} pairs; unknown or malformed
 * options are an error with the usage text, never silently ignored.
 */
public record DrillOptions(Optional<String> url, int buyers, long stock, int skus, int concurrency, int clicks,
                           int perUserLimit, Duration duration, Duration settleTimeout, Optional<String> adminToken,
                           Optional<Path> json, Optional<String> fault, int paymentWindowSeconds,
                           Optional<Double> payRatio, Optional<String> paymentKey, int buckets,
                           Duration faultLength) {

    public static final String USAGE = """
            usage: java -jar seckill.jar drill [options]
              --url URL               service to drill (default: start one in-process on the embedded default
                                      or on the configured seckill.redis.uri / seckill.db.url)
              --buyers N              distinct buyers (default 5000)
              --stock N               units per SKU (default 500)
              --skus N                SKUs in the activity (default 1)
              --concurrency N         requests in flight at once (default 200)
              --clicks N              purchase clicks per buyer (default 1)
              --per-user-limit N      units one buyer may hold (default 1)
              --buckets N             stock buckets per SKU, 1..64 (default 1; a hot SKU spread over shards)
              --duration SECONDS      cap on the buying phase (default 60)
              --settle-timeout SECONDS how long to wait for every reservation to be ordered (default 120)
              --admin-token TOKEN     admin token of the service (default: seckill.admin.token, or the dev token)
              --json FILE             also write the report as JSON
              --fault NAME            inject a fault a third into the sale: restart-workers (in-process
                                      only), redis-pause (CLIENT PAUSE), db-stall (FLUSH TABLES WITH READ
                                      LOCK; the database user needs RELOAD), db-down (the in-process
                                      service's database connections cut by a TCP proxy)
              --fault-seconds N       how long the fault lasts (default 3)
              --payment-window SECONDS payment window of the drill's activity (default 900)
              --pay-ratio R           after settling, pay this fraction (0..1) of the orders through signed
                                      callbacks, leave the rest unpaid and wait until their stock is back on
                                      the shelf; then reconciliation must be clean (use a short window)
              --payment-key KEY       HMAC key for the callbacks (default: seckill.payment.hmac-key, or the
                                      dev key)
            Verification reads MySQL and Redis directly; with --url, seckill.redis.uri and seckill.db.url must
            name the target's stores.""";

    /** The faults a drill can inject. */
    public static final List<String> FAULTS = List.of("restart-workers", "redis-pause", "db-stall", "db-down");

    public static DrillOptions parse(String[] args) {
        Optional<String> url = Optional.empty();
        int buyers = 5_000;
        long stock = 500;
        int skus = 1;
        int concurrency = 200;
        int clicks = 1;
        int perUserLimit = 1;
        long duration = 60;
        long settle = 120;
        Optional<String> token = Optional.empty();
        Optional<Path> json = Optional.empty();
        Optional<String> fault = Optional.empty();
        int paymentWindow = 900;
        Optional<Double> payRatio = Optional.empty();
        Optional<String> paymentKey = Optional.empty();
        int buckets = 1;
        long faultSeconds = 3;
        for (int i = 0; i < args.length; i++) {
            String name = args[i];
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException("option " + name + " needs a value");
            }
            String value = args[++i];
            switch (name) {
                case "--url" -> url = Optional.of(value);
                case "--buyers" -> buyers = positive(name, value);
                case "--stock" -> stock = positive(name, value);
                case "--skus" -> skus = positive(name, value);
                case "--concurrency" -> concurrency = positive(name, value);
                case "--clicks" -> clicks = positive(name, value);
                case "--per-user-limit" -> perUserLimit = positive(name, value);
                case "--buckets" -> {
                    buckets = positive(name, value);
                    if (buckets > 64) {
                        throw new IllegalArgumentException("--buckets must be at most 64, got " + value);
                    }
                }
                case "--duration" -> duration = positive(name, value);
                case "--settle-timeout" -> settle = positive(name, value);
                case "--admin-token" -> token = Optional.of(value);
                case "--json" -> json = Optional.of(Path.of(value));
                case "--fault" -> {
                    if (!FAULTS.contains(value)) {
                        throw new IllegalArgumentException("unknown fault " + value);
                    }
                    fault = Optional.of(value);
                }
                case "--fault-seconds" -> faultSeconds = positive(name, value);
                case "--payment-window" -> paymentWindow = positive(name, value);
                case "--payment-key" -> paymentKey = Optional.of(value);
                case "--pay-ratio" -> {
                    try {
                        double ratio = Double.parseDouble(value);
                        if (ratio < 0 || ratio > 1) {
                            throw new NumberFormatException();
                        }
                        payRatio = Optional.of(ratio);
                    } catch (NumberFormatException e) {
                        throw new IllegalArgumentException("--pay-ratio must be a number from 0 to 1, got " + value);
                    }
                }
                default -> throw new IllegalArgumentException("unknown option " + name);
            }
        }
        return new DrillOptions(url, buyers, stock, skus, concurrency, clicks, perUserLimit, Duration.ofSeconds(duration),
                Duration.ofSeconds(settle), token, json, fault, paymentWindow, payRatio, paymentKey, buckets,
                Duration.ofSeconds(faultSeconds));
    }

    private static int positive(String name, String value) {
        try {
            int n = Integer.parseInt(value);
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw new IllegalArgumentException(name + " must be a positive integer, got " + value);
    }
}
