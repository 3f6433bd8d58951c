package seckill.drill.api;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongFunction;

import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.spi.JsonProvider;
import jakarta.ws.rs.ProcessingException;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;
import seckill.client.ActivityView;
import seckill.client.NewActivity;
import seckill.client.PurchaseRequest;
import seckill.client.RehearsalMark;
import seckill.client.Reservation;
import seckill.client.SeckillAdminApi;
import seckill.client.SeckillApi;
import seckill.client.SeckillClients;
import seckill.client.SeckillProblem;
import seckill.client.TokenMint;
import seckill.drill.ramp.RampChart;
import seckill.drill.ramp.RedisStats;
import seckill.drill.ramp.ServiceFigures;
import seckill.drill.ramp.rules.Answer;
import seckill.drill.ramp.rules.FirstToGive;
import seckill.drill.ramp.rules.Giving;
import seckill.drill.ramp.rules.Layer;
import seckill.drill.ramp.rules.LayerJudgement;
import seckill.drill.ramp.rules.StepFigures;
import seckill.ledger.api.LedgerAudit;
import seckill.reservation.api.StockAudit;

/**
 * The ramp ({@code drill rehearse}): offers a sale's purchase load at a rate that rises step by step
 * from a share of the target rate to 1.5 times it (open loop: requests leave on a schedule, whether or
 * not earlier ones were answered), records per step the answers by code and their latencies, what
 * Redis spent on scripts, the stream backlog, the ordering rate and the database wait, and names the
 * first layer to shed or saturate ({@link LayerJudgement}). Writes {@code ramp.json}, {@code ramp.txt}
 * and {@code ramp.svg} into the report directory. Reads the stores, never writes them: its buyers go
 * through the service like any buyer.
 */
public final class Ramp {

    private static final JsonProvider JSON = JsonProvider.provider();
    private static final long MAX_MICROS = 120_000_000L;
    /** The ordering workers' consumer group ({@code seckill.reservation.consumer-group}'s default). */
    private static final String CONSUMER_GROUP = "ordering";

    private final RampOptions options;
    private final String adminToken;
    private final Optional<String> redisUri;
    private final Optional<LedgerAudit> ledger;
    private final PrintStream out;
    /** The buyers' API, one per {@code --url}: request k goes to the (k mod n)-th. */
    private final List<SeckillApi> buyers;
    private final SeckillAdminApi admin;
    private final boolean rehearsal;

    /**
     * The deployment refuses rehearsals ({@code 501 REHEARSAL_NOT_AVAILABLE}: no shadow database, or
     * {@code seckill.rehearsal.launch.enabled} off): nothing was created. {@code drill rehearse} exits 3.
     */
    public static final class RehearsalRefused extends Exception {
        public RehearsalRefused(String message) {
            super(message);
        }
    }

    /**
     * @param redisUri the deployment's Redis ({@code seckill.redis.uri}), read-only; empty: no Redis figures
     * @param ledger   the deployment's ledger, read-only (a rehearsal's: the shadow database); empty: the ordering
     *                 rate comes from the metrics
     */
    public Ramp(RampOptions options, String adminToken, Optional<String> redisUri, Optional<LedgerAudit> ledger,
                PrintStream out) {
        this.options = options;
        this.adminToken = adminToken;
        this.redisUri = redisUri;
        this.ledger = ledger;
        this.out = out;
        this.rehearsal = options.rehearsal();
        TokenMint mint = Drill.identityMint(options.identityKey());
        Map<Long, String> tokens = new ConcurrentHashMap<>();
        LongFunction<String> tokenOf = user -> tokens.computeIfAbsent(user,
                u -> mint.mint(u, Instant.now(), Duration.ofHours(2)));
        Optional<RehearsalMark> mark = options.edgeKeyFile().map(Ramp::edgeKey).map(RehearsalMark::new);
        this.buyers = options.urls().stream().map(url -> mark.isPresent()
                ? SeckillClients.rehearsalBuyers(url, options.requestTimeout(), tokenOf, mark.get())
                : SeckillClients.buyers(url, options.requestTimeout(), tokenOf)).toList();
        this.admin = SeckillClients.admin(options.url(), adminToken);
    }

