package seckill.system.ops;

import java.io.StringReader;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import io.helidon.microprofile.testing.junit5.AddBean;
import io.helidon.microprofile.testing.junit5.AddConfig;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.params.XPendingParams;
import redis.clients.jedis.params.XReadGroupParams;
import redis.clients.jedis.resps.StreamPendingEntry;
import redis.clients.jedis.StreamEntryID;
import seckill.drill.api.InvariantCheck;
import seckill.ledger.api.OrderingSwitch;
import seckill.reservation.api.ReservationEventFields;
import seckill.reservation.api.ReservationId;
import seckill.settlement.api.Reconciliation;
import seckill.settlement.api.SettlementSweeps;
import seckill.settlement.api.SkuReconciliation;
import seckill.system.MovableClock;
import seckill.system.PaymentCallbacks;
import seckill.system.SaleFixture;
import seckill.system.ServedContract;
import seckill.system.ServiceTest;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;

/**
 * Support's lookup, {@code GET /api/v1/admin/reservations/{id}} (issue #32, item 4), on a reservation
 * in each state it can be in, against real Redis and MariaDB. Each state is brought about from
 * outside (ordering paused, an entry read by a consumer that then "dies", a payment callback, the
 * clock moved past the payment window, an event the ledger refuses), and every layer the answer
 * shows is compared with what Redis and the database hold. The settlement sweeps are off, so each
 * test runs them when it needs to.
 */
@AddBean(MovableClock.class)
@AddConfig(key = "seckill.payment.hmac-key", value = ReservationTraceTest.PAYMENT_KEY)
@AddConfig(key = "seckill.payment.price", value = "99.50")
@AddConfig(key = "seckill.payment.currency", value = "CNY")
@AddConfig(key = "seckill.settlement.enabled", value = "false")
@AddConfig(key = "seckill.ordering.max-deliveries", value = "2")
@AddConfig(key = "seckill.ordering.reclaim-idle-seconds", value = "1")
class ReservationTraceTest extends ServiceTest {

    static final String PAYMENT_KEY = "test-payment-key-of-at-least-32-chars";
    private static final long SKU = 32_004;

    @Inject
    MovableClock clock;

    @Inject
    OrderingSwitch ordering;

    @Inject
    SettlementSweeps sweeps;

    @Inject
    Reconciliation reconciliation;

    private SaleFixture sale;

    /** Every answer of the lookup is also checked against the served OpenAPI contract. */
    private static ServedContract contract;

    @BeforeEach
    void fixture() {
        sale = new SaleFixture(target.getUri(), db);
        if (contract == null) {
            contract = ServedContract.of(target);
        }
        if (!ordering.running() || ordering.aliveWorkers() < 1) {
            ordering.pause();
            ordering.resume();
        }
    }

    @AfterEach
    void resume() {
        ordering.resume();
    }

