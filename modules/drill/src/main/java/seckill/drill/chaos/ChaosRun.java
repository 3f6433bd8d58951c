package seckill.drill.chaos;

import java.io.PrintStream;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;

import jakarta.json.JsonObject;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.UnifiedJedis;
import seckill.drill.api.TcpProxy;
import seckill.client.TokenMint;
import seckill.chaos.api.Checker;
import seckill.chaos.api.History;
import seckill.chaos.api.HistoryEntry;
import seckill.chaos.api.HistoryWriter;
import seckill.chaos.api.OpKind;
import seckill.chaos.api.Verdict;
import seckill.ledger.api.LedgerAudit;

/**
 * One chaos run: draws the schedule from the seed and writes it to the history first; starts the
 * instances, each behind its own proxies to the database and to the run's Redis; launches an
 * activity; runs the schedule (buyers and faults together); heals; lifts operator halts and probes
 * every instance until it sells again; waits for quiescence; reconciles through the admin API; and
 * judges the history with the {@link Checker}.
 */
public final class ChaosRun {

    private static final String IDENTITY_KEY = "chaos-drill-identity-key-0123456789abcdef";
    private static final String PAYMENT_KEY = "chaos-drill-payment-key-0123456789abcdef";
    private static final String PURCHASE_TOKEN_KEY = "chaos-drill-purchase-token-key-0123456789";
    private static final String ADMIN_TOKEN = "chaos-drill-admin-token-0123456789abcdef";
    private static final long PROBE_BUYERS = 1_000_000;
    private static final long HOSTILE_BUYERS = 2_000_000;
    private static final int RETRIES = 2;

    /** Where the run keeps its data: the database (the caller's or an embedded one). */
    public record Database(String url, String user, String password) {
    }

    private final ChaosOptions options;
    private final PlanShape shape;
    private final Database database;
    private final Clock clock;
    private final LongSupplier nanos;
    private final PrintStream out;
    private final TokenMint mint = new TokenMint("chaos", IDENTITY_KEY, "seckill", Optional.empty());
    private final Map<Long, String> tokens = new ConcurrentHashMap<>();
    private final Map<Integer, String> reservations = new ConcurrentHashMap<>();
    private final Set<String> answeredReservations = ConcurrentHashMap.newKeySet();
    private final List<Path> configDirs = new ArrayList<>();
    private final Map<Integer, Map<String, String>> switches = new ConcurrentHashMap<>();

    public ChaosRun(ChaosOptions options, PlanShape shape, Database database, Clock clock, LongSupplier nanos,
             PrintStream out) {
        this.options = options;
        this.shape = shape;
        this.database = database;
        this.clock = clock;
        this.nanos = nanos;
        this.out = out;
    }

