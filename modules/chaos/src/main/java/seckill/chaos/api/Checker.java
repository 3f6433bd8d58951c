package seckill.chaos.api;

import java.io.StringReader;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import redis.clients.jedis.UnifiedJedis;
import seckill.chaos.api.HistoryEntry.Operation;

/**
 * Judges a chaos run against the service's promises from three sources only: the run's
 * {@link History}, plain SQL on the ledger's tables and plain Redis reads of the stock keys. It
 * shares no code with the service, so it cannot share the service's mistakes. Each promise gets a
 * verdict with counterexamples: the requests (history sequence number, buyer, requestId,
 * reservation) or rows involved, at most {@code maxExamples} of each.
 */
public final class Checker {

    private final LedgerReading ledger;
    private final ShelfReading shelf;
    private final int maxExamples;

    /**
     * A checker over the ledger and, with {@code redis}, the live shelf; with {@code redis} null it
     * judges the shelf the history recorded ({@link HistoryEntry.ShelfRead}), to judge a run again later.
     */
    public Checker(Connection ledger, UnifiedJedis redis, int maxExamples) {
        this.ledger = new LedgerReading(ledger);
        this.shelf = redis == null ? null : new ShelfReading(redis);
        this.maxExamples = maxExamples;
    }

    /** Reads the activity's shelf now, as {@link #judge} does, for the runner to keep in the history. */
    public HistoryEntry.ShelfRead readShelf(long activityId, long nanos, String wall) {
        if (shelf == null) {
            throw new IllegalStateException("no Redis to read the shelf from");
        }
        Map<Long, Long> units = new LinkedHashMap<>();
        ledger.stock(activityId).forEach(s -> units.put(s.skuId(), shelf.units(activityId, s.skuId(), s.buckets())));
        return new HistoryEntry.ShelfRead(activityId, units, unitsInFlight(activityId), nanos, wall);
    }

    /**
     * Units per SKU held by events in the activity's bucket streams that no ordering worker has
     * acknowledged (pending with a consumer, or not delivered yet): units on their way to an order,
     * neither on the shelf nor in the ledger. The runner waits until none are left before judging.
     */
    public Map<Long, Long> unitsInFlight(long activityId) {
        if (shelf == null) {
            throw new IllegalStateException("no Redis to read the streams from");
        }
        Map<Long, Long> units = new LinkedHashMap<>();
        ledger.stock(activityId).forEach(s -> units.put(s.skuId(),
                shelf.inFlight(activityId, s.skuId(), s.buckets(), 0).units()));
        return units;
    }

    public Verdict judge(History history) {
        HistoryEntry.ActivityLaunched activity = history.activity()
                .orElseThrow(() -> new IllegalArgumentException("the history names no activity: nothing to judge"));
        long activityId = activity.activityId();
        List<Operation> ops = history.operations();
        List<LedgerReading.Order> orders = ledger.orders(activityId);
        List<LedgerReading.Failure> failures = ledger.failures(activityId);
        List<LedgerReading.Refill> refills = ledger.refills(activityId);
        List<LedgerReading.Stock> stock = ledger.stock(activityId);
        // the shelf is read after the ledger: the run is quiescent by now, and the order is stated in docs/chaos.md
        Map<Long, Long> onShelf = new HashMap<>();
        // units of events no worker acknowledged: not counted as accounted for (the run waits for them),
        // only named, so a stranding by a stream nobody reads says so
        Map<Long, ShelfReading.InFlight> inFlight = new HashMap<>();
        if (shelf != null) {
            stock.forEach(s -> onShelf.put(s.skuId(), shelf.units(activityId, s.skuId(), s.buckets())));
            stock.forEach(s -> inFlight.put(s.skuId(), shelf.inFlight(activityId, s.skuId(), s.buckets(), maxExamples)));
        } else {
            history.shelf().filter(r -> r.activityId() == activityId).ifPresent(r -> {
                onShelf.putAll(r.units());
                r.inFlight().forEach((sku, n) -> inFlight.put(sku, new ShelfReading.InFlight(n, List.of())));
            });
        }

        List<Verdict.PromiseVerdict> verdicts = new ArrayList<>();
        verdicts.add(reservationsSettled(activityId, ops, orders, failures, refills));
        verdicts.add(noPhantomOrder(activityId, ops, orders));
        verdicts.add(notOversold(orders, stock));
        verdicts.add(oneOrderPerBuyer(orders));
        verdicts.add(noStrandedUnit(orders, refills, stock, onShelf, inFlight, failures));
        verdicts.add(each(Promise.NO_500, ops, op -> op.status() >= 500 && op.status() != 503));
        verdicts.add(each(Promise.RETRY_AFTER, ops,
                op -> (op.status() == 429 || op.status() == 503) && (op.retryAfter() == null || op.retryAfter().isBlank())));
        verdicts.add(resumesAfterHeal(history, ops));
        verdicts.add(reconciledClean(ops));
        verdicts.add(noForgedPayment(activityId, ops));
        verdicts.add(noStaleSoldOut(history, activityId, ops, refills, onShelf));
        verdicts.add(onTimePaymentAccepted(activityId, activity.paymentWindowSeconds(), ops, orders));
        return new Verdict(verdicts);
    }