    @Test
    void aReservationWaitingInThePausedStreamIsQueuedThenOrdered() {
        long activity = sale.createOpenActivity(SKU, 10, 1);
        long buyer = activity * 1000 + 1;
        ordering.pause();
        String id = reserve(activity, buyer, "q-1");

        JsonObject trace = trace(id);
        assertThat(trace.toString(), verdict(trace), is("QUEUED"));
        assertThat(trace.getJsonNumber("buyerId").longValue(), is(buyer));
        JsonObject inRedis = trace.getJsonObject("redis");
        String buyersKey = InvariantCheck.bucketKey(activity, SKU, 0, 1, "buyers");
        assertThat(inRedis.getJsonObject("buyerRecord").getString("key"), is(buyersKey));
        assertThat(inRedis.getJsonObject("buyerRecord").getString("value"), is(redis.hget(buyersKey, Long.toString(buyer))));
        assertThat(inRedis.getJsonObject("buyerRecord").getBoolean("holdsThis"), is(true));
        assertThat(inRedis.getJsonNumber("mintedTo").longValue(), is(buyer));
        JsonObject entry = inRedis.getJsonObject("streamEntry");
        String stream = InvariantCheck.bucketKey(activity, SKU, 0, 1, "events");
        assertThat(entry.getString("stream"), is(stream));
        assertThat(entry.getString("state"), is("UNDELIVERED"));
        // the entry the answer names is the one in the stream, with this reservation's fields
        var inStream = redis.xrange(stream, new StreamEntryID(entry.getString("id")), new StreamEntryID(entry.getString("id")), 1);
        assertThat(inStream.size(), is(1));
        assertThat(ReservationEventFields.named(inStream.getFirst().getFields()).get("reservationId"), is(id));
        assertThat(entry.getJsonObject("fields").getString("requestId"), is("q-1"));
        assertThat(pendingOf(stream, entry.getString("id")).isEmpty(), is(true));
        assertThat(trace.getJsonObject("ledger").containsKey("order"), is(false));
        assertThat(sale.ordersOf(id, buyer), is(0L));

        ordering.resume();
        SaleFixture.await("the order", Duration.ofSeconds(30), () -> sale.ordersOf(id, buyer) == 1);
        SaleFixture.await("acknowledged", Duration.ofSeconds(30),
                () -> "ACKNOWLEDGED".equals(trace(id).getJsonObject("redis").getJsonObject("streamEntry").getString("state")));
        JsonObject ordered = trace(id);
        assertThat(ordered.toString(), verdict(ordered), is("ORDERED"));
        // found through the ledger's event position now: the same entry
        assertThat(ordered.getJsonObject("redis").getJsonObject("streamEntry").getString("id"), is(entry.getString("id")));
        assertThat(ordered.getJsonObject("ledger").getJsonObject("order").getJsonNumber("eventPosition").longValue(),
                is(sale.count("SELECT event_position FROM seckill_order WHERE reservation_id = ?", id)));
    }

    @Test
    void anOrderAwaitingPaymentIsOrderedThenPaidThroughTheRealCallback() {
        long activity = sale.createOpenActivity(SKU, 10, 1);
        long buyer = activity * 1000 + 2;
        String id = reserve(activity, buyer, "p-1");
        SaleFixture.await("the order", Duration.ofSeconds(30), () -> sale.ordersOf(id, buyer) == 1);
        String orderNo = sale.column("SELECT order_no FROM seckill_order WHERE reservation_id = ?", id).getFirst();
        SaleFixture.await("acknowledged", Duration.ofSeconds(30), () -> pendingOf(
                InvariantCheck.bucketKey(activity, SKU, 0, 1, "events"), null).isEmpty());

        JsonObject ordered = trace(id);
        assertThat(ordered.toString(), verdict(ordered), is("ORDERED"));
        JsonObject order = ordered.getJsonObject("ledger").getJsonObject("order");
        assertThat(order.getString("orderNo"), is(orderNo));
        assertThat(order.getString("status"), is("PENDING"));
        assertThat(order.containsKey("paymentId"), is(false));
        assertThat(ordered.getJsonObject("redis").getJsonObject("streamEntry").getString("state"), is("ACKNOWLEDGED"));

        HttpResponse<String> paid = pay(orderNo, "trace-pay-" + activity);
        assertThat(paid.body(), paid.statusCode(), is(200));
        JsonObject afterPayment = trace(id);
        assertThat(afterPayment.toString(), verdict(afterPayment), is("PAID"));
        JsonObject paidOrder = afterPayment.getJsonObject("ledger").getJsonObject("order");
        assertThat(paidOrder.getString("status"), is("PAID"));
        assertThat(sale.count("SELECT status FROM seckill_order WHERE order_no = ?", orderNo), is(1L));
        assertThat(paidOrder.getString("paymentId"),
                is(sale.column("SELECT payment_id FROM seckill_order WHERE order_no = ?", orderNo).getFirst()));
        assertThat(afterPayment.getJsonObject("redis").getJsonObject("buyerRecord").getBoolean("holdsThis"), is(true));

        // the SKU's latest reconciliation, as stored
        SkuReconciliation reconciled = reconciliation.reconcile(activity).getFirst();
        JsonObject withReconciliation = trace(id);
        assertThat(withReconciliation.getJsonObject("reconciliation").getString("state"), is(reconciled.state()));
        assertThat(withReconciliation.getJsonObject("reconciliation").getString("checkedAt"),
                is(reconciliation.latest(activity).getFirst().checkedAt().toString()));

        // and by buyer and activity
        JsonObject listed = object(admin("/api/v1/admin/reservations?activityId=" + activity + "&buyerId=" + buyer).body());
        assertThat(listed.getJsonArray("reservations").size(), is(1));
        assertThat(listed.getJsonArray("reservations").getJsonObject(0).getString("reservationId"), is(id));
        assertThat(verdict(listed.getJsonArray("reservations").getJsonObject(0)), is("PAID"));
    }

