package seckill.system;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

import io.helidon.dbclient.DbClient;
import io.helidon.dbclient.DbRow;
import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.Connection;
import redis.clients.jedis.JedisCluster;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.UnifiedJedis;
import seckill.client.NewActivity;
import seckill.client.SeckillAdminApi;
import seckill.client.SeckillApi;
import seckill.client.SeckillClients;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/**
 * What the integration tests share: an HTTP client for the running service and helpers that read
 * the ledger directly, so outcomes are checked in the database rather than from HTTP answers.
 */
public final class SaleFixture {

    public static final String ADMIN_TOKEN = "test-admin-token-of-at-least-32-chars";

    public final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();
    public final URI base;
    public final DbClient db;

    /** What every request of this fixture is given before it is sent (e.g. the edge's rehearsal mark). */
    private final java.util.function.UnaryOperator<HttpRequest.Builder> edge;

    public SaleFixture(URI base, DbClient db) {
        this(base, db, java.util.function.UnaryOperator.identity());
    }

    private SaleFixture(URI base, DbClient db, java.util.function.UnaryOperator<HttpRequest.Builder> edge) {
        this.base = base;
        this.db = db;
        this.edge = edge;
    }

    /**
     * The same fixture with every request carrying the edge's rehearsal mark for {@code activityId} and
     * {@code buyer}, signed afresh per request as an edge would ({@link EdgeMarks}).
     */
    public SaleFixture markedByTheEdge(long activityId, long buyer) {
        return new SaleFixture(base, db, request -> request.header(EdgeMarks.HEADER,
                EdgeMarks.mark(activityId, buyer, java.time.Instant.now().getEpochSecond())));
    }

