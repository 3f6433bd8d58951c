package seckill.drill.api;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;

import io.helidon.dbclient.DbClient;
import io.helidon.dbclient.DbTransaction;
import jakarta.ws.rs.ProcessingException;
import seckill.client.NewActivity;
import seckill.client.PaymentSigner;
import seckill.client.PurchaseRequest;
import seckill.client.Reservation;
import seckill.client.SeckillAdminApi;
import seckill.client.TokenMint;
import seckill.client.SeckillApi;
import seckill.client.SeckillClients;
import seckill.client.SeckillProblem;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObjectBuilder;
import org.HdrHistogram.Histogram;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.UnifiedJedis;
import jakarta.json.spi.JsonProvider;
import seckill.redis.SentinelAddress;
import seckill.ledger.api.LedgerAudit;
import seckill.ledger.api.OrderingSwitch;

/**
 * A rehearsal of a flash sale: creates an activity through the admin API, lets simulated buyers
 * (virtual threads, each with its own user id and request ids) click through HTTP, waits until
 * every reservation is an order, and then audits MySQL and Redis with {@link InvariantCheck}.
 */
public final class Drill {

    private static final JsonProvider JSON = JsonProvider.provider();

    private final DrillOptions options;
    private final URI base;
    private final String adminToken;
    private final DbClient db;
    private final LedgerAudit ledger;
    private final UnifiedJedis redis;
    private final OrderingSwitch ordering;
    private final PrintStream out;
    private final TcpProxy databaseProxy;
    private final SeckillApi buyers;
    private final SeckillAdminApi admin;

    public Drill(DrillOptions options, URI base, String adminToken, DbClient db, UnifiedJedis redis,
                 OrderingSwitch ordering, PrintStream out) {
        this(options, base, adminToken, db, redis, ordering, out, null);
    }

    /** A drill whose {@code db-down} fault cuts {@code databaseProxy}, the proxy the service's database sits behind. */
    public Drill(DrillOptions options, URI base, String adminToken, DbClient db, UnifiedJedis redis,
                 OrderingSwitch ordering, PrintStream out, TcpProxy databaseProxy) {
        this.databaseProxy = databaseProxy;
        this.options = options;
        this.base = base;
        this.adminToken = adminToken;
        this.db = db;
        this.ledger = InvariantCheck.ledgerAudit(db);
        this.redis = redis;
        this.ordering = ordering;
        this.out = out;
        // the drill drives the service the way its clients do: through the typed client, each simulated
        // buyer with a bearer token of its own, signed with the identity key the drill is given
        TokenMint mint = identityMint(options.identityKey());
        java.util.Map<Long, String> tokens = new java.util.concurrent.ConcurrentHashMap<>();
        this.buyers = SeckillClients.buyers(base, Duration.ofSeconds(30), user -> tokens.computeIfAbsent(user,
                u -> mint.mint(u, Instant.now(), Duration.ofHours(1))));
        this.admin = SeckillClients.admin(base, adminToken);
    }

    /**
     * The mint for the simulated buyers' tokens: {@code --identity-key}, else the first of the
     * configured {@code seckill.identity.hmac-keys} (in dev mode the dev key), for the configured issuer.
     */
    static TokenMint identityMint(java.util.Optional<String> identityKey) {
        var config = org.eclipse.microprofile.config.ConfigProvider.getConfig();
        String issuer = config.getOptionalValue("seckill.identity.issuer", String.class).orElse("seckill");
        String keys = identityKey
                .or(() -> config.getOptionalValue("seckill.identity.hmac-keys", String.class))
                .orElse("dev=" + seckill.dev.api.DevSecrets.IDENTITY_KEY);
        return TokenMint.of(keys, issuer, config.getOptionalValue("seckill.identity.audience", String.class));
    }

    /** Runs the drill; returns the report's violations (empty when the sale was sound). */
    public List<String> run() throws Exception {
        long activity = createActivity();
        out.printf("drill: activity %d, %d SKU(s) x %d units, %d buyers x %d click(s), concurrency %d%n", activity,
                options.skus(), options.stock(), options.buyers(), options.clicks(), options.concurrency());
        OutcomeTally tally = new OutcomeTally();
        Instant start = Instant.now();
        AtomicBoolean buying = new AtomicBoolean(true);
        Thread progress = Thread.ofPlatform().daemon(true).start(() -> progress(tally, start, buying));
        buy(activity, tally, start);
        buying.set(false);
        progress.join();
        Duration buyingTook = Duration.between(start, Instant.now());

        long reserved = tally.count("202");
        Instant settleStart = Instant.now();
        LedgerAudit.ActivityFigures settling = ledger.activity(activity);
        while (settling.orders() + settling.failedReservations() < reserved
                && Duration.between(settleStart, Instant.now()).compareTo(options.settleTimeout()) < 0) {
            Thread.sleep(100);
            settling = ledger.activity(activity);
        }
        long ordersNow = settling.orders();
        Duration settleTook = Duration.between(start, Instant.now());

        List<String> violations = new ArrayList<>();
        if (options.payRatio().isPresent()) {
            violations.addAll(payAndExpire(activity));
        }
        List<InvariantCheck.SkuAudit> audits = new InvariantCheck(db, redis).audit(activity);
        violations.addAll(InvariantCheck.violations(audits));
        if (ordersNow + failures(activity) < reserved) {
            violations.add("NOT_SETTLED: " + reserved + " reservation(s) answered 202, only " + ordersNow
                    + " order(s) after " + options.settleTimeout().toSeconds() + " s");
        }
        report(activity, tally, buyingTook, settleTook, reserved, ordersNow, audits, violations);
        return violations;
    }