    private Verdict.PromiseVerdict reservationsSettled(long activityId, List<Operation> ops,
                                                       List<LedgerReading.Order> orders,
                                                       List<LedgerReading.Failure> failures,
                                                       List<LedgerReading.Refill> refills) {
        Map<String, List<LedgerReading.Order>> ordersById = orders.stream()
                .collect(Collectors.groupingBy(LedgerReading.Order::reservationId));
        Map<String, List<LedgerReading.Failure>> failuresById = failures.stream()
                .collect(Collectors.groupingBy(LedgerReading.Failure::reservationId));
        Map<String, List<LedgerReading.Refill>> refillsById = refills.stream()
                .collect(Collectors.groupingBy(LedgerReading.Refill::reservationId));
        Examples examples = new Examples(maxExamples);
        Map<String, Operation> firstAnswer = new LinkedHashMap<>();
        for (Operation op : ops) {
            if (isPurchase(op) && (op.status() == 202 || op.status() == 200) && op.activity() != null
                    && op.activity() == activityId) {
                reservationId(op).ifPresentOrElse(id -> firstAnswer.putIfAbsent(id, op),
                        () -> examples.add(describe(op) + ": answered " + op.status() + " without a reservationId"));
            }
        }
        firstAnswer.forEach((id, op) -> {
            List<LedgerReading.Order> o = ordersById.getOrDefault(id, List.of());
            List<LedgerReading.Failure> f = failuresById.getOrDefault(id, List.of());
            if (o.size() + f.size() == 0) {
                examples.add(describe(op) + ": reservation " + id + " is neither an order nor FAILED (lost)");
            } else if (o.size() + f.size() > 1) {
                examples.add(describe(op) + ": reservation " + id + " is " + o.size() + " order(s) and " + f.size()
                        + " failure(s)");
            } else if (!o.isEmpty() && (o.getFirst().userId() != op.buyer() || o.getFirst().skuId() != op.sku())) {
                examples.add(describe(op) + ": reservation " + id + " became an order of buyer " + o.getFirst().userId()
                        + " sku " + o.getFirst().skuId());
            } else if (!f.isEmpty() && refillsById.getOrDefault(id, List.of()).stream().noneMatch(r -> r.status() == 1)) {
                examples.add(describe(op) + ": reservation " + id + " FAILED but its unit is not back in Redis"
                        + " (no applied refill in stock_sync_outbox)");
            }
        });
        return examples.verdict(Promise.RESERVATION_SETTLED);
    }

