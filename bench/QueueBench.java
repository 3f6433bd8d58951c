import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The waiting room's benchmark (issue #33), driven by {@code bench/queue-bench.sh} against a running service:
 * <ul>
 *   <li>{@code retry}: today's crowd with the line off, a global rate in force; every buyer clicks, honours
 *       {@code Retry-After} and clicks again with the same requestId until reserved or sold out.</li>
 *   <li>{@code line}: the same crowd with the line on at the same rate: each buyer joins, follows the event
 *       stream, buys with the pass on the turn, and stops at its order or at sold out.</li>
 *   <li>{@code prequeue}: the line's crowd joining before the start (the order is drawn at the start).</li>
 *   <li>{@code streams}: many buyers joined (joins per second measured), each following an open event
 *       stream; the service's RSS before and after they open; then the rate is raised in the switches file
 *       and the delay from each buyer's call (its pass's expiry minus the pass lifetime, on the service's
 *       clock, the same host) to the turn arriving at the buyer is measured.</li>
 * </ul>
 * Prints {@code key=value} lines for the script. Buyers are named by bearer tokens signed with the first key
 * of {@code SECKILL_IDENTITY_HMAC_KEYS} ({@link BuyerTokens}). JDK only.
 */
public class QueueBench {

    static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).executor(Executors.newVirtualThreadPerTaskExecutor()).build();
    static URI base;
    static String adminToken;
    static String[] key;
    static long tokenExpiry = Instant.now().plusSeconds(3 * 3600).getEpochSecond();
    static final AtomicLong requests = new AtomicLong();
    /** The service's pass lifetime (seckill.queue.pass-seconds; the script leaves the default). */
    static final long PASS_MILLIS = 30_000;
    static final AtomicLong streamsOpened = new AtomicLong();
    static final AtomicLong eventsPushed = new AtomicLong();

    public static void main(String[] args) throws Exception {
        base = URI.create(args[0]);
        adminToken = args[1];
        key = System.getenv("SECKILL_IDENTITY_HMAC_KEYS").split(",")[0].split("=", 2);
        String phase = args[2];
        switch (phase) {
            case "retry", "line" -> crowd(phase, Integer.parseInt(args[3]), Integer.parseInt(args[4]),
                    Long.parseLong(args[5]));
            case "prequeue" -> prequeue(Integer.parseInt(args[3]), Integer.parseInt(args[4]), Long.parseLong(args[5]));
            case "streams" -> streams(Integer.parseInt(args[3]), Long.parseLong(args[4]), Path.of(args[5]),
                    Integer.parseInt(args[6]), Long.parseLong(args[7]), Integer.parseInt(args[8]));
            default -> throw new IllegalArgumentException(phase);
        }
        System.exit(0);
    }

    // --- the crowd: 429-and-retry against the line

    /** One buyer's story: when they arrived (index), when they got their unit (ms since the start), and calls. */
    record Story(int arrival, long wonAtMillis, long calls, String outcome, long knewAtMillis, long reservedAtMillis,
                 Joined joined) {
        Story(int arrival, long wonAtMillis, long calls) {
            this(arrival, wonAtMillis, calls, null, -1, -1, null);
        }

        Story(int arrival, long wonAtMillis, long calls, String outcome, long knewAtMillis, long reservedAtMillis) {
            this(arrival, wonAtMillis, calls, outcome, knewAtMillis, reservedAtMillis, null);
        }
    }

    /**
     * A buyer of the line as the line saw them (ms since the crowd's t0 on this host's clock; -1: did not happen):
     * when the join that got the place was sent and answered (and how many joins it took: 503s are sent again),
     * the place it answered (the line's join order: places are handed out in the order joins reach Redis), the
     * place and the call written in the pass (its expiry less its lifetime: the tick's time, the same for every
     * buyer one tick called), and when the turn reached this buyer on the stream.
     */
    record Joined(long firstSentMillis, long sentMillis, long answeredMillis, int attempts, long place,
                  long passPlace, long calledMillis, long turnHeardMillis) {
    }

    static void crowd(String phase, int buyers, int stock, long firstBuyer) throws Exception {
        // a whole second, so that the line's places (numbered from the ms since the start) read back as times exactly
        Instant startsAt = Instant.now().minusSeconds(60).truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        long activity = activity(stock, startsAt);
        long t0 = System.currentTimeMillis();
        List<Story> stories = run(buyers, firstBuyer, i -> phase.equals("retry")
                ? retryUntilDecided(activity, firstBuyer + i, i, t0)
                : waitInLine(activity, firstBuyer + i, i, t0), 2000);
        long won = stories.stream().filter(s -> s.wonAtMillis() >= 0).count();
        long calls = stories.stream().mapToLong(Story::calls).sum();
        System.out.println(phase + ".buyers=" + buyers);
        System.out.println(phase + ".stock=" + stock);
        System.out.println(phase + ".won=" + won);
        System.out.println(phase + ".requests=" + calls);
        System.out.println(phase + ".requestsPerWinner=" + String.format("%.2f", won == 0 ? 0.0 : (double) calls / won));
        System.out.println(phase + ".streams=" + streamsOpened.get());
        System.out.println(phase + ".events=" + eventsPushed.get());
        System.out.println(phase + ".seconds=" + String.format("%.1f", (System.currentTimeMillis() - t0) / 1000.0));
        System.out.println(phase + ".rho=" + String.format("%.3f", fairness(stories)));
        if (phase.equals("line")) {
            lineOrder(phase, stories, buyers, 2000, startsAt.toEpochMilli() - t0);
        }
        // how each buyer's story ended, and when: the sold-out buyers counted from the last unit reserved
        Map<String, List<Long>> byOutcome = new java.util.TreeMap<>();
        for (Story s : stories) {
            if (s != null && s.outcome() != null) {
                byOutcome.computeIfAbsent(s.outcome(), x -> new ArrayList<>()).add(s.knewAtMillis());
            }
        }
        byOutcome.forEach((o, ts) -> System.out.println(phase + ".outcome." + o.replace(' ', '_') + "=" + ts.size()));
        long lastReserved = stories.stream().filter(s -> s != null).mapToLong(Story::reservedAtMillis).max().orElse(-1);
        System.out.println(phase + ".lastReservedSeconds=" + String.format("%.1f", lastReserved / 1000.0));
        if (phase.equals("line")) {
            // from the line's call (the pass's expiry less its lifetime, 30 s by default) to the buyer's reservation
            long[] buying = stories.stream().filter(s -> s != null && s.reservedAtMillis() >= 0)
                    .mapToLong(s -> s.reservedAtMillis() - (s.wonAtMillis() - PASS_MILLIS)).sorted().toArray();
            long lastCall = stories.stream().filter(s -> s != null && s.wonAtMillis() >= 0)
                    .mapToLong(s -> s.wonAtMillis() - PASS_MILLIS).max().orElse(-1);
            System.out.println(phase + ".lastCalledSeconds=" + String.format("%.1f", lastCall / 1000.0));
            if (buying.length > 0) {
                System.out.println(phase + ".calledToReservedP50Millis=" + buying[buying.length / 2]);
                System.out.println(phase + ".calledToReservedMaxMillis=" + buying[buying.length - 1]);
            }
        }
        List<Long> soldOut = byOutcome.getOrDefault("sold out", List.of());
        if (lastReserved >= 0 && !soldOut.isEmpty()) {
            long[] after = soldOut.stream().mapToLong(t -> t - lastReserved).sorted().toArray();
            System.out.println(phase + ".soldOutAfterLastReservedP50Millis=" + after[after.length / 2]);
            System.out.println(phase + ".soldOutAfterLastReservedMaxMillis=" + after[after.length - 1]);
        }
    }

    static void prequeue(int buyers, int stock, long firstBuyer) throws Exception {
        Instant start = Instant.now().plusSeconds(6);
        long activity = activity(stock, start);
        long t0 = System.currentTimeMillis();
        // everyone arrives in the 3 s before the start, in order, and waits for the draw
        List<Story> stories = run(buyers, firstBuyer, i -> waitInLine(activity, firstBuyer + i, i, t0), 3000);
        System.out.println("prequeue.buyers=" + buyers);
        System.out.println("prequeue.won=" + stories.stream().filter(s -> s.wonAtMillis() >= 0).count());
        System.out.println("prequeue.rho=" + String.format("%.3f", fairness(stories)));
        lineOrder("prequeue", stories, buyers, 3000, Long.MIN_VALUE);
    }

    /** The place a join after the start gets: {@code line.lua}'s PRE_QUEUE_ROOM + 1000 x (ms since the start) + 1. */
    static final long PLACE_BASE = 1_000_000_000_000L;

    /**
     * The line's order beside the arrival's (issue #33's measure: for buyers who joined after the start, the rank
     * correlation of join order and admission order): join order is the order the joins reached the line (the
     * place it answered; before the start, when a pre-queue join has no place, the order they were sent), admission
     * order is the order it called them (the pass's call time; one tick calls several at the same time: ties).
     * Also where the arrival order is lost before the join reaches the line, and any call out of join order.
     */
    static void lineOrder(String phase, List<Story> stories, int buyers, long spreadMillis, long startsAtMillis) {
        List<Story> joined = stories.stream().filter(s -> s != null && s.joined() != null && s.joined().place() >= 0)
                .toList();
        List<Story> winners = joined.stream().filter(s -> s.wonAtMillis() >= 0 && s.joined().calledMillis() >= 0)
                .toList();
        List<Story> called = joined.stream().filter(s -> s.joined().calledMillis() >= 0).toList();
        boolean placed = startsAtMillis != Long.MIN_VALUE;
        java.util.function.ToDoubleFunction<Story> joinOrder = placed
                ? s -> s.joined().place() : s -> s.joined().sentMillis();
        java.util.function.ToDoubleFunction<Story> callOrder = s -> s.joined().calledMillis();
        out(phase, "rhoJoinCall", spearman(winners, joinOrder, callOrder));
        out(phase, "rhoJoinCallAllCalled", spearman(called, joinOrder, callOrder));
        out(phase, "rhoSentCall", spearman(winners, s -> s.joined().sentMillis(), callOrder));
        // the order as the buyers lived it: their turn pushed on the stream, their purchase reserved
        out(phase, "rhoJoinTurnHeard", spearman(winners, joinOrder, s -> s.joined().turnHeardMillis()));
        out(phase, "rhoJoinReserved", spearman(winners, joinOrder, Story::reservedAtMillis));
        out(phase, "rhoArrivalSent", spearman(winners, Story::arrival, s -> s.joined().sentMillis()));
        out(phase, "rhoArrivalJoin", spearman(winners, Story::arrival, joinOrder));
        out(phase, "rhoSentJoin", spearman(winners, s -> s.joined().sentMillis(), joinOrder));
        out(phase, "rhoArrivalJoinAllJoined", spearman(joined, Story::arrival, joinOrder));
        // calls out of join order: two buyers called, the one who joined first called strictly later
        long pairs = 0;
        long outOfOrder = 0;
        long sameTick = 0;
        for (int i = 0; i < called.size(); i++) {
            for (int j = i + 1; j < called.size(); j++) {
                Joined a = called.get(i).joined();
                Joined b = called.get(j).joined();
                double ja = joinOrder.applyAsDouble(called.get(i));
                double jb = joinOrder.applyAsDouble(called.get(j));
                pairs++;
                if (a.calledMillis() == b.calledMillis()) {
                    sameTick++;
                } else if (ja != jb && (ja < jb) != (a.calledMillis() < b.calledMillis())) {
                    outOfOrder++;
                }
            }
        }
        System.out.println(phase + ".called=" + called.size());
        System.out.println(phase + ".calledPairs=" + pairs);
        System.out.println(phase + ".calledPairsOutOfJoinOrder=" + outOfOrder);
        System.out.println(phase + ".calledPairsSameTick=" + sameTick);
        System.out.println(phase + ".callTimes=" + called.stream().mapToLong(s -> s.joined().calledMillis()).distinct().count());
        System.out.println(phase + ".passPlaceDiffers=" + called.stream()
                .filter(s -> placed && s.joined().passPlace() != s.joined().place()).count());
        // a buyer never called although one who joined after them was
        double lastCalled = called.stream().mapToDouble(joinOrder).max().orElse(Double.NEGATIVE_INFINITY);
        System.out.println(phase + ".passedOver=" + joined.stream()
                .filter(s -> s.joined().calledMillis() < 0 && joinOrder.applyAsDouble(s) < lastCalled).count());
        System.out.println(phase + ".joinedMoreThanOnce=" + joined.stream().filter(s -> s.joined().attempts() > 1).count());
        System.out.println(phase + ".joinsRefused=" + new java.util.TreeMap<>(JOIN_REFUSALS));
        JOIN_REFUSALS.clear();
        System.out.println(phase + ".winnersJoinedMoreThanOnce=" + winners.stream().filter(s -> s.joined().attempts() > 1).count());
        System.out.println(phase + ".winnersArrivedWithinMillis=" + winners.stream()
                .mapToLong(s -> spreadMillis * s.arrival() / buyers).max().orElse(-1));
        // where the arrival order goes: from the arrival (the thread's start) to the join sent, from the join sent to
        // the line's handling of it (read from the place: ms since the start), and the join's answer
        percentiles(phase, "winnerSendLag", winners.stream()
                .mapToLong(s -> s.joined().sentMillis() - spreadMillis * s.arrival() / buyers).toArray());
        if (placed) {
            percentiles(phase, "winnerJoinReachedLineLag", winners.stream().filter(s -> s.joined().attempts() == 1)
                    .mapToLong(s -> startsAtMillis + (s.joined().place() - PLACE_BASE) / 1000 - s.joined().sentMillis())
                    .toArray());
        }
        percentiles(phase, "winnerJoinAnswered", winners.stream()
                .mapToLong(s -> s.joined().answeredMillis() - s.joined().sentMillis()).toArray());
        percentiles(phase, "winnerTurnHeardAfterCall", winners.stream()
                .mapToLong(s -> s.joined().turnHeardMillis() - s.joined().calledMillis()).toArray());
        // how far each winner moved between the arrival's order and the line's (ranks among the winners)
        double[] byArrival = ranks(winners.stream().mapToDouble(Story::arrival).toArray());
        double[] byJoin = ranks(winners.stream().mapToDouble(joinOrder).toArray());
        double shift = 0;
        double maxShift = 0;
        for (int i = 0; i < byArrival.length; i++) {
            shift += Math.abs(byArrival[i] - byJoin[i]);
            maxShift = Math.max(maxShift, Math.abs(byArrival[i] - byJoin[i]));
        }
        System.out.println(phase + ".winnerRankShiftArrivalToJoinMean=" + String.format("%.1f",
                byArrival.length == 0 ? 0 : shift / byArrival.length));
        System.out.println(phase + ".winnerRankShiftArrivalToJoinMax=" + String.format("%.0f", maxShift));
    }

    static void out(String phase, String name, double value) {
        System.out.println(phase + "." + name + "=" + String.format("%.3f", value));
    }

    static void percentiles(String phase, String name, long[] values) {
        long[] sorted = Arrays.stream(values).sorted().toArray();
        if (sorted.length == 0) {
            return;
        }
        System.out.println(phase + "." + name + "P50Millis=" + sorted[sorted.length / 2]);
        System.out.println(phase + "." + name + "P99Millis=" + sorted[(int) Math.min(sorted.length - 1, sorted.length * 0.99)]);
        System.out.println(phase + "." + name + "MaxMillis=" + sorted[sorted.length - 1]);
    }

    interface Buyer {
        Story live(int index) throws Exception;
    }

    /** Runs {@code buyers} buyers arriving evenly over {@code spreadMillis}, each on a virtual thread. */
    static List<Story> run(int buyers, long firstBuyer, Buyer buyer, long spreadMillis) throws Exception {
        Story[] stories = new Story[buyers];
        long t0 = System.nanoTime();
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < buyers; i++) {
                int index = i;
                long arriveAt = t0 + TimeUnit.MILLISECONDS.toNanos(spreadMillis * i / buyers);
                threads.submit(() -> {
                    sleepUntil(arriveAt);
                    try {
                        stories[index] = buyer.live(index);
                    } catch (Exception e) {
                        stories[index] = new Story(index, -1, 0);
                        System.err.println("buyer " + index + ": " + e);
                    }
                    return null;
                });
            }
        }
        return Arrays.asList(stories);
    }

    /** Spearman's rank correlation of arrival and winning order, over the buyers who won. */
    static double fairness(List<Story> stories) {
        List<Story> winners = stories.stream().filter(s -> s != null && s.wonAtMillis() >= 0).toList();
        if (winners.size() < 3) {
            return Double.NaN;
        }
        return spearman(winners, Story::arrival, Story::wonAtMillis);
    }

    /** Spearman's rank correlation of two orders over the stories given (ties given their mean rank). */
    static double spearman(List<Story> stories, java.util.function.ToDoubleFunction<Story> x,
                           java.util.function.ToDoubleFunction<Story> y) {
        if (stories.size() < 3) {
            return Double.NaN;
        }
        double[] arrival = ranks(stories.stream().mapToDouble(x).toArray());
        double[] won = ranks(stories.stream().mapToDouble(y).toArray());
        double n = stories.size();
        double ma = Arrays.stream(arrival).average().orElse(0);
        double mw = Arrays.stream(won).average().orElse(0);
        double cov = 0;
        double va = 0;
        double vw = 0;
        for (int i = 0; i < n; i++) {
            cov += (arrival[i] - ma) * (won[i] - mw);
            va += (arrival[i] - ma) * (arrival[i] - ma);
            vw += (won[i] - mw) * (won[i] - mw);
        }
        return cov / Math.sqrt(va * vw);
    }

    /** Ranks with ties given their mean rank. */
    static double[] ranks(double[] values) {
        Integer[] order = new Integer[values.length];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Double.compare(values[a], values[b]));
        double[] ranks = new double[values.length];
        for (int i = 0; i < order.length; ) {
            int j = i;
            while (j + 1 < order.length && values[order[j + 1]] == values[order[i]]) {
                j++;
            }
            for (int k = i; k <= j; k++) {
                ranks[order[k]] = (i + j) / 2.0 + 1;
            }
            i = j + 1;
        }
        return ranks;
    }

    /** Today's protocol: click, honour Retry-After, click again with the same requestId. */
    static Story retryUntilDecided(long activity, long buyer, int index, long t0) throws Exception {
        String token = token(buyer);
        String requestId = "bench-" + buyer;
        long calls = 0;
        while (true) {
            HttpResponse<String> answer = purchase(activity, token, requestId, null);
            calls++;
            int status = answer.statusCode();
            long at = System.currentTimeMillis() - t0;
            if (status == 202 || status == 200) {
                return new Story(index, at, calls, "reserved", at, at);
            }
            if (status == 410 || status == 409 && answer.body().contains("ENDED")) {
                return new Story(index, -1, calls, status == 410 ? "sold out" : "ended", at, -1);
            }
            if (status == 429 || status == 503) {
                Thread.sleep(1000L * Math.max(1, retryAfter(answer)));
                continue;
            }
            System.err.println("retry buyer " + buyer + ": " + status + " " + answer.body());
            return new Story(index, -1, calls);
        }
    }

    /** The line's protocol: join, follow the stream, buy with the pass, stop at the order or sold out. */
    static Story waitInLine(long activity, long buyer, int index, long t0) throws Exception {
        String token = token(buyer);
        String lastIdOfJoin = null;
        long calls = 0;
        JoinAnswer joined;
        long firstSent = -1;
        long sent;
        int attempts = 0;
        EventStream opened = null;
        while (true) {
            attempts++;
            if (JOIN_STREAM) {
                Joining joining;
                try {
                    joining = EventStream.join(activity, token, t0);
                } catch (IOException lost) {
                    Thread.sleep(1000);
                    continue;
                }
                Map<String, String> first = joining.stream() == null ? null : joining.stream().next();
                if (joining.stream() != null && first == null) {
                    joining.stream().close();
                    Thread.sleep(1000);
                    continue;
                }
                opened = joining.stream();
                joined = new JoinAnswer(joining.statusCode(), first == null ? joining.body() : first.get("data"),
                        joining.retryAfter(), joining.sentMillis());
                lastIdOfJoin = first == null ? null : first.get("id");
            } else {
                joined = join(activity, token, t0);
            }
            sent = joined.sentMillis();
            firstSent = firstSent < 0 ? sent : firstSent;
            calls++;
            if (joined.statusCode() == 410) {
                return new Story(index, -1, calls, null, -1, -1,
                        new Joined(firstSent, sent, System.currentTimeMillis() - t0, attempts, -1, -1, -1, -1));
            }
            if (joined.statusCode() == 200) {
                break;
            }
            JOIN_REFUSALS.computeIfAbsent(joined.statusCode() + "_" + field(joined.body(), "code"), c -> new AtomicLong())
                    .incrementAndGet();
            Thread.sleep(1000L * Math.max(1, joined.retryAfter()));
        }
        long answered = System.currentTimeMillis() - t0;
        long place = Long.parseLong(number(joined.body(), "place"));
        long[] passPlace = {-1};
        long[] calledAt = {-1};
        long[] turnHeard = {-1};
        String ticket = field(joined.body(), "ticket");
        String lastId = lastIdOfJoin;
        long[] wonAt = {-1};
        long reservedAt = -1;
        String[] outcome = {null};
        // (the joining stream's first event, the place joined, is read above: the stream goes on from there)
        String joinedData = opened == null ? null : joined.body();
        while (outcome[0] == null) {
            EventStream open;
            if (opened != null) {
                open = opened;
                opened = null;
            } else {
                calls++;
                open = EventStream.open(activity, token, ticket, lastId);
            }
            try (EventStream stream = open) {
                Map<String, String> event;
                if (joinedData != null) {
                    event = Map.of("event", "place", "data", joinedData);
                    joinedData = null;
                } else {
                    event = stream.next();
                }
                for (; event != null; event = stream.next()) {
                    lastId = event.getOrDefault("id", lastId);
                    String data = event.getOrDefault("data", "");
                    if ("place".equals(event.get("event"))) {
                        String state = field(data, "state");
                        if ("YOUR_TURN".equals(state) && wonAt[0] < 0) {
                            // as the buyer's page does: a purchase answered 429 or 503 (BUSY: the line's Redis did
                            // not answer the pass's claim in time) is sent again after Retry-After with the same
                            // requestId and pass while the pass lasts. (Until 2026-12-03 the benchmark's buyer gave
                            // up, holding the pass: its unit waited for the pass's expiry, 30 s, and so did the line.)
                            String pass = field(data, "pass");
                            long passExpires = Instant.parse(field(data, "passExpiresAt")).toEpochMilli();
                            turnHeard[0] = System.currentTimeMillis() - t0;
                            // the pass says which place the line called, and when (its expiry less its lifetime)
                            String[] written = passPayload(pass);
                            passPlace[0] = Long.parseLong(written[4]);
                            calledAt[0] = Long.parseLong(written[5]) - PASS_MILLIS - t0;
                            HttpResponse<String> bought = purchase(activity, token, "bench-" + buyer, pass);
                            calls++;
                            while ((bought.statusCode() == 429 || bought.statusCode() == 503)
                                    && System.currentTimeMillis() + 1000L * Math.max(1, retryAfter(bought)) < passExpires) {
                                Thread.sleep(1000L * Math.max(1, retryAfter(bought)));
                                bought = purchase(activity, token, "bench-" + buyer, pass);
                                calls++;
                            }
                            if (bought.statusCode() == 202 || bought.statusCode() == 200) {
                                reservedAt = System.currentTimeMillis() - t0;
                                // the admission order is the line's: when it called the buyer (the pass's
                                // expiry less its lifetime, the same for all), not when this thread heard of it
                                wonAt[0] = passExpires - t0;
                            } else {
                                outcome[0] = "refused " + bought.statusCode() + " " + field(bought.body(), "code");
                                break;
                            }
                        } else if ("SOLD_OUT".equals(state)) {
                            outcome[0] = "sold out";
                            break;
                        } else if ("EXPIRED".equals(state)) {
                            outcome[0] = "expired";
                            break;
                        }
                    } else if ("reservation".equals(event.get("event")) && !data.contains("\"QUEUED\"")) {
                        outcome[0] = "ordered";
                        break;
                    }
                }
            } catch (IOException e) {
                Thread.sleep(1000);  // the stream broke: reconnect with the last id
            }
            if (outcome[0] == null && wonAt[0] >= 0) {
                outcome[0] = "reserved";
            }
        }
        return new Story(index, wonAt[0], calls, outcome[0], System.currentTimeMillis() - t0, reservedAt,
                new Joined(firstSent, sent, answered, attempts, place, passPlace[0], calledAt[0], turnHeard[0]));
    }

    /** A join on {@code POST …/queue/events}: its status, a refusal's body and Retry-After, the stream when joined. */
    record Joining(int statusCode, String body, int retryAfter, long sentMillis, EventStream stream) {
    }

    /**
     * Whether a buyer joins and follows in one request ({@code POST …/queue/events}, the page's and the typed client's
     * way since issue #33's requests-per-winner step) or, with {@code QB_JOIN_STREAM=0}, joins ({@code POST …/queue})
     * and then opens the stream: two requests.
     */
    static final boolean JOIN_STREAM = !"0".equals(System.getenv("QB_JOIN_STREAM"));

    /** A join's answer, and when it was sent (ms since t0): as the client was asked to, or as its bytes were written. */
    record JoinAnswer(int statusCode, String body, int retryAfter, long sentMillis) {
    }

    /**
     * With {@code QB_RAW_JOIN=1} a join is written by the buyer's own thread on a socket of its own (connected, then
     * the request written, and that time recorded), so that the time sent is when its bytes reached the service's
     * host, not when the shared HTTP client was asked to send it: what reorders the joins is then the service's alone.
     */
    /** Joins answered other than 200 or 410 (then sent again after Retry-After), by status and problem code. */
    static final Map<String, AtomicLong> JOIN_REFUSALS = new ConcurrentHashMap<>();

    static final boolean RAW_JOIN = "1".equals(System.getenv("QB_RAW_JOIN"));

    static JoinAnswer join(long activity, String token, long t0) throws IOException, InterruptedException {
        String path = "/api/v1/activities/" + activity + "/queue";
        if (!RAW_JOIN) {
            long sent = System.currentTimeMillis() - t0;
            HttpResponse<String> answer = send(HttpRequest.newBuilder(base.resolve(path))
                    .header("Authorization", "Bearer " + token).POST(HttpRequest.BodyPublishers.noBody()));
            return new JoinAnswer(answer.statusCode(), answer.body(), retryAfter(answer), sent);
        }
        requests.incrementAndGet();
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(base.getHost(), base.getPort()), 10_000);
            socket.setSoTimeout(30_000);
            EventStream answer = new EventStream(socket);
            OutputStream out = socket.getOutputStream();
            out.write(("POST " + path + " HTTP/1.1\r\nHost: " + base.getHost() + ":" + base.getPort()
                    + "\r\nAuthorization: Bearer " + token + "\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            long sent = System.currentTimeMillis() - t0;
            String status = answer.rawLine();
            if (status == null) {
                throw new IOException("join: no answer");
            }
            int code = Integer.parseInt(status.split(" ")[1]);
            int retryAfter = 1;
            long length = -1;
            String line;
            while ((line = answer.rawLine()) != null && !line.isEmpty()) {
                String lower = line.toLowerCase();
                if (lower.startsWith("transfer-encoding:") && lower.contains("chunked")) {
                    answer.chunked = true;
                } else if (lower.startsWith("content-length:")) {
                    length = Long.parseLong(line.substring(15).trim());
                } else if (lower.startsWith("retry-after:")) {
                    try {
                        retryAfter = Integer.parseInt(line.substring(12).trim());
                    } catch (NumberFormatException e) {
                        retryAfter = 1;
                    }
                }
            }
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            byte[] more;
            while ((length < 0 || body.size() < length) && (more = answer.body()) != null) {
                body.write(more);
            }
            return new JoinAnswer(code, body.toString(StandardCharsets.UTF_8), retryAfter, sent);
        }
    }

    /** The fields a pass carries: {@code p1|key|activity|buyer|place|expiresEpochMillis} (signed, not secret). */
    static String[] passPayload(String pass) {
        String payload = new String(java.util.Base64.getUrlDecoder().decode(pass.substring(0, pass.indexOf('.'))),
                StandardCharsets.UTF_8);
        return payload.split("\\|");
    }

    // --- many open streams

    static void streams(int buyers, long firstBuyer, Path switches, int raisedRate, long measureMillis, int passSeconds)
            throws Exception {
        long activity = activity(1_000_000, Instant.now().minusSeconds(60));
        String[] tokens = new String[buyers];
        for (int i = 0; i < buyers; i++) {
            tokens[i] = token(firstBuyer + i);
        }
        String[] tickets = new String[buyers];
        long joinStart = System.nanoTime();
        try (ExecutorService threads = Executors.newFixedThreadPool(64, Thread.ofVirtual().factory())) {
            for (int i = 0; i < buyers; i++) {
                int index = i;
                threads.submit(() -> {
                    HttpResponse<String> joined = send(HttpRequest.newBuilder(
                                    base.resolve("/api/v1/activities/" + activity + "/queue"))
                            .header("Authorization", "Bearer " + tokens[index]).POST(HttpRequest.BodyPublishers.noBody()));
                    if (joined.statusCode() != 200) {
                        throw new IllegalStateException("join " + joined.statusCode() + " " + joined.body());
                    }
                    tickets[index] = field(joined.body(), "ticket");
                    return null;
                });
            }
        }
        double joinSeconds = (System.nanoTime() - joinStart) / 1e9;
        System.out.println("streams.joins=" + buyers);
        System.out.println("streams.joinsPerSecond=" + String.format("%.0f", buyers / joinSeconds));
        System.out.println("streams.rssBeforeKiB=" + rss());
        CountDownLatch connected = new CountDownLatch(buyers);
        Map<Long, Long> latencies = new ConcurrentHashMap<>();
        // only buyers called after the rate was raised count: the few called at 1 a second before had no stream yet
        long[] raisedAt = {Long.MAX_VALUE};
        AtomicLong failed = new AtomicLong();
        List<EventStream> open = java.util.Collections.synchronizedList(new ArrayList<>());
        ExecutorService readers = Executors.newVirtualThreadPerTaskExecutor();
        long openStart = System.nanoTime();
        for (int i = 0; i < buyers; i++) {
            int index = i;
            readers.submit(() -> {
                boolean counted = false;
                try (EventStream stream = EventStream.open(activity, tokens[index], tickets[index], null)) {
                    open.add(stream);
                    Map<String, String> event;
                    while ((event = stream.next()) != null) {
                        if (!counted) {
                            counted = true;
                            connected.countDown();
                        }
                        String data = event.getOrDefault("data", "");
                        if ("YOUR_TURN".equals(field(data, "state"))) {
                            long calledAt = Instant.parse(field(data, "passExpiresAt")).toEpochMilli() - passSeconds * 1000L;
                            if (calledAt >= raisedAt[0]) {
                                latencies.put((long) index, System.currentTimeMillis() - calledAt);
                            }
                            return null;
                        }
                    }
                } catch (IOException e) {
                    failed.incrementAndGet();
                }
                if (!counted) {
                    connected.countDown();
                }
                return null;
            });
        }
        boolean all = connected.await(120, TimeUnit.SECONDS);
        System.out.println("streams.openSeconds=" + String.format("%.1f", (System.nanoTime() - openStart) / 1e9));
        System.out.println("streams.allConnected=" + all + " failed=" + failed.get());
        Thread.sleep(3000);
        System.out.println("streams.open=" + open.size());
        System.out.println("streams.rssAfterKiB=" + rss());
        String original = Files.readString(switches);
        raisedAt[0] = System.currentTimeMillis();
        Files.writeString(switches, original.replace("seckill.queue.rate: 1", "seckill.queue.rate: " + raisedRate));
        Thread.sleep(measureMillis);
        Files.writeString(switches, original);
        long[] delays = latencies.values().stream().mapToLong(Long::longValue).sorted().toArray();
        System.out.println("streams.turnsPushed=" + delays.length);
        if (delays.length > 0) {
            System.out.println("streams.pushDelayP50Millis=" + delays[delays.length / 2]);
            System.out.println("streams.pushDelayP99Millis=" + delays[(int) Math.min(delays.length - 1, delays.length * 0.99)]);
            System.out.println("streams.pushDelayMaxMillis=" + delays[delays.length - 1]);
            System.out.println("streams.withinOneSecond=" + Arrays.stream(delays).filter(d -> d <= 1000).count());
        }
        synchronized (open) {
            open.forEach(EventStream::closeQuietly);
        }
        readers.shutdownNow();
    }

    static long rss() throws IOException {
        String pid = System.getenv("SERVICE_PID");
        for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        return -1;
    }

    // --- HTTP

    static long activity(int stock, Instant startsAt) throws Exception {
        String body = "{\"name\":\"queue bench\",\"startsAt\":\"" + startsAt + "\",\"endsAt\":\""
                + Instant.now().plusSeconds(7200) + "\",\"skus\":[{\"skuId\":1,\"stock\":" + stock + "}]}";
        HttpResponse<String> created = HTTP.send(HttpRequest.newBuilder(base.resolve("/api/v1/admin/activities"))
                .header("Authorization", "Bearer " + adminToken).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        if (created.statusCode() != 201 && created.statusCode() != 200) {
            throw new IllegalStateException("activity: " + created.statusCode() + " " + created.body());
        }
        return Long.parseLong(number(created.body(), "activityId"));
    }

    static HttpResponse<String> purchase(long activity, String token, String requestId, String pass) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve("/api/v1/activities/" + activity + "/purchases"))
                .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"skuId\":1,\"quantity\":1,\"requestId\":\"" + requestId + "\"}"));
        if (pass != null) {
            request.header("X-Queue-Pass", pass);
        }
        return send(request);
    }

    static HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
        requests.incrementAndGet();
        return HTTP.send(request.timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
    }

    static int retryAfter(HttpResponse<?> answer) {
        try {
            return Integer.parseInt(answer.headers().firstValue("Retry-After").orElse("1").trim());
        } catch (NumberFormatException e) {
            return 1;
        }
    }

    static String token(long buyer) throws Exception {
        return BuyerTokens.token(key[0], key[1], buyer, tokenExpiry);
    }

    static String field(String json, String name) {
        Matcher m = Pattern.compile("\"" + name + "\":\"([^\"]*)\"").matcher(json);
        return m.find() ? m.group(1) : null;
    }

    static String number(String json, String name) {
        Matcher m = Pattern.compile("\"" + name + "\":(-?[0-9]+)").matcher(json);
        if (!m.find()) {
            throw new IllegalStateException("no " + name + " in " + json);
        }
        return m.group(1);
    }

    static void sleepUntil(long nanos) throws InterruptedException {
        long left = nanos - System.nanoTime();
        if (left > 0) {
            TimeUnit.NANOSECONDS.sleep(left);
        }
    }

    /**
     * One Server-Sent Events stream over a plain socket (HTTP/1.1, chunked or not): light enough that ten thousand
     * fit in this process, each read by a virtual thread.
     */
    static final class EventStream implements AutoCloseable {
        private final Socket socket;
        private final InputStream in;
        private boolean chunked;
        private long chunkLeft;
        private final StringBuilder pending = new StringBuilder();

        private EventStream(Socket socket) throws IOException {
            this.socket = socket;
            this.in = new BufferedInputStream(socket.getInputStream(), 2048);
        }

        static EventStream open(long activity, String token, String ticket, String lastId) throws IOException {
            streamsOpened.incrementAndGet();
            requests.incrementAndGet();
            Socket socket = new Socket();
            socket.connect(new InetSocketAddress(base.getHost(), base.getPort()), 10_000);
            EventStream stream = new EventStream(socket);
            StringBuilder head = new StringBuilder("GET /api/v1/activities/" + activity + "/queue/events HTTP/1.1\r\n")
                    .append("Host: ").append(base.getHost()).append(':').append(base.getPort()).append("\r\n")
                    .append("Accept: text/event-stream\r\nAuthorization: Bearer ").append(token).append("\r\n");
            if (ticket != null) {
                head.append("X-Queue-Ticket: ").append(ticket).append("\r\n");
            }
            if (lastId != null) {
                head.append("Last-Event-ID: ").append(lastId).append("\r\n");
            }
            OutputStream out = socket.getOutputStream();
            out.write(head.append("\r\n").toString().getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String status = stream.rawLine();
            if (status == null || !status.startsWith("HTTP/1.1 200")) {
                socket.close();
                throw new IOException("stream answered " + status);
            }
            String line;
            while ((line = stream.rawLine()) != null && !line.isEmpty()) {
                if (line.toLowerCase().startsWith("transfer-encoding:") && line.toLowerCase().contains("chunked")) {
                    stream.chunked = true;
                }
            }
            return stream;
        }

        /**
         * {@code POST …/queue/events}: joins the line and follows it in one request. Its answer: 200 with the stream
         * (its first event the place joined), or the refusal's status, body and Retry-After (the stream then null).
         */
        static Joining join(long activity, String token, long t0) throws IOException {
            requests.incrementAndGet();
            Socket socket = new Socket();
            socket.connect(new InetSocketAddress(base.getHost(), base.getPort()), 10_000);
            socket.setSoTimeout(60_000);
            EventStream stream = new EventStream(socket);
            OutputStream out = socket.getOutputStream();
            out.write(("POST /api/v1/activities/" + activity + "/queue/events HTTP/1.1\r\nHost: " + base.getHost() + ":"
                    + base.getPort() + "\r\nAccept: text/event-stream\r\nAuthorization: Bearer " + token
                    + "\r\nContent-Length: 0\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            long sent = System.currentTimeMillis() - t0;
            String status = stream.rawLine();
            if (status == null) {
                socket.close();
                throw new IOException("join: no answer");
            }
            int code = Integer.parseInt(status.split(" ")[1]);
            int retryAfter = 1;
            long length = -1;
            String line;
            while ((line = stream.rawLine()) != null && !line.isEmpty()) {
                String lower = line.toLowerCase();
                if (lower.startsWith("transfer-encoding:") && lower.contains("chunked")) {
                    stream.chunked = true;
                } else if (lower.startsWith("content-length:")) {
                    length = Long.parseLong(line.substring(15).trim());
                } else if (lower.startsWith("retry-after:")) {
                    try {
                        retryAfter = Integer.parseInt(line.substring(12).trim());
                    } catch (NumberFormatException e) {
                        retryAfter = 1;
                    }
                }
            }
            if (code == 200) {
                streamsOpened.incrementAndGet();
                return new Joining(code, "", retryAfter, sent, stream);
            }
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            byte[] more;
            while ((length < 0 || body.size() < length) && (more = stream.body()) != null) {
                body.write(more);
            }
            socket.close();
            return new Joining(code, body.toString(StandardCharsets.UTF_8), retryAfter, sent, null);
        }

        /** The next event (id, event, data), or null when the stream ended. */
        Map<String, String> next() throws IOException {
            Map<String, String> event = new HashMap<>();
            while (true) {
                String line = line();
                if (line == null) {
                    return null;
                }
                if (line.isEmpty()) {
                    if (event.containsKey("data")) {
                        eventsPushed.incrementAndGet();
                        return event;
                    }
                    continue;
                }
                int colon = line.indexOf(':');
                if (colon > 0) {
                    event.put(line.substring(0, colon), line.substring(colon + 1).stripLeading());
                }
            }
        }

        /** One line of the body, chunks undone. */
        private String line() throws IOException {
            while (true) {
                int nl = pending.indexOf("\n");
                if (nl >= 0) {
                    String line = pending.substring(0, nl);
                    pending.delete(0, nl + 1);
                    return line.endsWith("\r") ? line.substring(0, line.length() - 1) : line;
                }
                byte[] more = body();
                if (more == null) {
                    return null;
                }
                pending.append(new String(more, StandardCharsets.UTF_8));
            }
        }

        private byte[] body() throws IOException {
            if (!chunked) {
                byte[] buffer = new byte[1024];
                int n = in.read(buffer);
                return n < 0 ? null : Arrays.copyOf(buffer, n);
            }
            if (chunkLeft == 0) {
                String size = rawLine();
                while (size != null && size.isEmpty()) {
                    size = rawLine();
                }
                if (size == null) {
                    return null;
                }
                chunkLeft = Long.parseLong(size.split(";")[0].trim(), 16);
                if (chunkLeft == 0) {
                    return null;
                }
            }
            byte[] buffer = new byte[(int) Math.min(chunkLeft, 4096)];
            int n = in.read(buffer);
            if (n < 0) {
                return null;
            }
            chunkLeft -= n;
            return Arrays.copyOf(buffer, n);
        }

        private String rawLine() throws IOException {
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            int b;
            while ((b = in.read()) >= 0) {
                if (b == '\n') {
                    String text = line.toString(StandardCharsets.US_ASCII);
                    return text.endsWith("\r") ? text.substring(0, text.length() - 1) : text;
                }
                line.write(b);
            }
            return line.size() == 0 ? null : line.toString(StandardCharsets.US_ASCII);
        }

        void closeQuietly() {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }

        @Override
        public void close() {
            closeQuietly();
        }
    }
}