    /**
     * Pays a share of the orders through signed callbacks and lets the rest time out; then every
     * unpaid unit must be back on the shelf in MySQL and Redis, and reconciliation clean.
     */
    private List<String> payAndExpire(long activity) throws Exception {
        List<String> violations = new ArrayList<>();
        List<String> orderNos = new ArrayList<>();
        orderNos.addAll(ledger.orderNumbers(activity));
        int toPay = (int) Math.round(orderNos.size() * options.payRatio().orElseThrow());
        var config = org.eclipse.microprofile.config.ConfigProvider.getConfig();
        PaymentSigner signer = new PaymentSigner(options.paymentKey()
                .or(() -> config.getOptionalValue("seckill.payment.hmac-key", String.class))
                .orElse("dev-payment-key"));
        // the one price every payment must equal until orders carry theirs (dev mode's by default)
        String amount = config.getOptionalValue("seckill.payment.price", String.class).orElse("1.00");
        String currency = config.getOptionalValue("seckill.payment.currency", String.class).orElse("CNY");
        int paid = 0;
        int refused = 0;
        java.util.Map<Integer, Integer> refusals = new java.util.TreeMap<>();
        for (int i = 0; i < toPay; i++) {
            String body = ("{\"orderNo\":\"%s\",\"paymentId\":\"drill-%s\",\"amount\":%s,\"currency\":\"%s\","
                    + "\"paidAt\":\"%s\"}").formatted(orderNos.get(i), orderNos.get(i), amount, currency, Instant.now());
            try {
                buyers.paymentCallback(signer.sign(body, Instant.now()), body);
                paid++;
            } catch (SeckillProblem problem) {
                refused++;
                refusals.merge(problem.status(), 1, Integer::sum);
            }
        }
        out.printf("payments      %d paid, %d refused %s, %d left unpaid%n", paid, refused, refusals,
                orderNos.size() - toPay);
        Instant deadline = Instant.now().plus(options.settleTimeout());
        while (!ledger.activity(activity).quiet()) {
            if (Instant.now().isAfter(deadline)) {
                violations.add("NOT_EXPIRED: unpaid orders or their refills still pending after "
                        + options.settleTimeout().toSeconds() + " s");
                return violations;
            }
            Thread.sleep(200);
        }
        LedgerAudit.ActivityFigures settled = ledger.activity(activity);
        long paidUnits = settled.paidUnits();
        long timedOut = settled.expiredOrders();
        long shelf = settled.available();
        long total = settled.total();
        out.printf("timeouts      %d order(s) expired; %d of %d units back on the shelf, %d paid%n", timedOut, shelf,
                total, paidUnits);
        if (shelf != total - paidUnits) {
            violations.add("NOT_ON_SHELF: " + shelf + " units available, expected total " + total + " - paid " + paidUnits);
        }
        try {
            String reconciliation = admin.reconcile(activity);
            out.println("reconcile     " + reconciliation);
            boolean clean;
            try (jakarta.json.JsonReader reader = jakarta.json.Json.createReader(new java.io.StringReader(reconciliation))) {
                clean = reader.readObject().getJsonArray("skus").stream()
                        .allMatch(sku -> "CLEAN".equals(sku.asJsonObject().getString("state", "")));
            }
            if (!clean) {
                violations.add("RECONCILIATION: " + reconciliation);
            }
        } catch (SeckillProblem problem) {
            violations.add("RECONCILIATION: " + problem.getMessage());
        }
        return violations;
    }

    private long createActivity() {
        List<NewActivity.Sku> skus = new ArrayList<>();
        for (int i = 1; i <= options.skus(); i++) {
            skus.add(new NewActivity.Sku(i, options.stock(), options.perUserLimit(), options.buckets()));
        }
        return admin.launch(java.util.UUID.randomUUID().toString(), new NewActivity("drill " + Instant.now(),
                Instant.now().minusSeconds(1).toString(),
                Instant.now().plus(Duration.ofHours(2)).toString(), (long) options.paymentWindowSeconds(), skus))
                .activityId();
    }