    private Verdict.PromiseVerdict noPhantomOrder(long activityId, List<Operation> ops, List<LedgerReading.Order> orders) {
        Map<String, List<Operation>> sent = ops.stream().filter(Checker::isPurchase)
                .filter(op -> op.buyer() != null && op.activity() != null && op.sku() != null && op.requestId() != null)
                .collect(Collectors.groupingBy(op -> op.activity() + "/" + op.sku() + "/" + op.buyer() + "/"
                        + op.requestId()));
        Examples examples = new Examples(maxExamples);
        for (LedgerReading.Order order : orders) {
            Optional<String> clientId = clientRequestId(order.requestId());
            boolean made = clientId.isPresent() && !sent.getOrDefault(activityId + "/" + order.skuId() + "/"
                    + order.userId() + "/" + clientId.get(), List.of()).isEmpty();
            if (!made) {
                examples.add("order of reservation " + order.reservationId() + " (buyer " + order.userId() + ", sku "
                        + order.skuId() + ", request " + order.requestId() + ") has no purchase in the history"
                        + " that could have made it");
            }
        }
        return examples.verdict(Promise.NO_PHANTOM_ORDER);
    }

    /**
     * The client's requestId inside the ledger's scoped one: {@code activity/sku/buyer/requestId} (the
     * separator is outside a requestId's characters), or {@code activity:buyer:requestId} in rows
     * written before SKUs were part of it.
     */
    static Optional<String> clientRequestId(String scoped) {
        java.util.regex.Matcher current = java.util.regex.Pattern.compile("^\\d+/\\d+/\\d+/(.+)$").matcher(scoped);
        if (current.matches()) {
            return Optional.of(current.group(1));
        }
        java.util.regex.Matcher legacy = java.util.regex.Pattern.compile("^\\d+:\\d+:(.+)$").matcher(scoped);
        return legacy.matches() ? Optional.of(legacy.group(1)) : Optional.empty();
    }

    private Verdict.PromiseVerdict notOversold(List<LedgerReading.Order> orders, List<LedgerReading.Stock> stock) {
        Examples examples = new Examples(maxExamples);
        for (LedgerReading.Stock s : stock) {
            List<LedgerReading.Order> live = orders.stream()
                    .filter(o -> o.skuId() == s.skuId() && o.status() != 2).toList();
            long units = live.stream().mapToLong(LedgerReading.Order::quantity).sum();
            if (units > s.total()) {
                examples.add("sku " + s.skuId() + ": " + units + " units held by " + live.size() + " live orders, stock "
                        + s.total() + "; e.g. reservations " + live.stream().limit(5)
                        .map(LedgerReading.Order::reservationId).toList());
            }
        }
        return examples.verdict(Promise.NOT_OVERSOLD);
    }

    private Verdict.PromiseVerdict oneOrderPerBuyer(List<LedgerReading.Order> orders) {
        Examples examples = new Examples(maxExamples);
        orders.stream().collect(Collectors.groupingBy(o -> o.skuId() + "/" + o.userId())).forEach((key, same) -> {
            if (same.size() > 1) {
                examples.add("buyer " + same.getFirst().userId() + " has " + same.size() + " orders of sku "
                        + same.getFirst().skuId() + ": reservations "
                        + same.stream().map(LedgerReading.Order::reservationId).toList() + ", requests "
                        + same.stream().map(LedgerReading.Order::requestId).toList());
            }
        });
        return examples.verdict(Promise.ONE_ORDER_PER_BUYER);
    }