    /** Runs it; the checker's verdict. */
    public Verdict run() throws Exception {
        long durationMillis = options.duration().toMillis();
        List<Step> plan = new ChaosPlan(new SplittableRandom(options.seed()), shape, options.topology())
                .draw(durationMillis, options.instances());
        Path logs = options.history().toAbsolutePath().getParent();
        String name = options.history().getFileName().toString();
        List<ServiceProcess> instances = new ArrayList<>();
        List<TcpProxy> proxies = new ArrayList<>();
        try (HistoryWriter history = new HistoryWriter(options.history());
             OwnRedis redis = options.topology() == Topology.SINGLE ? OwnRedis.start(logs.resolve(name + ".redis.log"))
                     : null;
             ReplicatedRedis nodes = startReplicated(logs.resolve(name + ".redis"))) {
            history.write(new HistoryEntry.RunStarted(options.seed(), durationMillis, options.instances(),
                    options.topology().label(), clock.instant().toString()));
            plan.forEach(s -> history.write(new HistoryEntry.Planned(s.index(), s.atMillis(), s.kind().name(),
                    s.instance(), s.describe())));
            out.printf("chaos: seed %d, %d steps (%s), %d instance(s), %d s, topology %s; history %s%n", options.seed(),
                    plan.size(), plan.stream().collect(Collectors.groupingBy(Step::kind, TreeMap::new,
                            Collectors.counting())), options.instances(), durationMillis / 1000,
                    options.topology().label(), options.history());
            List<TcpProxy> databaseProxies = new ArrayList<>();
            List<TcpProxy> redisProxies = new ArrayList<>();
            for (int i = 0; i < options.instances(); i++) {
                TcpProxy db = TcpProxy.forJdbcUrl(database.url());
                databaseProxies.add(db);
                proxies.add(db);
                String redisUri;
                if (nodes == null) {
                    TcpProxy r = TcpProxy.to("127.0.0.1", redis.port());
                    redisProxies.add(r);
                    proxies.add(r);
                    redisUri = "redis://127.0.0.1:" + r.port();
                } else {
                    // the instances reach the nodes the Sentinels or the cluster name: no proxy can stand between
                    redisUri = nodes.serviceUri();
                }
                List<String> settings = new ArrayList<>(nodes == null ? List.of() : nodes.serviceProperties());
                // the instance's own config directory: its switches.yaml is what SWITCH_FLIP steps write
                Path config = java.nio.file.Files.createDirectories(logs.resolve(name + ".config-" + i));
                configDirs.add(config);
                writeSwitches(i);
                instances.add(new ServiceProcess(i, Map.of("SECKILL_DB_URL", db.route(database.url()),
                        "SECKILL_DB_USER", database.user(), "SECKILL_DB_PASSWORD", database.password(),
                        "SECKILL_REDIS_URI", redisUri, "SECKILL_ADMIN_TOKEN", ADMIN_TOKEN,
                        "SECKILL_CONFIG_DIR", config.toString()),
                        // set here, not left to whatever config the class path carries: a run from the jar and
                        // one from the tests' class path must behave alike
                        concat(settings, List.of("seckill.admission.token-required=false",
                                "seckill.admission.token-keys=chaos=" + PURCHASE_TOKEN_KEY,
                                "seckill.admission.buyer-rate=2",
                                "seckill.identity.dev-sign-in=false",
                                "seckill.identity.hmac-keys=chaos=" + IDENTITY_KEY,
                                "seckill.payment.hmac-key=" + PAYMENT_KEY,
                                "seckill.payment.price=" + SignedPayments.PRICE,
                                "seckill.payment.currency=" + SignedPayments.CURRENCY,
                                // health where the runner asks for it, and no fixed management port that
                                // the instances would all want (the deployable puts it on 127.0.0.1:9080)
                                "server.sockets.0.port=0",
                                "server.features.observe.sockets.0=@default",
                                "mp.openapi.sockets.0=@default",
                                "seckill.settlement.timeout-scan-seconds=2")),
                        logs.resolve(name + ".instance-" + i + ".log"),
                        // under faketime only where the schedule moves a clock: other seeds' instances run as before
                        movesClock(plan, i) ? logs.resolve(name + ".clock-" + i) : null));
            }
            instances.getFirst().start();
            RecordingClient client = new RecordingClient(history, clock, nanos,
                    instances.stream().map(ServiceProcess::port).toList(), Duration.ofSeconds(5));
            awaitReady(client, instances.getFirst(), Duration.ofSeconds(120));
            instances.stream().skip(1).forEach(ServiceProcess::start);
            for (int i = 1; i < instances.size(); i++) {
                awaitReady(client, instances.get(i), Duration.ofSeconds(120));
            }
            long activity = launch(client);
            history.write(new HistoryEntry.ActivityLaunched(activity, shape.skus().stream().collect(Collectors.toMap(
                    PlanShape.SkuShape::skuId, PlanShape.SkuShape::stock, (a, b) -> a, LinkedHashMap::new)),
                    shape.paymentWindowSeconds(), instances.stream().map(ServiceProcess::port).toList()));
            out.printf("chaos: %d instance(s) ready on ports %s, activity %d%n", instances.size(),
                    instances.stream().map(ServiceProcess::port).toList(), activity);

            FaultInjector faults = new FaultInjector(instances, databaseProxies, redisProxies,
                    redis == null ? -1 : redis.port(), nodes, history, clock, nanos);
            faults.activity(activity, shape.skus().stream().collect(Collectors.toMap(PlanShape.SkuShape::skuId,
                    PlanShape.SkuShape::buckets)), () -> preheat(client, activity,
                    // a few tries at the fault's end (instances may be down): the preheat after the heal
                    // tries until the resume bound, so a fault is not held open (nor the run made longer)
                    nanos.getAsLong() + Duration.ofSeconds(5).toNanos()));
            execute(plan, activity, client, faults);
            String redisHeal = faults.healAll();
            if (!redisHeal.isEmpty()) {
                out.println("chaos: redis healed: " + redisHeal);
            }
            long healed = nanos.getAsLong();
            history.write(new HistoryEntry.Healed(healed, clock.instant().toString(), options.resumeBound().toMillis()));
            out.println("chaos: healed; lifting halts and probing every instance");
            afterHeal(client, activity, healed);

            try (Connection ledger = DriverManager.getConnection(database.url(), database.user(), database.password());
                 UnifiedJedis reader = nodes == null ? RedisClient.create(URI.create(redis.uri())) : nodes.reader()) {
                Checker checker = new Checker(ledger, reader, 10);
                awaitQuiescence(activity, checker);
                reconcile(client, activity);
                history.write(checker.readShelf(activity, nanos.getAsLong(), clock.instant().toString()));
                Verdict verdict = checker.judge(History.read(options.history()));
                summarize(History.read(options.history()));
                out.print(verdict.report());
                if (!verdict.clean()) {
                    out.println("chaos: seed " + options.seed() + " found a violation; history " + options.history());
                }
                return verdict;
            }
        } finally {
            instances.forEach(ServiceProcess::stop);
            proxies.forEach(TcpProxy::close);
        }
    }