    /** The edge's key from its file: its first line, surrounding blanks left out. */
    private static String edgeKey(java.nio.file.Path file) {
        try {
            return Files.readAllLines(file).stream().findFirst().orElse("").strip();
        } catch (IOException e) {
            throw new IllegalArgumentException("--edge-key-file " + file + " cannot be read: " + e, e);
        }
    }

    /**
     * The one place the ramp's activity is created: stock for every request the ramp will send unless
     * {@code --stock} says otherwise, one unit per buyer, open from now for two hours; with {@code --rehearsal} a
     * shadow sale ({@code "rehearsal": true}).
     */
    private long createActivity() throws RehearsalRefused {
        long stock = options.stock().orElse(Math.max(1, options.plannedRequests()));
        List<NewActivity.Sku> skus = new ArrayList<>();
        for (int i = 1; i <= options.skus(); i++) {
            skus.add(new NewActivity.Sku(i, stock, 1, options.buckets()));
        }
        NewActivity activity = new NewActivity((rehearsal ? "ramp rehearsal " : "ramp ") + Instant.now(),
                Instant.now().minusSeconds(1).toString(), Instant.now().plus(Duration.ofHours(2)).toString(), 900L, skus);
        try {
            return admin.launch(java.util.UUID.randomUUID().toString(), rehearsal ? activity.asRehearsal() : activity)
                    .activityId();
        } catch (SeckillProblem refused) {
            if (rehearsal && refused.status() == 501) {
                throw new RehearsalRefused("the deployment at " + options.url() + " does not launch rehearsals ("
                        + refused.status() + " " + refused.code() + ": no shadow database, seckill.rehearsal.db.url, or "
                        + "seckill.rehearsal.launch.enabled off); nothing was created");
            }
            throw refused;
        }
    }

    /**
     * Runs the ramp; returns the report (also written as files). A rehearsal the ramp launched is purged at the end
     * (also when the ramp fails), unless {@code --keep-rehearsal}.
     */
    public JsonObject run() throws Exception {
        if (options.activity().isPresent()) {
            return ramp(options.activity().get());
        }
        long activity = createActivity();
        if (!rehearsal) {
            return ramp(activity);
        }
        out.printf(Locale.ROOT, "ramp: rehearsal %d launched (shadow sale, docs/rehearsal.md)%n", activity);
        // a ramp stopped mid-run (SIGTERM, Ctrl-C) runs no finally, only shutdown hooks: the purge is one too
        java.util.concurrent.atomic.AtomicBoolean purged = new java.util.concurrent.atomic.AtomicBoolean();
        Thread hook = Thread.ofPlatform().unstarted(() -> purgeOnce(activity, purged));
        if (!options.keepRehearsal()) {
            Runtime.getRuntime().addShutdownHook(hook);
        }
        try {
            return ramp(activity);
        } finally {
            if (options.keepRehearsal()) {
                out.printf(Locale.ROOT, "ramp: rehearsal %d kept (--keep-rehearsal): purge it with DELETE "
                        + "/api/v1/admin/activities/%d%n", activity, activity);
            } else {
                purgeOnce(activity, purged);
                try {
                    Runtime.getRuntime().removeShutdownHook(hook);
                } catch (IllegalStateException shuttingDown) {
                    // the hook runs or ran: it purges the same way, once
                }
            }
        }
    }

    /** Purges the ramp's rehearsal unless done already (the end of the run or the shutdown hook, whichever is first). */
    private void purgeOnce(long activity, java.util.concurrent.atomic.AtomicBoolean purged) {
        if (purged.getAndSet(true)) {
            return;
        }
        admin.purge(activity);
        out.printf(Locale.ROOT, "ramp: rehearsal %d purged (no key and no shadow row of it is left)%n", activity);
    }