    private Verdict.PromiseVerdict noStrandedUnit(List<LedgerReading.Order> orders, List<LedgerReading.Refill> refills,
                                                  List<LedgerReading.Stock> stock, Map<Long, Long> onShelf,
                                                  Map<Long, ShelfReading.InFlight> inFlight,
                                                  List<LedgerReading.Failure> failures) {
        Examples examples = new Examples(maxExamples);
        for (LedgerReading.Stock s : stock) {
            Long recorded = onShelf.get(s.skuId());
            if (recorded == null) {
                examples.add("sku " + s.skuId() + ": no shelf reading (no Redis given and none in the history)");
                continue;
            }
            long shelf = recorded;
            long live = orders.stream().filter(o -> o.skuId() == s.skuId() && o.status() != 2)
                    .mapToLong(LedgerReading.Order::quantity).sum();
            long pending = refills.stream().filter(r -> r.skuId() == s.skuId() && r.status() == 0)
                    .mapToLong(LedgerReading.Refill::quantity).sum();
            if (shelf < 0) {
                examples.add("sku " + s.skuId() + ": its stock keys are gone from Redis; nothing can be sold");
            } else if (shelf + live + pending != s.total()) {
                java.util.Set<String> refilled = refills.stream().filter(r -> r.status() == 1)
                        .map(LedgerReading.Refill::reservationId).collect(Collectors.toSet());
                List<String> unreturned = new ArrayList<>();
                orders.stream().filter(o -> o.skuId() == s.skuId() && o.status() == 2
                        && !refilled.contains(o.reservationId())).limit(5)
                        .forEach(o -> unreturned.add("expired order " + o.reservationId()));
                failures.stream().filter(f -> f.skuId() == s.skuId() && !refilled.contains(f.reservationId())).limit(5)
                        .forEach(f -> unreturned.add("failed reservation " + f.reservationId()));
                examples.add("sku " + s.skuId() + ": Redis stock " + shelf + " + live units " + live
                        + " + pending refills " + pending + " = " + (shelf + live + pending) + ", total " + s.total()
                        + (shelf + live + pending < s.total() ? " (stranded " + (s.total() - shelf - live - pending)
                        + ")" : " (over by " + (shelf + live + pending - s.total()) + ")")
                        + (unreturned.isEmpty() ? "" : "; not given back: " + unreturned)
                        + inFlightNote(inFlight.get(s.skuId())));
            }
        }
        return examples.verdict(Promise.NO_STRANDED_UNIT);
    }

    private static String inFlightNote(ShelfReading.InFlight held) {
        if (held == null || held.units() == 0) {
            return "";
        }
        return "; " + held.units() + " unit(s) held by events no ordering worker acknowledged when the run ended"
                + (held.reservations().isEmpty() ? "" : " (reservations " + held.reservations() + ")");
    }

    private Verdict.PromiseVerdict each(Promise promise, List<Operation> ops, Predicate<Operation> broken) {
        Examples examples = new Examples(maxExamples);
        ops.stream().filter(broken).forEach(op -> examples.add(describe(op) + ": " + op.status()
                + (op.retryAfter() == null ? " without Retry-After" : "") + " " + abbreviate(op.body())));
        return examples.verdict(promise);
    }

    private Verdict.PromiseVerdict resumesAfterHeal(History history, List<Operation> ops) {
        Examples examples = new Examples(maxExamples);
        Optional<HistoryEntry.Healed> healed = history.healed();
        int instances = history.run().map(HistoryEntry.RunStarted::instances).orElse(0);
        if (healed.isEmpty()) {
            examples.add("the run never healed its faults (no 'healed' line): a halt that never lifts cannot be ruled out");
            return examples.verdict(Promise.RESUMES_AFTER_HEAL);
        }
        long heal = healed.get().nanos();
        long bound = healed.get().resumeBoundMillis() * 1_000_000L;
        for (int i = 0; i < instances; i++) {
            int instance = i;
            List<Operation> after = ops.stream()
                    .filter(op -> isPurchase(op) && op.instance() == instance && op.sendNanos() >= heal).toList();
            boolean served = after.stream().anyMatch(op -> serving(op) && op.answerNanos() - heal <= bound);
            if (!served) {
                examples.add("instance " + instance + ": no purchase answered within "
                        + healed.get().resumeBoundMillis() + " ms of the heal; answers after it: "
                        + after.stream().limit(5).map(op -> "#" + op.seq() + " +" + (op.answerNanos() - heal) / 1_000_000
                        + "ms " + (op.answered() ? op.status() + " " + abbreviate(op.body()) : op.error())).toList());
            }
        }
        return examples.verdict(Promise.RESUMES_AFTER_HEAL);
    }