    private void buy(long activity, OutcomeTally tally, Instant start) throws InterruptedException {
        long firstUser = activity * 10_000_000L;
        Instant deadline = start.plus(options.duration());
        Semaphore inFlight = new Semaphore(options.concurrency());
        boolean faultDone = options.fault().isEmpty();
        long total = (long) options.buyers() * options.clicks();
        long issued = 0;
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int click = 0; click < options.clicks(); click++) {
                for (int b = 0; b < options.buyers(); b++) {
                    if (Instant.now().isAfter(deadline)) {
                        break;
                    }
                    if (!faultDone && issued >= total / 3) {
                        faultDone = true;
                        pool.submit(this::injectFault);
                    }
                    inFlight.acquire();
                    long user = firstUser + b;
                    int sku = 1 + ThreadLocalRandom.current().nextInt(options.skus());
                    String requestId = "d" + user + "-" + click;
                    issued++;
                    pool.submit(() -> {
                        try {
                            click(activity, user, sku, requestId, tally);
                        } finally {
                            inFlight.release();
                        }
                    });
                }
            }
        }
    }

    private void click(long activity, long user, int sku, String requestId, OutcomeTally tally) {
        long begin = System.nanoTime();
        String outcome;
        try {
            Reservation reservation = buyers.purchase(activity, user, null, new PurchaseRequest(sku, 1, requestId));
            outcome = reservation.isNew() ? "202" : "200";
        } catch (SeckillProblem problem) {
            outcome = Integer.toString(problem.status());
        } catch (ProcessingException e) {
            outcome = "error";
        }
        tally.record(outcome, (System.nanoTime() - begin) / 1_000);
    }

    private void injectFault() {
        try {
            switch (options.fault().orElseThrow()) {
                case "restart-workers" -> restartWorkers();
                case "redis-pause" -> pauseRedis();
                case "db-stall" -> stallDatabase();
                case "db-down" -> cutDatabase();
                case "redis-failover" -> failOverRedis();
                default -> throw new IllegalStateException("unknown fault");
            }
        } catch (RuntimeException e) {
            out.println("\ndrill: FAULT could not be injected: " + e.getMessage());
        }
    }

    private void restartWorkers() {
        if (ordering == null) {
            out.println("\ndrill: FAULT restart-workers needs the in-process service; skipped");
            return;
        }
        out.println("\ndrill: FAULT stopping the ordering workers");
        ordering.pause();
        sleep(options.faultLength());
        ordering.resume();
        out.println("\ndrill: FAULT ordering workers restarted");
    }

    /** Redis stops answering every client for a while (CLIENT PAUSE): purchases time out, workers back off. */
    private void pauseRedis() {
        out.println("\ndrill: FAULT Redis paused for " + options.faultLength().toSeconds() + " s");
        redis.sendCommand(Protocol.Command.CLIENT, "PAUSE", Long.toString(options.faultLength().toMillis()));
        sleep(options.faultLength());
        out.println("\ndrill: FAULT Redis answers again");
    }

    /**
     * For deployments behind Sentinel ({@code seckill.redis.uri=redis-sentinel://…}): the Sentinels are
     * told to fail the master over to a replica now ({@code SENTINEL FAILOVER}), mid-sale; the drill
     * then waits until they name a new master. Reservations in flight are answered HALTED and retried.
     */
    private void failOverRedis() {
        String uri = org.eclipse.microprofile.config.ConfigProvider.getConfig()
                .getOptionalValue("seckill.redis.uri", String.class).orElse("");
        if (!SentinelAddress.isSentinel(uri)) {
            throw new IllegalStateException("redis-failover needs seckill.redis.uri=redis-sentinel://…");
        }
        SentinelAddress address = SentinelAddress.parse(uri);
        String masterName = address.masterName();
        try (Jedis jedis = new Jedis(address.anySentinel())) {
            java.util.List<String> before = jedis.sentinelGetMasterAddrByName(masterName);
            jedis.sentinelFailover(masterName);
            out.println("\ndrill: FAULT Redis master " + String.join(":", before) + " failed over by the Sentinels");
            Instant deadline = Instant.now().plusSeconds(30);
            while (jedis.sentinelGetMasterAddrByName(masterName).equals(before) && Instant.now().isBefore(deadline)) {
                sleep(Duration.ofMillis(200));
            }
            out.println("\ndrill: FAULT Redis master is now " + String.join(":", jedis.sentinelGetMasterAddrByName(masterName)));
        }
    }

    /**
     * The database stops taking writes for a while: one connection holds FLUSH TABLES WITH READ LOCK
     * (needs the RELOAD privilege), so every ordering transaction waits or fails and is retried.
     */
    private void stallDatabase() {
        DbTransaction tx = db.transaction();
        try {
            tx.dml("FLUSH TABLES WITH READ LOCK");
            out.println("\ndrill: FAULT database writes blocked for " + options.faultLength().toSeconds() + " s");
            sleep(options.faultLength());
            tx.dml("UNLOCK TABLES");
            out.println("\ndrill: FAULT database writes allowed again");
        } finally {
            tx.rollback();
        }
    }

    /**
     * The service loses its database: every connection through the proxy in front of it is reset and
     * new ones are refused for the fault's length. Purchases go on from Redis; orders wait.
     */
    private void cutDatabase() {
        if (databaseProxy == null) {
            out.println("\ndrill: FAULT db-down needs the in-process service (its database behind the drill's proxy); skipped");
            return;
        }
        databaseProxy.cut();
        out.println("\ndrill: FAULT database connections cut for " + options.faultLength().toSeconds() + " s");
        sleep(options.faultLength());
        databaseProxy.restore();
        out.println("\ndrill: FAULT database reachable again");
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void progress(OutcomeTally tally, Instant start, AtomicBoolean buying) {
        long last = 0;
        while (buying.get()) {
            try {
                Thread.sleep(1_000);
            } catch (InterruptedException e) {
                return;
            }
            long now = tally.requests();
            out.printf("\r[%5.1fs] %7d req/s  %s   ", Duration.between(start, Instant.now()).toMillis() / 1000.0,
                    now - last, tally.counts());
            last = now;
        }
        out.println();
    }

    private void report(long activity, OutcomeTally tally, Duration buyingTook, Duration settleTook, long reserved,
                        long orders, List<InvariantCheck.SkuAudit> audits, List<String> violations) throws IOException {
        Histogram all = tally.overall();
        double seconds = Math.max(0.001, buyingTook.toMillis() / 1000.0);
        out.println("==== drill report ====");
        out.printf("requests      %d in %.2f s = %.0f req/s%n", tally.requests(), seconds, tally.requests() / seconds);
        out.printf("latency ms    p50 %.2f  p95 %.2f  p99 %.2f  max %.2f%n", all.getValueAtPercentile(50) / 1000.0,
                all.getValueAtPercentile(95) / 1000.0, all.getValueAtPercentile(99) / 1000.0, all.getMaxValue() / 1000.0);
        out.println("outcomes      " + describe(tally.counts()));
        out.printf("reservations  %d (HTTP 202)%n", reserved);
        out.printf("orders        %d in MySQL%n", orders);
        out.printf("settled after %.2f s from the first click%n", settleTook.toMillis() / 1000.0);
        for (InvariantCheck.SkuAudit audit : audits) {
            out.println("sku " + audit.skuId() + "        " + audit.figures());
        }
        out.println(violations.isEmpty() ? "invariants    OK (nothing oversold, duplicated or lost)"
                : "invariants    FAILED");
        violations.forEach(v -> out.println("  - " + v));
        if (options.json().isPresent()) {
            JsonObjectBuilder json = JSON.createObjectBuilder()
                    .add("activityId", activity)
                    .add("requests", tally.requests())
                    .add("seconds", seconds)
                    .add("requestsPerSecond", tally.requests() / seconds)
                    .add("reservations", reserved)
                    .add("orders", orders)
                    .add("settledSeconds", settleTook.toMillis() / 1000.0)
                    .add("latencyMillis", JSON.createObjectBuilder()
                            .add("p50", all.getValueAtPercentile(50) / 1000.0)
                            .add("p95", all.getValueAtPercentile(95) / 1000.0)
                            .add("p99", all.getValueAtPercentile(99) / 1000.0)
                            .add("max", all.getMaxValue() / 1000.0));
            JsonObjectBuilder outcomes = JSON.createObjectBuilder();
            tally.counts().forEach(outcomes::add);
            json.add("outcomes", outcomes);
            JsonArrayBuilder v = JSON.createArrayBuilder();
            violations.forEach(v::add);
            json.add("violations", v);
            Files.writeString(options.json().get(), json.build().toString());
        }
    }

    private static String describe(Map<String, Long> counts) {
        StringBuilder s = new StringBuilder();
        counts.forEach((status, n) -> s.append(switch (status) {
            case "202" -> "202 reserved=";
            case "200" -> "200 duplicate=";
            case "410" -> "410 sold-out=";
            case "429" -> "429 throttled=";
            case "503" -> "503 halted=";
            case "error" -> "no-answer=";
            default -> status + "=";
        }).append(n).append("  "));
        return s.toString().trim();
    }

    private long failures(long activity) {
        return ledger.activity(activity).failedReservations();
    }
}