    @Test
    void anUnknownReservationIsA404ProblemAndTheLookupIsForAdminsOnly() {
        long activity = sale.createOpenActivity(SKU, 10, 1);
        for (String unknown : List.of(activity + "-" + SKU + "-0-zzzzzz", "not-an-id", "999999-1-0-1")) {
            HttpResponse<String> answer = admin("/api/v1/admin/reservations/" + unknown);
            assertThat(answer.body(), answer.statusCode(), is(404));
            assertThat(answer.headers().firstValue("Content-Type").orElse(""), containsString("application/problem+json"));
            assertThat(answer.body(), containsString("RESERVATION_NOT_FOUND"));
        }
        HttpResponse<String> noActivity = admin("/api/v1/admin/reservations?activityId=999999999&buyerId=1");
        assertThat(noActivity.statusCode(), is(404));
        HttpResponse<String> none = admin("/api/v1/admin/reservations?activityId=" + activity + "&buyerId=1");
        assertThat(none.body(), none.statusCode(), is(200));
        assertThat(object(none.body()).getJsonArray("reservations").isEmpty(), is(true));
        HttpResponse<String> half = admin("/api/v1/admin/reservations?activityId=" + activity);
        assertThat(half.statusCode(), is(400));
        assertThat(half.body(), containsString("INVALID_REQUEST"));
        HttpResponse<String> anonymous = contract.check(sale.get("/api/v1/admin/reservations/" + activity + "-" + SKU + "-0-1", null));
        assertThat(anonymous.statusCode(), is(401));
        HttpResponse<String> asBuyer = sale.get("/api/v1/admin/reservations/" + activity + "-" + SKU + "-0-1", "7");
        assertThat(asBuyer.statusCode(), is(401));
    }