    private Verdict.PromiseVerdict reconciledClean(List<Operation> ops) {
        Examples examples = new Examples(maxExamples);
        Optional<Operation> last = ops.stream().filter(op -> op.kind() == OpKind.RECONCILE).reduce((a, b) -> b);
        if (last.isEmpty()) {
            examples.add("no reconciliation in the history");
        } else if (last.get().status() != 200) {
            examples.add(describe(last.get()) + ": " + last.get().status() + " " + last.get().error() + " "
                    + abbreviate(last.get().body()));
        } else {
            JsonObject report = parse(last.get().body()).orElse(JsonValue.EMPTY_JSON_OBJECT);
            var skus = report.getJsonArray("skus");
            if (skus == null || skus.isEmpty()) {
                examples.add(describe(last.get()) + ": no SKU in the report " + abbreviate(last.get().body()));
            } else {
                skus.stream().map(JsonValue::asJsonObject).filter(s -> !"CLEAN".equals(s.getString("state", "")))
                        .forEach(s -> examples.add("sku " + s.get("skuId") + ": " + s.getString("state", "?") + " "
                                + abbreviate(s.toString())));
            }
        }
        return examples.verdict(Promise.RECONCILED_CLEAN);
    }

    /**
     * Every PAID order's (order number, payment id) is a genuine callback's in the history: a
     * {@code PAYMENT} answered 200 naming both, or one that sent both and got no answer or a 5xx (it
     * may have committed). Every forged callback was answered something other than 2xx and its
     * payment id left no audit row.
     */
    private Verdict.PromiseVerdict noForgedPayment(long activityId, List<Operation> ops) {
        Examples examples = new Examples(maxExamples);
        Map<String, Operation> genuine = new HashMap<>();
        for (Operation op : ops) {
            if (op.kind() != OpKind.PAYMENT || op.isForged()) {
                continue;
            }
            if (op.status() == 200) {
                parse(op.body()).ifPresent(b -> genuine.putIfAbsent(
                        b.getString("orderNo", "") + "/" + b.getString("paymentId", ""), op));
            } else if (op.status() == 0 || op.status() >= 500) {
                parse(sentBody(op)).ifPresent(b -> genuine.putIfAbsent(
                        b.getString("orderNo", "") + "/" + b.getString("paymentId", ""), op));
            }
        }
        for (LedgerReading.Paid paid : ledger.paid(activityId)) {
            if (!genuine.containsKey(paid.orderNo() + "/" + paid.paymentId())) {
                List<String> sent = ops.stream().filter(op -> op.kind() == OpKind.PAYMENT || op.isForged())
                        .filter(op -> op.sent() != null && op.sent().contains(paid.orderNo())).limit(3)
                        .map(op -> describe(op) + (op.isForged() ? " forged " + op.forged() : "") + " answered "
                                + op.status() + " sent " + abbreviate(op.sent(), 400)).toList();
                examples.add("order " + paid.orderNo() + " (reservation " + paid.reservationId() + ", buyer "
                        + paid.userId() + ") is PAID by payment " + paid.paymentId()
                        + " but no genuine callback in the history paid it; callbacks naming it: " + sent);
            }
        }
        for (Operation op : ops) {
            if (!op.isForged()) {
                continue;
            }
            Optional<String> paymentId = parse(sentBody(op)).map(b -> b.getString("paymentId", null));
            Optional<LedgerReading.PaymentRow> row = paymentId.flatMap(ledger::payment);
            if (op.status() >= 200 && op.status() < 300) {
                examples.add(describe(op) + " forged " + op.forged() + ": answered " + op.status() + " "
                        + abbreviate(op.body()) + "; sent " + abbreviate(op.sent(), 400));
            } else if (row.isPresent()) {
                examples.add(describe(op) + " forged " + op.forged() + ": answered " + op.status()
                        + " but left payment row " + row.get() + "; sent " + abbreviate(op.sent(), 400));
            }
        }
        return examples.verdict(Promise.NO_FORGED_PAYMENT);
    }

    /**
     * How long a sold-out answer may lag a unit's return to the shelf: an instance's sold-out mark lives
     * 5 s ({@code seckill.admission.sold-out-flag-seconds}) unless a restock's broadcast clears it first;
     * twice that.
     */
    public static final java.time.Duration STALE_SOLD_OUT_BOUND = java.time.Duration.ofSeconds(10);

    private static final java.util.regex.Pattern CLOCK_OFFSET = java.util.regex.Pattern.compile("clock ([+-]?\\d+) s");
    private static final java.util.regex.Pattern LOST_BUCKET = java.util.regex.Pattern.compile("^sku (\\d+) bucket \\d+ .*: deleted");
    private static final String THRESHOLD = "seckill.admission.sold-out-threshold=";