    public HttpResponse<String> send(HttpRequest.Builder request) {
        request = edge.apply(request);
        try {
            return http.send(request.timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public HttpResponse<String> createActivity(String json, String token) {
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve("/api/v1/admin/activities"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return send(request);
    }

    /**
     * Makes {@code request} the buyer's own: the one place the tests say who the buyer is, so the
     * scheme the service requires is written once.
     */
    public static HttpRequest.Builder asBuyer(HttpRequest.Builder request, long buyer) {
        return request.setHeader("Authorization", "Bearer " + TestIdentity.token(buyer));
    }

    /**
     * {@link #asBuyer} for a buyer written as text, as the tests of malformed ids pass it: a positive
     * number is that buyer, anything else is sent as a (malformed) bearer token, which names nobody.
     */
    public static HttpRequest.Builder asBuyer(HttpRequest.Builder request, String buyer) {
        long id = buyer.matches("[0-9]{1,18}") ? Long.parseLong(buyer) : 0;
        return id > 0 ? asBuyer(request, id) : request.setHeader("Authorization", "Bearer " + buyer);
    }

    /** The same rule as the reservation module's home bucket (SplitMix64 finaliser, modulo buckets). */
    public static int homeBucket(long userId, int buckets) {
        long z = userId * 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        return (int) Math.floorMod(z ^ (z >>> 31), (long) buckets);
    }

    public long createOpenActivity(long skuId, long stock, int perUserLimit) {
        return createActivity(Instant.now().minusSeconds(5), Instant.now().plusSeconds(3600), skuId, stock, perUserLimit);
    }

    public long createActivity(Instant startsAt, Instant endsAt, long skuId, long stock, int perUserLimit) {
        return createActivity(startsAt, endsAt, skuId, stock, perUserLimit, 600);
    }

    public long createActivity(Instant startsAt, Instant endsAt, long skuId, long stock, int perUserLimit, int paymentWindow) {
        return createActivity(startsAt, endsAt, skuId, stock, perUserLimit, paymentWindow, 1);
    }

    /** An open activity selling {@code stock} units of one SKU split over {@code buckets} buckets, one per buyer. */
    public long createBucketedActivity(long skuId, long stock, int buckets) {
        return createActivity(Instant.now().minusSeconds(5), Instant.now().plusSeconds(600), skuId, stock, 1, 600, buckets);
    }

    private long createActivity(Instant startsAt, Instant endsAt, long skuId, long stock, int perUserLimit,
                                int paymentWindow, int buckets) {
        // through the typed client, as an operator's tooling would
        return admin().launch(java.util.UUID.randomUUID().toString(), new NewActivity("test sale",
                startsAt.toString(), endsAt.toString(),
                (long) paymentWindow, List.of(new NewActivity.Sku(skuId, stock, perUserLimit, buckets)))).activityId();
    }

    /** The operator's typed client of this service. */
    /** The body of {@code GET /api/v1/admin/sales}: whether this instance sells, and why not. */
    public String salesState() {
        return send(HttpRequest.newBuilder(base.resolve("/api/v1/admin/sales"))
                .header("Authorization", "Bearer " + ADMIN_TOKEN).GET()).body();
    }

    public SeckillAdminApi admin() {
        return SeckillClients.admin(base, ADMIN_TOKEN);
    }

    /** The buyers' typed client of this service: each call carries the token of the buyer it names. */
    public SeckillApi buyer() {
        return buyer(Duration.ofSeconds(10));
    }

    /** The same, giving up on an answer after {@code readTimeout}. */
    public SeckillApi buyer(Duration readTimeout) {
        return SeckillClients.buyers(base, readTimeout, TestIdentity::token);
    }

    public HttpResponse<String> purchase(long activityId, String userId, String body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve("/api/v1/activities/" + activityId + "/purchases"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (userId != null) {
            asBuyer(request, userId);
        }
        return send(request);
    }

    public HttpResponse<String> purchase(long activityId, long userId, long skuId, int quantity, String requestId) {
        return purchase(activityId, Long.toString(userId),
                "{\"skuId\":%d,\"quantity\":%d,\"requestId\":\"%s\"}".formatted(skuId, quantity, requestId));
    }

    /**
     * A purchase as a well-behaved client makes it: a 429 or a 503 (BUSY, HALTED: nothing or nothing
     * certain happened) is retried after its {@code Retry-After}, the same requestId each time, so
     * a retry can only return the buyer's reservation, never a second one.
     */
    public HttpResponse<String> purchaseRetrying(long activityId, long userId, long skuId, int quantity, String requestId) {
        HttpResponse<String> response = purchase(activityId, userId, skuId, quantity, requestId);
        for (int attempt = 0; attempt < 30 && (response.statusCode() == 429 || response.statusCode() == 503); attempt++) {
            long seconds = response.headers().firstValue("Retry-After").map(Long::parseLong).orElse(1L);
            try {
                Thread.sleep(Math.min(2_000, seconds * 1_000));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            response = purchase(activityId, userId, skuId, quantity, requestId);
        }
        return response;
    }

    /**
     * The reservation a buyer's final answer shows: the id of a 202 or 200, or for a 410 what the
     * answer's {@code reservations} link lists (a buyer told "in doubt" whose retry met the sold-out
     * flag may hold the unit that attempt took).
     */
    public Optional<String> reservationShownBy(HttpResponse<String> answer, long user) {
        if (answer.statusCode() == 202 || answer.statusCode() == 200) {
            return Optional.of(field(answer.body(), "reservationId"));
        }
        if (answer.statusCode() != 410) {
            return Optional.empty();
        }
        String mine = field(answer.body(), "reservations");
        assertThat("a 410 names where the buyer's reservations are", mine != null, is(true));
        // the list reads Redis too: while a new master's replica resyncs it may be answered 503
        var list = new AtomicReference<HttpResponse<String>>();
        await("the buyer's reservations listed", Duration.ofSeconds(15),
                () -> list.updateAndGet(before -> get(mine, Long.toString(user))).statusCode() != 503);
        assertThat(list.get().body(), list.get().statusCode(), is(200));
        var held = object(list.get().body()).getJsonArray("reservations");
        assertThat("one unit per buyer at most", held.size() <= 1, is(true));
        return held.isEmpty() ? Optional.empty() : Optional.of(held.getJsonObject(0).getString("reservationId"));
    }

    public HttpResponse<String> get(String path, String userId) {
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(path)).GET();
        if (userId != null) {
            asBuyer(request, userId);
        }
        return send(request);
    }

    public long count(String sql, Object... params) {
        Optional<DbRow> row = db.execute().get(sql, params);
        Object value = row.orElseThrow().column(1).get();
        return value == null ? 0 : ((Number) value).longValue();
    }

    /** How many orders carry this reservation for this buyer (a reservation answered 202 must have exactly one). */
    public long ordersOf(String reservationId, long userId) {
        return count("SELECT COUNT(*) FROM seckill_order WHERE reservation_id = ? AND user_id = ?", reservationId, userId);
    }

    public long orders(long activityId) {
        return count("SELECT COUNT(*) FROM seckill_order WHERE activity_id = ?", activityId);
    }

    public long available(long activityId, long skuId) {
        return count("SELECT available FROM seckill_stock WHERE activity_id = ? AND sku_id = ?", activityId, skuId);
    }

    public List<String> column(String sql, Object... params) {
        try (var rows = db.execute().query(sql, params)) {
            return rows.map(r -> String.valueOf(r.column(1).get())).toList();
        }
    }

    /** Waits until the condition holds (Awaitility, polling every 50 ms), failing the test after the timeout. */
    /**
     * The channel real sold-out flags travel on for the service over {@code redis}: pub/sub ignores the
     * logical database, so on a database other than 0 the service's channel carries its number
     * ({@code sk:soldout:db2} on CI's database 2), none on database 0 and on a cluster.
     */
    public static String soldOutChannel(UnifiedJedis redis) {
        if (redis instanceof JedisCluster) {
            return "sk:soldout";
        }
        Object info = redis.sendCommand(Protocol.Command.CLIENT, "INFO");
        String text = info instanceof byte[] bytes ? new String(bytes, java.nio.charset.StandardCharsets.UTF_8)
                : String.valueOf(info);
        java.util.regex.Matcher database = java.util.regex.Pattern.compile("(?:^| )db=(\\d+)(?: |$)").matcher(text.trim());
        return !database.find() || database.group(1).equals("0") ? "sk:soldout" : "sk:soldout:db" + database.group(1);
    }

    public static void await(String what, Duration timeout, Supplier<Boolean> condition) {
        org.awaitility.Awaitility.await(what).atMost(timeout).pollInterval(Duration.ofMillis(50))
                .pollInSameThread().until(condition::get);
    }

    /** A top-level text field of a JSON object, or null when absent. */
    public static String field(String json, String name) {
        jakarta.json.JsonObject object = object(json);
        return object.containsKey(name) && !object.isNull(name) ? object.getString(name) : null;
    }

    /** A top-level number field of a JSON object. */
    public static long number(String json, String name) {
        return object(json).getJsonNumber(name).longValueExact();
    }

    private static jakarta.json.JsonObject object(String json) {
        try (jakarta.json.JsonReader reader = jakarta.json.Json.createReader(new java.io.StringReader(json))) {
            return reader.readObject();
        }
    }

    /** A purchase token for the buyer, got the way a buyer gets one: a challenge, solved, traded for a token. */
    public String solvedToken(UnifiedJedis redis, long activityId, long buyer) {
        HttpResponse<String> challenge = send(asBuyer(HttpRequest.newBuilder(base.resolve("/api/v1/activities/" + activityId
                + "/challenges")), buyer).POST(HttpRequest.BodyPublishers.noBody()));
        if (challenge.statusCode() != 201) {
            throw new AssertionError("no challenge: " + challenge.body());
        }
        String challengeId = field(challenge.body(), "challengeId");
        HttpResponse<String> token = send(asBuyer(HttpRequest.newBuilder(base.resolve("/api/v1/activities/" + activityId
                        + "/tokens")), buyer).header("Content-Type", "application/json")
                // in lower case, as people type it: answers are not case-sensitive
                .POST(HttpRequest.BodyPublishers.ofString("{\"challengeId\":\"" + challengeId + "\",\"answer\":\""
                        + captchaAnswer(redis, challengeId).toLowerCase() + "\",\"nonce\":\"" + proofOfWork(challenge.body())
                        + "\"}")));
        if (token.statusCode() != 201) {
            throw new AssertionError("no token: " + token.body());
        }
        return field(token.body(), "token");
    }

    /**
     * The proof of work a challenge answer (the JSON of a 201 from .../challenges) asks for, found as a client
     * finds it: a nonce, counted up from 0, such that SHA-256(challengeId + ":" + nonce) starts with the
     * challenge's {@code proofOfWork.leadingZeroBits} zero bits.
     */
    public static String proofOfWork(String challengeJson) {
        return nonce(challengeJson, "", true);
    }

    /** A nonce that does not prove the challenge's work (a client that skipped it, or cheated). */
    public static String notAProofOfWork(String challengeJson) {
        return nonce(challengeJson, "x", false);
    }

    private static String nonce(String challengeJson, String prefix, boolean proving) {
        jakarta.json.JsonObject challenge = object(challengeJson);
        String challengeId = challenge.getString("challengeId");
        int bits = challenge.getJsonObject("proofOfWork").getInt("leadingZeroBits");
        try {
            java.security.MessageDigest sha = java.security.MessageDigest.getInstance("SHA-256");
            for (long n = 0; ; n++) {
                byte[] hash = sha.digest((challengeId + ":" + prefix + n).getBytes(java.nio.charset.StandardCharsets.UTF_8));
                if ((new java.math.BigInteger(1, hash).bitLength() <= 256 - bits) == proving) {
                    return prefix + n;
                }
            }
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A purchase of one unit of the SKU, with a purchase token ({@code null}: without one). */
    public HttpResponse<String> purchaseWithToken(long activityId, long buyer, long skuId, String token, String requestId) {
        HttpRequest.Builder request = asBuyer(HttpRequest.newBuilder(base.resolve("/api/v1/activities/" + activityId
                        + "/purchases")), buyer).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(
                        "{\"skuId\":" + skuId + ",\"quantity\":1,\"requestId\":\"" + requestId + "\"}"));
        if (token != null) {
            request.header("X-Purchase-Token", token);
        }
        return send(request);
    }

    /** The answer of a captcha challenge, read where admission keeps it (a test solves what a human would). */
    public static String captchaAnswer(UnifiedJedis redis, String challengeId) {
        return redis.get("sk:cap:{" + challengeId + "}").split("\\|")[2];
    }

    /**
     * {@code CLIENT PAUSE <millis> WRITE} from outside the service, on every node it talks to (one
     * Redis, or each master of a cluster): scripts and writes wait, reads go on.
     */
    public static void pauseRedis(UnifiedJedis store, long millis) {
        if (store instanceof JedisCluster cluster) {
            for (var pool : cluster.getClusterNodes().values()) {
                try (Connection node = pool.getResource()) {
                    node.executeCommand(new CommandArguments(Protocol.Command.CLIENT)
                            .add("PAUSE").add(Long.toString(millis)).add("WRITE"));
                }
            }
        } else {
            store.sendCommand(Protocol.Command.CLIENT, "PAUSE", Long.toString(millis), "WRITE");
        }
    }

    /** Ends a {@link #pauseRedis} before its time, so a test rather than the clock decides how long it lasts. */
    public static void unpauseRedis(UnifiedJedis store) {
        if (store instanceof JedisCluster cluster) {
            for (var pool : cluster.getClusterNodes().values()) {
                try (Connection node = pool.getResource()) {
                    node.executeCommand(new CommandArguments(Protocol.Command.CLIENT).add("UNPAUSE"));
                }
            }
        } else {
            store.sendCommand(Protocol.Command.CLIENT, "UNPAUSE");
        }
    }
}