    private JsonObject ramp(long activity) throws Exception {
        // buyer ids from the activity's, far apart for activities far apart (a rehearsal's id is 10^15 and above)
        long firstBuyer = Math.floorMod(activity, 100_000_000_000L) * 10_000_000L + 1;
        List<Long> skus = view(buyers.getFirst(), activity, firstBuyer).skus().stream().map(ActivityView.Sku::skuId)
                .toList();
        // the ramp's own HTTP clients are warmed up first (connections, first-call set-up), so the first
        // step's latencies are the service's, not this process's start
        for (SeckillApi api : buyers) {
            for (int i = 0; i < 10; i++) {
                view(api, activity, firstBuyer);
            }
        }
        List<Double> rates = options.rates();
        out.printf(Locale.ROOT, "ramp: %s %d, target %.1f req/s, %d steps of %.1f s from %.1f to %.1f req/s%n",
                rehearsal ? "rehearsal" : "activity", activity, options.targetRate(), rates.size(), options.stepLength().toMillis() / 1000.0, rates.getFirst(),
                rates.getLast());
        ServiceFigures service = new ServiceFigures(options.metrics(), options.url(), adminToken, activity);
        RedisStats redis = null;
        if (redisUri.isPresent()) {
            try {
                redis = RedisStats.of(redisUri.get());
            } catch (RuntimeException e) {
                out.println("ramp: Redis not readable, its figures are left out: " + e.getMessage());
            }
        }
        // a rehearsal's streams, whose backlog the service's gauges do not count (they count the real streams)
        List<String> streams = new ArrayList<>();
        if (rehearsal) {
            for (long sku : skus) {
                for (int b = 0; b < options.buckets(); b++) {
                    streams.add(StockAudit.bucketKey(activity, sku, b, options.buckets(), "events"));
                }
            }
        }
        List<StepRun> runs = new ArrayList<>();
        Semaphore inFlight = new Semaphore(options.maxInFlight());
        AtomicLong nextBuyer = new AtomicLong(firstBuyer);
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < rates.size(); i++) {
                StepRun run = new StepRun(i + 1, rates.get(i));
                run.before = sample(redis, service, activity, streams);
                offer(run, pool, inFlight, activity, skus, nextBuyer);
                run.after = sample(redis, service, activity, streams);
                run.redis = redis == null ? null : RedisStats.between(run.before.redis, run.after.redis);
                runs.add(run);
                out.printf(Locale.ROOT, "ramp: step %d at %.1f req/s: %d sent, answered so far %s%n", run.step,
                        run.rate, run.sent.get(), run.counts());
            }
            // every answer belongs to the step that sent its request: wait for the last ones
            if (!inFlight.tryAcquire(options.maxInFlight(), options.requestTimeout().toMillis() + 5_000,
                    TimeUnit.MILLISECONDS)) {
                out.println("ramp: some requests still unanswered after the request timeout");
            }
        } finally {
            if (redis != null) {
                redis.close();
            }
        }
        return report(activity, runs, service.source(), redis != null);
    }

    /** The activity as the buyers see it; a rehearsal's only with the edge's mark, which names a buyer. */
    private ActivityView view(SeckillApi api, long activity, long buyer) {
        return rehearsal ? api.activity(activity, buyer) : api.activity(activity);
    }

    /** Sends one step's requests on their schedule: the k-th at k / rate seconds into the step. */
    private void offer(StepRun run, ExecutorService pool, Semaphore inFlight, long activity, List<Long> skus,
                       AtomicLong nextBuyer) {
        long start = System.nanoTime();
        long length = options.stepLength().toNanos();
        long count = (long) Math.floor(run.rate * length / 1e9);
        for (long k = 0; k < count; k++) {
            long due = start + Math.round(k * 1e9 / run.rate);
            waitUntil(due);
            if (!inFlight.tryAcquire()) {
                run.skipped.incrementAndGet();
                continue;
            }
            long user = nextBuyer.getAndIncrement();
            long sku = skus.get((int) (user % skus.size()));
            run.sent.incrementAndGet();
            pool.submit(() -> {
                try {
                    purchase(run, activity, user, sku);
                } finally {
                    inFlight.release();
                }
            });
        }
        waitUntil(start + length);
        run.seconds = (System.nanoTime() - start) / 1e9;
    }

    private void purchase(StepRun run, long activity, long user, long sku) {
        long begin = System.nanoTime();
        Answer answer;
        String detail = null;
        try {
            SeckillApi api = buyers.get((int) Math.floorMod(user, (long) buyers.size()));
            Reservation reservation = api.purchase(activity, user, null, new PurchaseRequest(sku, 1, "ramp-" + user));
            answer = reservation.isNew() ? Answer.RESERVED : Answer.ALREADY_RESERVED;
        } catch (SeckillProblem problem) {
            answer = Answer.of(problem.status(), problem.code(), problem.field("limit"));
            detail = problem.status() + " " + problem.code();
        } catch (ProcessingException noAnswer) {
            answer = Answer.NO_ANSWER;
        } catch (RuntimeException unreadable) {
            answer = Answer.OTHER;
            detail = "unreadable " + unreadable.getClass().getSimpleName();
        }
        run.record(answer, detail, (System.nanoTime() - begin) / 1_000);
    }

    private static void waitUntil(long nanoTime) {
        long left;
        while ((left = nanoTime - System.nanoTime()) > 0) {
            LockSupport.parkNanos(left);
        }
    }

    private Sample sample(RedisStats redis, ServiceFigures service, long activity, List<String> streams) {
        Sample s = new Sample();
        s.nanos = System.nanoTime();
        s.redis = redis == null ? null : redis.sample();
        s.service = service.read();
        if (!streams.isEmpty() && redis != null) {
            ServiceFigures.Reading r = s.service;
            s.service = new ServiceFigures.Reading(redis.backlog(streams, CONSUMER_GROUP), Double.NaN, r.ordersCreated(),
                    r.transactionSeconds(), r.transactions());
        }
        s.orders = Double.NaN;
        ledger.ifPresent(l -> {
            try {
                s.orders = l.activity(activity).orders();
            } catch (RuntimeException notNow) {
                // the ledger did not answer: the metrics' count stands in
            }
        });
        return s;
    }

    private JsonObject report(long activity, List<StepRun> runs, String serviceSource, boolean redisRead)
            throws IOException {
        LayerJudgement judgement = new LayerJudgement(options.thresholds());
        List<StepFigures> figures = runs.stream().map(StepRun::figures).toList();
        Optional<FirstToGive> first = judgement.first(figures);
        String verdict = first.map(FirstToGive::sentence).orElse(String.format(Locale.ROOT,
                "no layer shed or saturated up to %.1f req/s (1.5 x the target rate)", runs.getLast().rate));

        JsonArrayBuilder steps = JSON.createArrayBuilder();
        for (int i = 0; i < runs.size(); i++) {
            steps.add(runs.get(i).json(figures.get(i), judgement.gave(figures.get(i))));
        }
        JsonObjectBuilder json = JSON.createObjectBuilder()
                .add("activityId", activity)
                .add("world", rehearsal ? "rehearsal" : "real")
                .add("targetRate", options.targetRate())
                .add("stepSeconds", options.stepLength().toMillis() / 1000.0)
                .add("sources", JSON.createObjectBuilder()
                        .add("service", serviceSource)
                        .add("redis", redisRead ? "INFO commandstats, SLOWLOG, LATENCY LATEST on every master"
                                : "not read")
                        .add("orders", ledger.isPresent() ? "the ledger (orders of the activity)"
                                : rehearsal ? "seckill_orders_created_total{world=\"rehearsal\"}"
                                : "seckill_orders_created_total")
                        .add("backlog", rehearsal ? "XINFO GROUPS of the rehearsal's streams" : "seckill_stream_pending"))
                .add("thresholds", JSON.createObjectBuilder()
                        .add("shedPercent", options.thresholds().shedPercent())
                        .add("p99Millis", options.thresholds().p99Millis())
                        .add("scriptMicros", options.thresholds().scriptMicros())
                        .add("backlogEntries", options.thresholds().backlogEntries())
                        .add("orderingShortfallPercent", options.thresholds().orderingShortfallPercent())
                        .add("minReservations", options.thresholds().minReservations())
                        .add("databaseWaitMillis", options.thresholds().databaseWaitMillis()))
                .add("steps", steps);
        if (first.isPresent()) {
            FirstToGive f = first.get();
            JsonArrayBuilder all = JSON.createArrayBuilder();
            f.all().forEach(g -> all.add(giving(g)));
            json.add("firstToGive", giving(f.named()).add("step", f.step()).add("offeredRate", f.offeredRate())
                    .add("allInThatStep", all));
        } else {
            json.addNull("firstToGive");
        }
        // each layer's first step, for the layers behind the first
        JsonObjectBuilder byLayer = JSON.createObjectBuilder();
        for (Layer layer : Layer.values()) {
            figures.stream().filter(s -> judgement.gave(s).stream().anyMatch(g -> g.layer() == layer)).findFirst()
                    .ifPresentOrElse(s -> byLayer.add(layer.jsonName(), JSON.createObjectBuilder().add("step", s.step())
                            .add("offeredRate", s.offeredRate())), () -> byLayer.addNull(layer.jsonName()));
        }
        json.add("layers", byLayer).add("verdict", verdict).add("chart", "ramp.svg");
        JsonObject report = json.build();

        Files.createDirectories(options.report());
        Files.writeString(options.report().resolve("ramp.json"), report.toString());
        List<RampChart.Point> points = new ArrayList<>();
        for (StepRun run : runs) {
            points.add(run.point());
        }
        Files.writeString(options.report().resolve("ramp.svg"), RampChart.svg(String.format(Locale.ROOT,
                "Ramp of %s %d to 1.5 x %.0f req/s: %s", rehearsal ? "rehearsal" : "activity", activity, options.targetRate(),
                first.map(f -> f.layer().jsonName() + " " + f.named().how().word() + " first at "
                        + String.format(Locale.ROOT, "%.0f req/s", f.offeredRate())).orElse("no layer gave")),
                points, first));
        String text = text(runs, figures, verdict, serviceSource);
        Files.writeString(options.report().resolve("ramp.txt"), text);
        out.print(text);
        out.println("ramp: report in " + options.report().toAbsolutePath());
        return report;
    }

    private static JsonObjectBuilder giving(Giving g) {
        return JSON.createObjectBuilder().add("layer", g.layer().jsonName()).add("how", g.how().word())
                .add("evidence", g.evidence());
    }

    private String text(List<StepRun> runs, List<StepFigures> figures, String verdict, String serviceSource) {
        StringBuilder t = new StringBuilder("==== ramp report ====\n");
        t.append(String.format(Locale.ROOT, "%-4s %9s %7s %7s %7s %7s %7s %7s %7s %7s %9s %8s %8s %8s %7s%n", "step",
                "offered/s", "sent", "202", "edge", "admit", "reserv", "db", "410", "other", "p99 202ms", "script", "backlog",
                "orders/s", "db ms"));
        for (int i = 0; i < runs.size(); i++) {
            StepRun r = runs.get(i);
            StepFigures f = figures.get(i);
            t.append(String.format(Locale.ROOT, "%-4d %9.1f %7d %7d %7d %7d %7d %7d %7d %7d %9s %8s %8s %8s %7s%n",
                    r.step, r.rate, f.sent(), f.reserved(), f.refusedBy(Layer.EDGE), f.refusedBy(Layer.ADMISSION),
                    f.refusedBy(Layer.RESERVATION), f.refusedBy(Layer.DATABASE), r.count(Answer.SOLD_OUT),
                    r.count(Answer.OTHER) + r.count(Answer.ALREADY_RESERVED), figure(f.reservedP99Millis()),
                    figure(f.scriptMicrosPerCall()), f.backlogEnd() < 0 ? "-" : Long.toString(f.backlogEnd()),
                    figure(f.ordersPerSecond()), figure(f.databaseWaitMillis())));
            if (r.skipped.get() > 0) {
                t.append(String.format(Locale.ROOT, "     the ramp skipped %d request(s) at its --max-in-flight %d: "
                        + "the offered rate was not reached%n", r.skipped.get(), options.maxInFlight()));
            }
        }
        t.append("(edge: 429 EDGE, 5xx without problem+json, no answer; admit: 429 GLOBAL/BUYER; reserv: 503 BUSY, "
                + "HALTED, REDIS; db: 503 DATABASE_UNAVAILABLE; script: mean EVALSHA µs; figures: ").append(serviceSource)
                .append(")\n");
        t.append("first to give: ").append(verdict).append('\n');
        return t.toString();
    }

    private static String figure(double v) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.1f", v);
    }

    private static void addNumber(JsonObjectBuilder json, String name, double value) {
        if (Double.isFinite(value)) {
            json.add(name, value);
        } else {
            json.addNull(name);
        }
    }

    /** The stores' and the service's figures at one moment. */
    private static final class Sample {
        long nanos;
        RedisStats.Sample redis;
        ServiceFigures.Reading service;
        double orders;
    }

    /** One step: what was sent and answered, and the samples at its start and end. */
    private final class StepRun {
        final int step;
        final double rate;
        final AtomicLong sent = new AtomicLong();
        final AtomicLong skipped = new AtomicLong();
        final Map<Answer, Histogram> latency = new ConcurrentHashMap<>();
        final Map<String, AtomicLong> others = new ConcurrentHashMap<>();
        double seconds;
        Sample before;
        Sample after;
        RedisStats.Delta redis;

        StepRun(int step, double rate) {
            this.step = step;
            this.rate = rate;
        }

        void record(Answer answer, String detail, long micros) {
            latency.computeIfAbsent(answer, a -> new ConcurrentHistogram(MAX_MICROS, 3))
                    .recordValue(Math.min(Math.max(1, micros), MAX_MICROS));
            if (answer == Answer.OTHER && detail != null) {
                others.computeIfAbsent(detail, d -> new AtomicLong()).incrementAndGet();
            }
        }

        long count(Answer answer) {
            Histogram h = latency.get(answer);
            return h == null ? 0 : h.getTotalCount();
        }

        Map<String, Long> counts() {
            Map<String, Long> counts = new TreeMap<>();
            latency.forEach((a, h) -> counts.put(a.label(), h.getTotalCount()));
            return counts;
        }

        double p99Millis(Answer answer) {
            Histogram h = latency.get(answer);
            return h == null || h.getTotalCount() == 0 ? Double.NaN : h.getValueAtPercentile(99) / 1000.0;
        }

        StepFigures figures() {
            Map<Layer, Long> refused = new EnumMap<>(Layer.class);
            for (Answer a : Answer.values()) {
                a.layer().ifPresent(l -> refused.merge(l, count(a), Long::sum));
            }
            double secs = Math.max(0.001, seconds);
            long reserved = count(Answer.RESERVED);
            double orders = Double.isNaN(after.orders) || Double.isNaN(before.orders)
                    ? after.service.ordersCreated() - before.service.ordersCreated()
                    : after.orders - before.orders;
            double transactions = after.service.transactions() - before.service.transactions();
            double waitMillis = transactions > 0
                    ? 1000 * (after.service.transactionSeconds() - before.service.transactionSeconds()) / transactions
                    : Double.NaN;
            double backlog = after.service.backlog();
            return new StepFigures(step, rate, sent.get(), refused, p99Millis(Answer.RESERVED),
                    redis == null ? Double.NaN : redis.scriptMicrosPerCall(),
                    Double.isNaN(backlog) ? -1 : (long) backlog, reserved, reserved / secs, orders / secs, waitMillis);
        }

        RampChart.Point point() {
            double secs = Math.max(0.001, seconds);
            StepFigures f = figures();
            Map<Layer, Double> refused = new EnumMap<>(Layer.class);
            f.refused().forEach((l, n) -> refused.put(l, n / secs));
            return new RampChart.Point(step, rate, f.reservedPerSecond(), refused, f.reservedP99Millis());
        }

        JsonObjectBuilder json(StepFigures f, List<Giving> gave) {
            JsonObjectBuilder answers = JSON.createObjectBuilder();
            JsonObjectBuilder latencies = JSON.createObjectBuilder();
            for (Answer a : Answer.values()) {
                Histogram h = latency.get(a);
                answers.add(a.label(), h == null ? 0 : h.getTotalCount());
                if (h != null && h.getTotalCount() > 0) {
                    latencies.add(a.label(), JSON.createObjectBuilder()
                            .add("p50", h.getValueAtPercentile(50) / 1000.0)
                            .add("p95", h.getValueAtPercentile(95) / 1000.0)
                            .add("p99", h.getValueAtPercentile(99) / 1000.0)
                            .add("max", h.getMaxValue() / 1000.0));
                }
            }
            JsonObjectBuilder otherAnswers = JSON.createObjectBuilder();
            new TreeMap<>(others).forEach((k, v) -> otherAnswers.add(k, v.get()));
            JsonObjectBuilder refused = JSON.createObjectBuilder();
            for (Layer l : Layer.values()) {
                refused.add(l.jsonName(), f.refusedBy(l));
            }
            JsonObjectBuilder step = JSON.createObjectBuilder()
                    .add("step", this.step)
                    .add("offeredRate", rate)
                    .add("seconds", seconds)
                    .add("sent", sent.get())
                    .add("skipped", skipped.get())
                    .add("answers", answers)
                    .add("otherAnswers", otherAnswers)
                    .add("latencyMillis", latencies)
                    .add("refusedByLayer", refused)
                    .add("reservedPerSecond", f.reservedPerSecond());
            addNumber(step, "reservedP99Millis", f.reservedP99Millis());
            JsonObjectBuilder stream = JSON.createObjectBuilder();
            addNumber(stream, "backlogStart", before.service.backlog());
            addNumber(stream, "backlogEnd", after.service.backlog());
            addNumber(stream, "lagEnd", after.service.lag());
            step.add("stream", stream);
            addNumber(step, "ordersPerSecond", f.ordersPerSecond());
            addNumber(step, "databaseWaitMillis", f.databaseWaitMillis());
            if (redis != null) {
                JsonObjectBuilder busiest = JSON.createObjectBuilder();
                redis.busiest(10).forEach((cmd, t) -> busiest.add(cmd, JSON.createObjectBuilder()
                        .add("calls", t.calls()).add("micros", t.micros())));
                JsonObjectBuilder events = JSON.createObjectBuilder();
                redis.latencyEventsMillis().forEach(events::add);
                JsonObjectBuilder r = JSON.createObjectBuilder()
                        .add("masters", redis.nodes())
                        .add("scriptCalls", redis.scripts().calls())
                        .add("scriptMicros", redis.scripts().micros());
                addNumber(r, "scriptMicrosPerCall", redis.scriptMicrosPerCall());
                step.add("redis", r.add("commands", busiest)
                        .add("slowlogEntries", redis.slowlogEntries())
                        .add("slowlogMaxMicros", redis.slowlogMaxMicros())
                        .add("latencyEventsMillis", events));
            } else {
                step.addNull("redis");
            }
            JsonArrayBuilder gaveWay = JSON.createArrayBuilder();
            gave.forEach(g -> gaveWay.add(giving(g)));
            return step.add("gave", gaveWay);
        }
    }
}