    /**
     * A 410 {@code SOLD_OUT} sent at {@code t} for a SKU is stale when units were on its shelf throughout the
     * request and were still there, unsold, at the end. From the end backwards, the shelf only ever lost
     * units to reservations and gained them from refills (and from a preheat after a lost bucket), so
     * {@code shelf(t) >= shelf(end) - (units refilled after t)}. Counted as "after t": every applied refill of
     * the SKU whose {@code applied_at} (the service's clock) is later than {@code t - bound - skew}, or
     * unknown; bound {@link #STALE_SOLD_OUT_BOUND}, skew the largest offset of any {@code CLOCK_MOVE} of the
     * run (an instance with a moved clock writes {@code applied_at} on it). If what is left is above 0, at
     * least that many units sat on the shelf, unsold to the end, while the buyer was told there were none.
     * Not judged (the answer is allowed there): while an operator's {@code sold-out-threshold} above 0 is in
     * force on any instance (flipped on, until its flip back was answered, plus the bound: marks are shared
     * by broadcast), and for a SKU whose quiet bucket a {@code KEY_LOSS} deleted, from the fault's start
     * until the first preheat answered 200 after it, plus the bound (the preheat adds units that are not
     * refills).
     */
    private Verdict.PromiseVerdict noStaleSoldOut(History history, long activityId, List<Operation> ops,
                                                 List<LedgerReading.Refill> refills, Map<Long, Long> onShelf) {
        Examples examples = new Examples(maxExamples);
        long bound = STALE_SOLD_OUT_BOUND.toMillis();
        long skew = history.faults().stream().filter(f -> f.kind() == FaultKind.CLOCK_MOVE)
                .map(f -> CLOCK_OFFSET.matcher(f.target())).filter(java.util.regex.Matcher::find)
                .mapToLong(m -> Math.abs(Long.parseLong(m.group(1).replace("+", "")))).max().orElse(0) * 1000;
        // windows in which a sold-out answer is the operator's or the lost bucket's, not judged: [from, to] millis
        List<long[]> everySku = new ArrayList<>();
        Map<Long, List<long[]>> perSku = new HashMap<>();
        Map<Integer, Long> thresholdOn = new HashMap<>();
        for (Operation op : ops) {
            if (op.kind() == OpKind.SWITCH_FLIP && op.body() != null && op.body().startsWith(THRESHOLD)) {
                boolean on = !op.body().substring(THRESHOLD.length()).trim().equals("0");
                if (on) {
                    thresholdOn.putIfAbsent(op.instance(), millis(op.sendWall()));
                } else if (thresholdOn.containsKey(op.instance())) {
                    everySku.add(new long[] {thresholdOn.remove(op.instance()), millis(op.answerWall()) + bound});
                }
            }
        }
        thresholdOn.values().forEach(from -> everySku.add(new long[] {from, Long.MAX_VALUE}));
        for (HistoryEntry.FaultEvent f : history.faults()) {
            java.util.regex.Matcher lost = LOST_BUCKET.matcher(f.target());
            if (f.kind() == FaultKind.KEY_LOSS && lost.find()) {
                long from = millis(f.startWall());
                long to = ops.stream().filter(op -> op.kind() == OpKind.PREHEAT && op.status() == 200)
                        .mapToLong(op -> millis(op.answerWall())).filter(at -> at >= from).min().orElse(Long.MAX_VALUE);
                perSku.computeIfAbsent(Long.parseLong(lost.group(1)), k -> new ArrayList<>())
                        .add(new long[] {from, to == Long.MAX_VALUE ? to : to + bound});
            }
        }
        for (Operation op : ops) {
            if (!isPurchase(op) || op.status() != 410 || op.body() == null || !op.body().contains("SOLD_OUT")
                    || op.activity() == null || op.activity() != activityId || op.sku() == null) {
                continue;
            }
            long sent = millis(op.sendWall());
            if (sent == Long.MIN_VALUE || within(everySku, sent) || within(perSku.getOrDefault(op.sku(), List.of()), sent)) {
                continue;
            }
            long end = onShelf.getOrDefault(op.sku(), 0L);
            long since = sent - bound - skew;
            long returned = refills.stream().filter(r -> r.skuId() == op.sku() && r.status() == 1)
                    .filter(r -> r.appliedAt() == null || r.appliedAt().toEpochMilli() > since)
                    .mapToLong(LedgerReading.Refill::quantity).sum();
            if (end - returned > 0) {
                examples.add(describe(op) + ": answered 410 SOLD_OUT at " + op.answerWall() + ", yet " + (end - returned)
                        + " unit(s) of sku " + op.sku() + " were on the shelf from " + java.time.Instant.ofEpochMilli(since)
                        + " (sent " + op.sendWall() + " less the " + bound / 1000 + " s bound" + (skew > 0 ? " and the "
                        + skew / 1000 + " s clock skew" : "") + ") to the end, unsold (shelf at the end " + end
                        + ", refills applied since then or at an unknown time " + returned + ")");
            }
        }
        return examples.verdict(Promise.NO_STALE_SOLD_OUT);
    }