    @Test
    void anEntryHeldByAWorkerThatDiedIsPendingStalledUntilALiveWorkerReclaimsIt() {
        long activity = sale.createOpenActivity(SKU, 10, 1);
        long buyer = activity * 1000 + 3;
        ordering.pause();
        String id = reserve(activity, buyer, "s-1");
        String stream = InvariantCheck.bucketKey(activity, SKU, 0, 1, "events");
        // a worker of another instance reads the entry, then dies before it commits or acknowledges
        var read = redis.xreadGroup("ordering", "dead-worker", XReadGroupParams.xReadGroupParams().count(1),
                Map.of(stream, StreamEntryID.XREADGROUP_UNDELIVERED_ENTRY));
        assertThat(ReservationEventFields.named(read.getFirst().getValue().getFirst().getFields()).get("reservationId"), is(id));
        String entryId = read.getFirst().getValue().getFirst().getID().toString();

        // idle past seckill.ordering.reclaim-idle-seconds (1 s here) with no commit: stalled
        SaleFixture.await("stalled", Duration.ofSeconds(10), () -> "PENDING_STALLED".equals(verdict(trace(id))));
        JsonObject stalled = trace(id);
        JsonObject entry = stalled.getJsonObject("redis").getJsonObject("streamEntry");
        StreamPendingEntry pending = pendingOf(stream, entryId).getFirst();
        assertThat(entry.getString("state"), is("PENDING"));
        assertThat(entry.getString("id"), is(entryId));
        assertThat(entry.getString("consumer"), is(pending.getConsumerName()));
        assertThat(entry.getString("consumer"), is("dead-worker"));
        assertThat(entry.getJsonNumber("deliveries").longValue(), is(pending.getDeliveredTimes()));
        assertThat(entry.getJsonNumber("idleMillis").longValue() >= 1_000, is(true));
        assertThat(stalled.getJsonObject("verdict").getString("words"), containsString("dead-worker"));
        assertThat(stalled.getJsonObject("ledger").containsKey("order"), is(false));
        assertThat(sale.ordersOf(id, buyer), is(0L));

        // a live worker claims what the dead one held
        ordering.resume();
        SaleFixture.await("the order", Duration.ofSeconds(30), () -> sale.ordersOf(id, buyer) == 1);
        SaleFixture.await("acknowledged", Duration.ofSeconds(30), () -> pendingOf(stream, entryId).isEmpty());
        JsonObject ordered = trace(id);
        assertThat(ordered.toString(), verdict(ordered), is("ORDERED"));
        assertThat(ordered.getJsonObject("redis").getJsonObject("streamEntry").getString("state"), is("ACKNOWLEDGED"));
    }

    @Test
    void anUnpaidOrderThatTimedOutIsExpiredAndRefilledOnceTheOutboxAppliedIt() {
        long activity = sale.createActivity(Instant.now().minusSeconds(5), Instant.now().plusSeconds(600), SKU, 10, 1, 1);
        long buyer = activity * 1000 + 4;
        String id = reserve(activity, buyer, "e-1");
        SaleFixture.await("the order", Duration.ofSeconds(30), () -> sale.ordersOf(id, buyer) == 1);
        // the payment window (1 s) passes for the service; the sweep expires the order
        clock.advance(Duration.ofMillis(1_100));
        assertThat(sweeps.expireOverdue() >= 1, is(true));
        assertThat(sale.count("SELECT status FROM seckill_order WHERE reservation_id = ?", id), is(2L));

        JsonObject expired = trace(id);
        assertThat(expired.toString(), verdict(expired), is("EXPIRED_REFILL_PENDING"));
        assertThat(expired.getJsonObject("ledger").getJsonObject("order").getString("status"), is("TIMEOUT"));
        JsonObject refill = expired.getJsonObject("ledger").getJsonObject("refill");
        assertThat(refill.getBoolean("applied"), is(false));
        assertThat(sale.count("SELECT status FROM stock_sync_outbox WHERE reservation_id = ?", id), is(0L));
        String refilledKey = InvariantCheck.bucketKey(activity, SKU, 0, 1, "refilled");
        assertThat(expired.getJsonObject("redis").getBoolean("refilled"), is(false));
        assertThat(redis.sismember(refilledKey, id), is(false));

        assertThat(sweeps.relayRefills() >= 1, is(true));
        JsonObject refilled = trace(id);
        assertThat(refilled.toString(), verdict(refilled), is("EXPIRED_REFILLED"));
        JsonObject applied = refilled.getJsonObject("ledger").getJsonObject("refill");
        assertThat(applied.getBoolean("applied"), is(true));
        assertThat(applied.containsKey("appliedAt"), is(true));
        assertThat(sale.count("SELECT status FROM stock_sync_outbox WHERE reservation_id = ?", id), is(1L));
        assertThat(refilled.getJsonObject("redis").getBoolean("refilled"), is(true));
        assertThat(redis.sismember(refilledKey, id), is(true));
        assertThat(redis.get(InvariantCheck.bucketKey(activity, SKU, 0, 1, "stock")), is("10"));
        String buyersKey = InvariantCheck.bucketKey(activity, SKU, 0, 1, "buyers");
        assertThat(refilled.getJsonObject("redis").getJsonObject("buyerRecord").getBoolean("holdsThis"),
                is(id.equals(redis.hget(buyersKey, Long.toString(buyer)))));
    }