    private static boolean movesClock(List<Step> plan, int instance) {
        return plan.stream().anyMatch(s -> s.kind() == Step.Kind.CLOCK_MOVE && s.instance() == instance);
    }

    /** The Sentinel group or cluster of the run (logs under {@code dir}); null on a single Redis. */
    private ReplicatedRedis startReplicated(Path dir) throws java.io.IOException {
        if (options.topology() != Topology.SINGLE && java.nio.file.Files.exists(dir)) {
            // an earlier run's node files (a cluster node's nodes.conf) must not make this run's nodes
            try (var old = java.nio.file.Files.walk(dir)) {
                for (Path p : old.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    java.nio.file.Files.delete(p);
                }
            }
        }
        return switch (options.topology()) {
            case SINGLE -> null;
            case SENTINEL -> SentinelGroup.start(java.nio.file.Files.createDirectories(dir));
            case CLUSTER -> OwnCluster.start(java.nio.file.Files.createDirectories(dir));
        };
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    private void execute(List<Step> plan, long activity, RecordingClient client, FaultInjector faults)
            throws InterruptedException {
        long start = nanos.getAsLong();
        try (ExecutorService buyers = Executors.newVirtualThreadPerTaskExecutor();
             ExecutorService injecting = Executors.newVirtualThreadPerTaskExecutor()) {
            for (Step step : ChaosPlan.due(plan)) {
                long wait = step.atMillis() - (nanos.getAsLong() - start) / 1_000_000;
                if (wait > 0) {
                    Thread.sleep(wait);
                }
                if (step.kind().fault()) {
                    injecting.submit(() -> faults.inject(step));
                } else {
                    buyers.submit(() -> act(step, activity, client));
                }
            }
        }
    }

    private void act(Step step, long activity, RecordingClient client) {
        switch (step.kind()) {
            case PURCHASE, RETRY, REUSED_ID -> buy(client, step, activity);
            case PAY -> pay(client, step, activity);
            case HALT -> client.send(step.index(), OpKind.HALT, step.instance(), null, null, null, null,
                    admin(client, step.instance(), "/api/v1/admin/sales/halt"));
            case RESUME -> client.send(step.index(), OpKind.RESUME, step.instance(), null, null, null, null,
                    admin(client, step.instance(), "/api/v1/admin/sales/resume"));
            case HOSTILE -> hostile(client, step, activity);
            case HOSTILE_PAY -> hostilePay(client, step, activity);
            case SWITCH_FLIP -> {
                String[] flip = step.variant().split("=", 2);
                client.record(step.index(), OpKind.SWITCH_FLIP, step.instance(), () -> {
                    switches.computeIfAbsent(step.instance(), i -> new ConcurrentHashMap<>()).put(flip[0], flip[1]);
                    writeSwitches(step.instance());
                }, step.variant());
            }
            default -> throw new IllegalStateException("not a client step: " + step);
        }
    }

    /**
     * A buyer's click as a well-behaved client makes it: after a lost answer or a 5xx it tries again
     * with the same requestId, after Retry-After (1 s when none), up to {@code RETRIES} times. The
     * rule depends only on the answers, so the schedule stays the seed's.
     */
    private void buy(RecordingClient client, Step step, long activity) {
        for (int attempt = 0; attempt <= RETRIES; attempt++) {
            RecordingClient.Answer answer = purchase(client, step.index(), OpKind.PURCHASE, step.instance(), activity,
                    step.buyer(), step.sku(), step.requestId());
            if (!answer.lostOr5xx()) {
                return;
            }
            long seconds = 1;
            try {
                seconds = answer.retryAfter() == null ? 1 : Math.min(5, Long.parseLong(answer.retryAfter().trim()));
            } catch (NumberFormatException e) {
                // an HTTP-date or garbage: the checker judges the header; the buyer waits a second
            }
            try {
                Thread.sleep(Duration.ofSeconds(seconds));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private RecordingClient.Answer purchase(RecordingClient client, int step, OpKind kind, int instance, long activity,
                                            long buyer, long sku, String requestId) {
        RecordingClient.Answer answer = client.send(step, kind, instance, buyer, activity, sku, requestId,
                HttpRequest.newBuilder(client.uri(instance, "/api/v1/activities/" + activity + "/purchases"))
                        .header("Authorization", "Bearer " + token(buyer))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString("{\"skuId\":%d,\"quantity\":1,\"requestId\":\"%s\"}"
                                .formatted(sku, requestId))));
        if (answer.status() == 200 || answer.status() == 202) {
            field(answer.body(), "reservationId").ifPresent(id -> {
                answeredReservations.add(id);
                reservations.putIfAbsent(step, id);
            });
        }
        return answer;
    }

    /** Pays the order the referenced purchase made, if it made one: looked up first, then the signed callback. */
    private void pay(RecordingClient client, Step step, long activity) {
        String reservation = reservations.get(step.ref());
        if (reservation == null) {
            return;
        }
        RecordingClient.Answer view = client.send(step.index(), OpKind.LOOKUP, step.instance(), step.buyer(), activity,
                step.sku(), null, HttpRequest.newBuilder(client.uri(step.instance(), "/api/v1/reservations/" + reservation))
                        .header("Authorization", "Bearer " + token(step.buyer())).GET());
        Optional<String> orderNo = view.status() == 200 ? field(view.body(), "orderNo") : Optional.empty();
        if (orderNo.isEmpty()) {
            return;
        }
        SignedPayments.Callback callback = new SignedPayments(PAYMENT_KEY)
                .of(orderNo.get(), "chaos-pay-" + activity + "-" + step.ref(), clock.instant());
        client.send(step.index(), OpKind.PAYMENT, step.instance(), step.buyer(), activity, step.sku(), null,
                HttpRequest.newBuilder(client.uri(step.instance(), "/api/v1/payments/callback"))
                        .header(callback.signatureHeader(), callback.signature())
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(callback.body())), SignedPayments.sent(callback),
                null);
    }

    /**
     * A payment callback the service must refuse, for the order the referenced purchase made (looked
     * up first, as a genuine payment is) or, without one, for an order number no order has. Its payment
     * id is its own ({@code chaos-forged-…}), so the checker can tell that it left no audit row.
     */
    private void hostilePay(RecordingClient client, Step step, long activity) {
        String unknown = "ZZZZ%020d".formatted(step.index());
        String orderNo = unknown;
        String reservation = step.ref() >= 0 ? reservations.get(step.ref()) : null;
        if (reservation != null) {
            RecordingClient.Answer view = client.send(step.index(), OpKind.LOOKUP, step.instance(), step.buyer(),
                    activity, step.sku(), null, HttpRequest.newBuilder(client.uri(step.instance(),
                            "/api/v1/reservations/" + reservation)).header("Authorization", "Bearer " + token(step.buyer()))
                            .GET());
            orderNo = (view.status() == 200 ? field(view.body(), "orderNo") : Optional.<String>empty()).orElse(unknown);
        }
        SignedPayments.Callback callback = new SignedPayments(PAYMENT_KEY).forged(step.variant(), orderNo,
                "YYYY%020d".formatted(step.index()), "chaos-forged-" + activity + "-" + step.index(), clock.instant());
        // sent again as it was after no answer or a 5xx, as a buyer's click is: a forger tries until it is heard
        for (int attempt = 0; attempt <= RETRIES; attempt++) {
            HttpRequest.Builder request = HttpRequest.newBuilder(client.uri(step.instance(), "/api/v1/payments/callback"))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(callback.body()));
            if (callback.signature() != null) {
                request.header(callback.signatureHeader(), callback.signature());
            }
            RecordingClient.Answer answer = client.send(step.index(), OpKind.HOSTILE_PAYMENT, step.instance(),
                    step.buyer() == 0 ? null : step.buyer(), activity, step.sku() == 0 ? null : step.sku(), null, request,
                    SignedPayments.sent(callback), step.variant());
            if (!answer.lostOr5xx() || attempt == RETRIES) {
                return;
            }
            try {
                Thread.sleep(Duration.ofSeconds(2));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Requests the service must refuse; none of them may make an order (the checker would call it a phantom). */
    private void hostile(RecordingClient client, Step step, long activity) {
        long buyer = HOSTILE_BUYERS + step.index();
        String path = "/api/v1/activities/" + activity + "/purchases";
        String body = "{\"skuId\":1,\"quantity\":1,\"requestId\":\"h" + step.index() + "\"}";
        HttpRequest.Builder request = HttpRequest.newBuilder(client.uri(step.instance(), path))
                .header("Content-Type", "application/json");
        switch (step.variant()) {
            case "bad-json" -> request.header("Authorization", "Bearer " + token(buyer))
                    .POST(HttpRequest.BodyPublishers.ofString("{\"skuId\":1,\"quantity\":"));
            case "huge-numbers" -> request.header("Authorization", "Bearer " + token(buyer))
                    .POST(HttpRequest.BodyPublishers.ofString(
                            "{\"skuId\":99999999999999999999999,\"quantity\":1e308,\"requestId\":\"h\"}"));
            case "no-token" -> request.header("X-User-Id", "1").POST(HttpRequest.BodyPublishers.ofString(body));
            case "forged-token" -> request.header("Authorization", "Bearer " + new TokenMint("chaos",
                            "not-the-service-key-0123456789abcdefgh", "seckill", Optional.empty())
                            .mint(1, clock.instant(), Duration.ofHours(1)))
                    .POST(HttpRequest.BodyPublishers.ofString(body));
            case "forged-user-header" -> request.header("X-User-Id", "2").header("X-Forwarded-For", "10.0.0.1")
                    .header("X-Identity-Signature", "00").POST(HttpRequest.BodyPublishers.ofString(body));
            case "negative-quantity" -> request.header("Authorization", "Bearer " + token(buyer))
                    .POST(HttpRequest.BodyPublishers.ofString("{\"skuId\":1,\"quantity\":-1,\"requestId\":\"h\"}"));
            case "unknown-activity" -> request.uri(client.uri(step.instance(), "/api/v1/activities/987654321/purchases"))
                    .header("Authorization", "Bearer " + token(buyer)).POST(HttpRequest.BodyPublishers.ofString(body));
            default -> throw new IllegalStateException("unknown hostile request " + step.variant());
        }
        client.send(step.index(), OpKind.HOSTILE, step.instance(), buyer, activity, 1L, "h" + step.index(), request);
    }

    /**
     * The operator's part of the heal: every instance is asked to resume (not forced: it resumes only
     * when reconciliation allows) until it does; meanwhile a fresh buyer per try probes each instance
     * with a purchase until one is answered by a selling instance, or the bound (plus a margin, so a
     * late answer is in the history for the checker to judge) has passed.
     */
    private void afterHeal(RecordingClient client, long activity, long healed) throws InterruptedException {
        long until = healed + options.resumeBound().plusSeconds(5).toNanos();
        // the operator puts back whatever Redis lost (a bucket's keys; left alone where Redis still has them)
        out.println("chaos: preheat after the heal: " + preheat(client, activity, healed + options.resumeBound().toNanos()));
        try (ExecutorService each = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < options.instances(); i++) {
                int instance = i;
                each.submit(() -> {
                    boolean resumed = false;
                    for (int n = 0; nanos.getAsLong() < until; n++) {
                        if (!resumed) {
                            resumed = client.send(-1, OpKind.RESUME, instance, null, null, null, null,
                                    admin(client, instance, "/api/v1/admin/sales/resume")).status() == 200;
                        }
                        RecordingClient.Answer probe = purchase(client, -1, OpKind.PROBE, instance, activity,
                                PROBE_BUYERS + instance * 1_000L + n, 1, "probe-" + instance + "-" + n);
                        if (resumed && probe.status() > 0 && probe.status() < 500 && probe.status() != 429) {
                            return null;
                        }
                        Thread.sleep(1_000);
                    }
                    return null;
                });
            }
        }
    }

    /**
     * Writes one instance's {@code switches.yaml} (whole, then moved into place, so the instance never
     * reads half a file): every switch flipped so far at its current value.
     */
    private synchronized void writeSwitches(int instance) {
        StringBuilder yaml = new StringBuilder("# written by the chaos drill's SWITCH_FLIP steps\n");
        new TreeMap<>(switches.getOrDefault(instance, Map.of())).forEach((k, v) -> yaml.append(k).append(": ")
                .append(v).append('\n'));
        Path dir = configDirs.get(instance);
        try {
            Path temp = java.nio.file.Files.writeString(dir.resolve("switches.yaml.tmp"), yaml);
            java.nio.file.Files.move(temp, dir.resolve("switches.yaml"),
                    java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * The operator's preheat ({@code POST /api/v1/admin/activities/{id}/preheat}: every bucket Redis lost
     * put back from the ledger), tried on each instance in turn once a second until one answers 200 or
     * {@code untilNanos} passes (instances may be restarting, Redis refusing writes); what it answered last.
     */
    private String preheat(RecordingClient client, long activity, long untilNanos) {
        String last = "not tried";
        for (int attempt = 0; ; attempt++) {
            int instance = attempt % options.instances();
            RecordingClient.Answer answer = client.send(-1, OpKind.PREHEAT, instance, null, activity, null, null,
                    admin(client, instance, "/api/v1/admin/activities/" + activity + "/preheat"));
            last = answer.status() + " " + (answer.body() == null ? "" : answer.body()) + " (try " + (attempt + 1) + ")";
            if (answer.status() == 200 || nanos.getAsLong() >= untilNanos) {
                return last;
            }
            try {
                Thread.sleep(1_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return last;
            }
        }
    }

    /**
     * Waits until nothing moves: every reservation answered 200/202 is an order or a failure, no event
     * in a bucket's stream is unacknowledged (also those whose answer was lost: an event handed to a
     * worker of a killed instance is ordered only once another reclaims it, after
     * {@code seckill.ordering.reclaim-idle-seconds}), no order is still awaiting payment (the window
     * lapses), no refill is pending. Then the checker's reads of the ledger and of Redis see one state.
     * Gives up after the settle timeout and lets the checker judge.
     */
    private void awaitQuiescence(long activity, Checker checker) throws SQLException, InterruptedException {
        Instant started = clock.instant();
        Instant deadline = started.plus(options.settleTimeout());
        try (Connection db = DriverManager.getConnection(database.url(), database.user(), database.password())) {
            LedgerAudit ledger = seckill.drill.ledger.LedgerOverJdbc.audit(db);
            while (true) {
                Set<String> settled = new java.util.HashSet<>(ledger.settledReservations(activity));
                long unsettled = answeredReservations.stream().filter(r -> !settled.contains(r)).count();
                LedgerAudit.ActivityFigures figures = ledger.activity(activity);
                long unpaid = figures.unpaidOrders();
                long refills = figures.pendingRefills();
                long inFlight = unitsInFlight(checker, activity);
                if (unsettled == 0 && unpaid == 0 && refills == 0 && inFlight == 0) {
                    out.printf("chaos: quiescent after %d ms%n", java.time.Duration.between(started, clock.instant())
                            .toMillis());
                    return;
                }
                if (clock.instant().isAfter(deadline)) {
                    out.printf("chaos: NOT quiescent after %d s: %d reservation(s) unsettled, %d unit(s) in"
                            + " unacknowledged events, %d order(s) unpaid, %d refill(s) pending; judging anyway%n",
                            options.settleTimeout().toSeconds(), unsettled, inFlight, unpaid, refills);
                    return;
                }
                Thread.sleep(500);
            }
        }
    }

    /** Units in unacknowledged events of the activity's streams; a Redis that does not answer counts as some. */
    private static long unitsInFlight(Checker checker, long activity) {
        try {
            return checker.unitsInFlight(activity).values().stream().mapToLong(Long::longValue).sum();
        } catch (RuntimeException notNow) {
            return 1;
        }
    }

    /** Reconciliation through the admin API; repeated while it reports work in flight, the last answer counts. */
    private void reconcile(RecordingClient client, long activity) throws InterruptedException {
        for (int attempt = 0; attempt < 10; attempt++) {
            RecordingClient.Answer answer = client.send(-1, OpKind.RECONCILE, 0, null, activity, null, null,
                    admin(client, 0, "/api/v1/admin/activities/" + activity + "/reconciliation"));
            if (answer.status() == 200 && answer.body() != null && !answer.body().contains("IN_FLIGHT")) {
                return;
            }
            Thread.sleep(2_000);
        }
    }

    private long launch(RecordingClient client) throws Exception {
        Instant now = clock.instant();
        StringBuilder skus = new StringBuilder();
        for (PlanShape.SkuShape sku : shape.skus()) {
            skus.append(skus.isEmpty() ? "" : ",").append("{\"skuId\":%d,\"stock\":%d,\"perUserLimit\":1,\"buckets\":%d}"
                    .formatted(sku.skuId(), sku.stock(), sku.buckets()));
        }
        String body = "{\"name\":\"chaos seed %d\",\"startsAt\":\"%s\",\"endsAt\":\"%s\",\"paymentWindowSeconds\":%d,\"skus\":[%s]}"
                .formatted(options.seed(), now.minusSeconds(1), now.plus(Duration.ofHours(2)), shape.paymentWindowSeconds(),
                        skus);
        var response = java.net.http.HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        client.uri(0, "/api/v1/admin/activities"))
                        .header("Authorization", "Bearer " + ADMIN_TOKEN).header("Content-Type", "application/json")
                        .header("Idempotency-Key", "chaos-" + options.seed() + "-" + now.toEpochMilli())
                        .POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() / 100 != 2) {
            throw new IllegalStateException("cannot launch the activity: " + response.statusCode() + " " + response.body());
        }
        return Long.parseLong(field(response.body(), "activityId").orElseThrow());
    }

    private void awaitReady(RecordingClient client, ServiceProcess process, Duration timeout) throws InterruptedException {
        int instance = process.index();
        var http = java.net.http.HttpClient.newHttpClient();
        Instant deadline = clock.instant().plus(timeout);
        while (clock.instant().isBefore(deadline)) {
            if (!process.alive()) {
                throw new IllegalStateException("instance " + instance + " exited while starting; see " + options.history()
                        + ".instance-" + instance + ".log");
            }
            try {
                if (http.send(HttpRequest.newBuilder(client.uri(instance, "/health/ready")).timeout(Duration.ofSeconds(2))
                        .build(), java.net.http.HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return;
                }
            } catch (java.io.IOException e) {
                // not listening yet
            }
            Thread.sleep(250);
        }
        throw new IllegalStateException("instance " + instance + " not ready after " + timeout.toSeconds() + " s; see "
                + options.history() + ".instance-" + instance + ".log");
    }

    private HttpRequest.Builder admin(RecordingClient client, int instance, String path) {
        return HttpRequest.newBuilder(client.uri(instance, path)).header("Authorization", "Bearer " + ADMIN_TOKEN)
                .POST(HttpRequest.BodyPublishers.noBody());
    }

    private String token(long buyer) {
        return tokens.computeIfAbsent(buyer, b -> mint.mint(b, clock.instant(), Duration.ofHours(2)));
    }

    private void summarize(History history) {
        Map<String, Long> outcomes = history.operations().stream().collect(Collectors.groupingBy(
                op -> op.kind() + " " + (op.answered() ? Integer.toString(op.status()) : "no-answer"), TreeMap::new,
                Collectors.counting()));
        Map<String, Long> faults = history.faults().stream().collect(Collectors.groupingBy(f -> f.kind().name(),
                TreeMap::new, Collectors.counting()));
        out.println("==== chaos report ====");
        out.println("operations   " + history.operations().size() + " " + outcomes);
        out.println("faults       " + history.faults().size() + " " + faults);
    }

    private static Optional<String> field(String body, String name) {
        if (body == null || !body.trim().startsWith("{")) {
            return Optional.empty();
        }
        try (var reader = jakarta.json.Json.createReader(new StringReader(body))) {
            JsonObject o = reader.readObject();
            var v = o.get(name);
            if (v == null || v == jakarta.json.JsonValue.NULL) {
                return Optional.empty();
            }
            return Optional.of(v instanceof jakarta.json.JsonString s ? s.getString() : v.toString());
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

}