    /**
     * How much earlier than the end of its window at the earliest a payment must have been answered to be
     * judged on time: the runner's clock against the ledger database's (one host here; NTP's skew on two),
     * plus an instance's reading of the ledger's clock (half a round trip of its {@code SELECT}, and
     * changes under 20 ms not applied), plus {@code DATETIME(3)}'s truncation. Latency is not in it: the
     * window is counted from a send, the payment judged by its answer.
     */
    public static final java.time.Duration ON_TIME_MARGIN = java.time.Duration.ofSeconds(2);

    /**
     * A genuine {@code PAYMENT} (not forged) of the activity answered {@code 409 ORDER_EXPIRED} is a
     * violation when it was answered (the runner's wall clock) before {@code S + window - margin}: its order
     * is the sent body's {@code orderNo} in {@code seckill_order}, with a reservation a purchase of the
     * history was answered 202/200 for; {@code S} is the send time of the first purchase or probe with the
     * order's activity, SKU, buyer and requestId (any of them may have made the reservation, and the order,
     * whose deadline is its creation plus the window, is made after the reservation, so not before {@code S});
     * {@code window} the activity's {@code paymentWindowSeconds}; margin {@link #ON_TIME_MARGIN}. The
     * service checked the deadline between the payment's send and its answer, so the answer time is
     * late enough whatever the payment's latency; and {@code S} is early enough whatever the 202's (a
     * paused instance answers a reservation it made seconds before). Payments whose times cannot be read,
     * whose order is not in the ledger or whose reservation no 202/200 named are not judged.
     */
    private Verdict.PromiseVerdict onTimePaymentAccepted(long activityId, long windowSeconds, List<Operation> ops,
                                                        List<LedgerReading.Order> orders) {
        Examples examples = new Examples(maxExamples);
        Map<String, LedgerReading.Order> byOrderNo = new HashMap<>();
        orders.forEach(o -> byOrderNo.put(o.orderNo(), o));
        java.util.Set<String> answered = new java.util.HashSet<>();
        Map<String, Operation> firstSent = new HashMap<>();
        for (Operation op : ops) {
            if (!isPurchase(op) || op.activity() == null || op.activity() != activityId || op.sku() == null
                    || op.buyer() == null || op.requestId() == null) {
                continue;
            }
            if (op.status() == 202 || op.status() == 200) {
                reservationId(op).ifPresent(answered::add);
            }
            long sent = millis(op.sendWall());
            if (sent != Long.MIN_VALUE) {
                firstSent.merge(activityId + "/" + op.sku() + "/" + op.buyer() + "/" + op.requestId(), op,
                        (a, b) -> millis(b.sendWall()) < millis(a.sendWall()) ? b : a);
            }
        }
        long margin = ON_TIME_MARGIN.toMillis();
        for (Operation op : ops) {
            if (op.kind() != OpKind.PAYMENT || op.isForged() || op.status() != 409 || op.body() == null
                    || !op.body().contains("ORDER_EXPIRED") || op.activity() == null || op.activity() != activityId) {
                continue;
            }
            LedgerReading.Order order = parse(sentBody(op)).map(b -> byOrderNo.get(b.getString("orderNo", "")))
                    .orElse(null);
            long answeredAt = millis(op.answerWall());
            if (order == null || !answered.contains(order.reservationId()) || answeredAt == Long.MIN_VALUE) {
                continue;
            }
            Optional<Operation> first = clientRequestId(order.requestId()).map(id -> firstSent.get(
                    activityId + "/" + order.skuId() + "/" + order.userId() + "/" + id));
            if (first.isEmpty()) {
                continue;
            }
            long opened = millis(first.get().sendWall());
            long earliestEnd = opened + windowSeconds * 1000;
            if (answeredAt < earliestEnd - margin) {
                examples.add(describe(op) + ": answered 409 ORDER_EXPIRED at " + op.answerWall() + " (sent "
                        + op.sendWall() + ") for order " + order.orderNo() + " (reservation " + order.reservationId()
                        + ", buyer " + order.userId() + "), whose " + windowSeconds + " s window ran at the earliest to "
                        + java.time.Instant.ofEpochMilli(earliestEnd) + " (its first purchase #" + first.get().seq()
                        + " sent " + first.get().sendWall() + "): " + (earliestEnd - answeredAt)
                        + " ms early, margin " + margin + " ms");
            }
        }
        return examples.verdict(Promise.ON_TIME_PAYMENT_ACCEPTED);
    }