    @Test
    void aReservationTheLedgerRefusesIsFailedAndRefilledOnceTheOutboxAppliedIt() {
        long activity = sale.createOpenActivity(SKU, 5, 1);
        refusedThenRefilled(activity, 1, activity * 1000 + 5, 0, 5);
    }

    @Test
    void aRefusedUnitFromADonorBucketIsTracedWhereItWasTakenAndTheBuyerAtHome() {
        int buckets = 3;
        long activity = sale.createBucketedActivity(SKU, 30, buckets);
        long buyer = activity * 1000 + 6;
        while (SaleFixture.homeBucket(buyer, buckets) != 0) {
            buyer++;
        }
        // the unit and its event in bucket 2, the buyer's record at home in bucket 0, as a donor's take records them
        refusedThenRefilled(activity, buckets, buyer, 2, 10);
    }

    /**
     * A reservation recorded exactly as the scripts record one (minted now; the unit, its minted id and its
     * event in {@code unitBucket}, the buyer's record in their home bucket), but with a requestId no order
     * row can hold: the ledger refuses it on every delivery and, after seckill.ordering.max-deliveries,
     * gives up on it; the relay then puts the unit back ({@code stock} units per bucket).
     */
    private void refusedThenRefilled(long activity, int buckets, long buyer, int unitBucket, int stock) {
        String bucket = InvariantCheck.bucketKey(activity, SKU, unitBucket, buckets, "");
        String home = InvariantCheck.bucketKey(activity, SKU, SaleFixture.homeBucket(buyer, buckets), buckets, "");
        long sequence = (System.currentTimeMillis() - Instant.parse("2025-01-01T00:00:00Z").toEpochMilli()) << 22 | 4095;
        String id = new ReservationId(activity, SKU, unitBucket, sequence).toString();
        redis.decr(bucket + "stock");
        redis.hset(home + "buyers", Long.toString(buyer), id);
        redis.hset(bucket + "served", id, Long.toString(buyer));
        redis.xadd(bucket + "events", StreamEntryID.NEW_ENTRY, Map.of("reservationId", id, "userId",
                Long.toString(buyer), "activityId", Long.toString(activity), "skuId", Long.toString(SKU),
                "quantity", "1", "requestId", "x".repeat(200), "reservedAt", Long.toString(System.currentTimeMillis())));

        SaleFixture.await("the failure", Duration.ofSeconds(30),
                () -> sale.count("SELECT COUNT(*) FROM seckill_reservation_failure WHERE reservation_id = ?", id) == 1);
        SaleFixture.await("acknowledged", Duration.ofSeconds(10), () -> pendingOf(bucket + "events", null).isEmpty());
        JsonObject failed = trace(id);
        assertThat(failed.toString(), verdict(failed), is("FAILED_REFILL_PENDING"));
        JsonObject failure = failed.getJsonObject("ledger").getJsonObject("failure");
        assertThat(failure.getString("reason"),
                is(sale.column("SELECT reason FROM seckill_reservation_failure WHERE reservation_id = ?", id).getFirst()));
        assertThat(failed.getJsonObject("verdict").getString("words"), containsString(failure.getString("reason")));
        assertThat(failure.getJsonNumber("buyerId").longValue(), is(buyer));
        JsonObject entry = failed.getJsonObject("redis").getJsonObject("streamEntry");
        assertThat(entry.getString("state"), is("ACKNOWLEDGED"));
        assertThat(entry.getJsonObject("fields").getString("reservationId"), is(id));
        // every refusal before the ledger gave up is counted (max-deliveries is 2 here)
        JsonObject refusals = failed.getJsonObject("ledger").getJsonObject("refusals");
        assertThat(refusals.getInt("attempts"), is((int) sale.count(
                "SELECT attempts FROM seckill_reservation_rejection WHERE reservation_id = ?", id)));
        assertThat(refusals.getInt("attempts"), is(2));
        assertThat(refusals.getString("lastReason"), containsString("LEDGER_REFUSED"));
        assertThat(failed.getJsonObject("ledger").getJsonObject("refill").getBoolean("applied"), is(false));
        JsonObject held = failed.getJsonObject("redis").getJsonObject("buyerRecord");
        assertThat(held.getBoolean("holdsThis"), is(true));
        assertThat(held.getString("key"), is(home + "buyers"));
        assertThat(entry.getString("stream"), is(bucket + "events"));
        assertThat(failed.getInt("bucket"), is(unitBucket));

        assertThat(sweeps.relayRefills() >= 1, is(true));
        JsonObject refilled = trace(id);
        assertThat(refilled.toString(), verdict(refilled), is("FAILED_REFILLED"));
        assertThat(refilled.getJsonObject("ledger").getJsonObject("refill").getBoolean("applied"), is(true));
        assertThat(sale.count("SELECT status FROM stock_sync_outbox WHERE reservation_id = ?", id), is(1L));
        assertThat(refilled.getJsonObject("redis").getBoolean("refilled"), is(redis.sismember(bucket + "refilled", id)));
        assertThat(refilled.getJsonObject("redis").getBoolean("refilled"), is(true));
        // the buyer is released: Redis holds nothing for them, and the answer says so
        assertThat(redis.hexists(home + "buyers", Long.toString(buyer)), is(false));
        JsonObject record = refilled.getJsonObject("redis").getJsonObject("buyerRecord");
        assertThat(record.getBoolean("holdsThis"), is(false));
        assertThat(record.containsKey("value"), is(false));
        assertThat(redis.get(bucket + "stock"), is(Integer.toString(stock)));
    }