    private static boolean within(List<long[]> windows, long at) {
        return windows.stream().anyMatch(w -> at >= w[0] && at <= w[1]);
    }

    /** An ISO-8601 wall time in epoch millis; {@code Long.MIN_VALUE} when it cannot be read. */
    private static long millis(String wall) {
        try {
            return java.time.Instant.parse(wall).toEpochMilli();
        } catch (RuntimeException e) {
            return Long.MIN_VALUE;
        }
    }

    /** A purchase answered by a sale that sells: not a 5xx (a halt is 503), not a 429. */
    private static boolean serving(Operation op) {
        return op.answered() && op.status() < 500 && op.status() != 429;
    }

    private static boolean isPurchase(Operation op) {
        return op.kind() == OpKind.PURCHASE || op.kind() == OpKind.PROBE;
    }

    static Optional<String> reservationId(Operation op) {
        return parse(op.body()).map(o -> o.getString("reservationId", null));
    }

    private static Optional<JsonObject> parse(String body) {
        if (body == null || !body.trim().startsWith("{")) {
            return Optional.empty();
        }
        try (JsonReader reader = Json.createReader(new StringReader(body))) {
            return Optional.of(reader.readObject());
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    private static String describe(Operation op) {
        return "#" + op.seq() + " " + op.kind() + " step " + op.step() + " instance " + op.instance()
                + (op.buyer() == null ? "" : " buyer " + op.buyer())
                + (op.sku() == null ? "" : " sku " + op.sku())
                + (op.requestId() == null ? "" : " requestId " + op.requestId());
    }

    private static String abbreviate(String body) {
        return abbreviate(body, 160);
    }

    private static String abbreviate(String body, int max) {
        if (body == null) {
            return "";
        }
        String flat = body.replaceAll("\\s+", " ");
        return flat.length() <= max ? flat : flat.substring(0, max) + "...";
    }

    /** The body a request sent: the first line of {@code sent} (the headers that mattered follow it). */
    private static String sentBody(Operation op) {
        return op.sent() == null ? null : op.sent().split("\n", 2)[0];
    }

    /** Counts every violation, keeps the first few as counterexamples. */
    private static final class Examples {
        private final int max;
        private final List<String> kept = new ArrayList<>();
        private long count;

        Examples(int max) {
            this.max = max;
        }

        void add(String example) {
            count++;
            if (kept.size() < max) {
                kept.add(example);
            }
        }

        Verdict.PromiseVerdict verdict(Promise promise) {
            return new Verdict.PromiseVerdict(promise, count, kept);
        }
    }
}