    // ---- helpers

    private String reserve(long activity, long buyer, String requestId) {
        HttpResponse<String> reserved = sale.purchaseRetrying(activity, buyer, SKU, 1, requestId);
        assertThat(reserved.body(), reserved.statusCode(), is(202));
        return SaleFixture.field(reserved.body(), "reservationId");
    }

    private JsonObject trace(String id) {
        HttpResponse<String> answer = admin("/api/v1/admin/reservations/" + id);
        assertThat(answer.body(), answer.statusCode(), is(200));
        return object(answer.body());
    }

    private HttpResponse<String> admin(String path) {
        return contract.check(sale.send(HttpRequest.newBuilder(sale.base.resolve(path))
                .header("Authorization", "Bearer " + SaleFixture.ADMIN_TOKEN).GET()));
    }

    private static String verdict(JsonObject trace) {
        return trace.getJsonObject("verdict").getString("code");
    }

    private static JsonObject object(String json) {
        try (JsonReader reader = Json.createReader(new StringReader(json))) {
            return reader.readObject();
        }
    }

    /** The group's pending entries of the stream (only {@code entryId}'s when given), read from Redis directly. */
    private List<StreamPendingEntry> pendingOf(String stream, String entryId) {
        StreamEntryID from = entryId == null ? StreamEntryID.MINIMUM_ID : new StreamEntryID(entryId);
        StreamEntryID to = entryId == null ? StreamEntryID.MAXIMUM_ID : new StreamEntryID(entryId);
        return redis.xpending(stream, "ordering", XPendingParams.xPendingParams(from, to, 100));
    }

    private HttpResponse<String> pay(String orderNo, String paymentId) {
        String body = "{\"orderNo\":\"%s\",\"paymentId\":\"%s\",\"amount\":99.5,\"currency\":\"CNY\",\"paidAt\":\"%s\"}"
                .formatted(orderNo, paymentId, Instant.now());
        return sale.send(HttpRequest.newBuilder(sale.base.resolve("/api/v1/payments/callback"))
                .header("Content-Type", "application/json")
                .header("X-Signature", PaymentCallbacks.header(PAYMENT_KEY, Instant.now().getEpochSecond(), body))
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }
}
