package seckill.chaos.api;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import seckill.chaos.api.HistoryEntry.Operation;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.is;

/**
 * The checker against a clean run and against runs with one planted violation each: synthetic
 * histories, rows written into a real MariaDB with the ledger's schema, stock keys in a real Redis.
 * A clean run: three units of one SKU; buyer 1's order paid, buyer 2's expired and refilled, buyer
 * 3's reservation FAILED and refilled (buyer 1's order paid by a genuine callback, a forged one for it refused), buyer 4 told sold out, buyer 5 told 503 with Retry-After;
 * two instances both answer after the heal; reconciliation CLEAN.
 */
class CheckerTest {

    private static final AtomicLong ACTIVITIES = new AtomicLong(System.currentTimeMillis() % 1_000_000 * 100);
    private static CheckerStores stores;

    private long activity;
    private final List<HistoryEntry> history = new ArrayList<>();
    private long seq;
    private long shelf;

    @BeforeAll
    static void openStores() throws Exception {
        stores = CheckerStores.open();
    }

    @AfterAll
    static void closeStores() throws Exception {
        stores.close();
    }

    @BeforeEach
    void cleanRun() throws Exception {
        activity = ACTIVITIES.incrementAndGet();
        history.add(new HistoryEntry.RunStarted(7, 60_000, 2, "single", "2026-12-02T01:00:00Z"));
        history.add(new HistoryEntry.Planned(0, 100, "PURCHASE", 0, "buyer 1"));
        history.add(new HistoryEntry.ActivityLaunched(activity, Map.of(1L, 3L), 10, List.of(9001, 9002)));
        stores.sql("INSERT INTO seckill_stock (activity_id, sku_id, total, available, per_user_limit, buckets)"
                + " VALUES (?, 1, 3, 2, 1, 1)", activity);
        reserve(1, "r1", "q1", 1);
        pay("r1", "pay-" + activity + "-r1", 200);
        // a forged callback for the same order, refused and without a trace in the ledger
        forgedPayment("bad-signature", "r1", "forged-" + activity + "-r1", 401);
        reserve(2, "r2", "q2", 2);
        refill("r2", 1);
        reserve(3, "r3", null, 0);
        stores.sql("INSERT INTO seckill_reservation_failure (reservation_id, activity_id, sku_id, user_id, quantity,"
                + " reason, failed_at) VALUES (?, ?, 1, 3, 1, 'planted', UTC_TIMESTAMP(3))", id("r3"), activity);
        refill("r3", 1);
        purchase(0, 4, "q4", 410, "{\"type\":\"SOLD_OUT\"}", null);
        purchase(1, 5, "q5", 503, "{\"type\":\"HALTED\"}", "2");
        shelf = 2;
        history.add(new HistoryEntry.Healed(50_000_000_000L, "2026-12-02T01:01:00Z", 30_000));
        probe(0, 55_000_000_000L, 200);
        probe(1, 56_000_000_000L, 410);
        history.add(op(OpKind.RECONCILE, 0, null, null, 200,
                "{\"skus\":[{\"skuId\":1,\"state\":\"CLEAN\"}]}", null, 57_000_000_000L));
    }

    @Test
    void aCleanRunHoldsEveryPromise() throws Exception {
        Verdict verdict = judge();
        assertThat(verdict.report(), verdict.clean(), is(true));
        assertThat(verdict.exitCode(), is(0));
    }

    @Test
    void anOversellIsCaught() throws Exception {
        reserve(6, "r6", "q6", 0);
        reserve(7, "r7", "q7", 1);
        reserve(8, "r8", "q8", 0);
        shelf = 0;
        Verdict verdict = judge();
        assertViolated(verdict, Promise.NOT_OVERSOLD, "4 units held by 4 live orders, stock 3");
    }

    @Test
    void aLost202IsCaught() throws Exception {
        purchase(0, 9, "q9", 202, "{\"reservationId\":\"" + id("r9") + "\",\"status\":\"QUEUED\"}", null);
        Verdict verdict = judge();
        assertViolated(verdict, Promise.RESERVATION_SETTLED, "is neither an order nor FAILED");
        assertThat(verdict.of(Promise.RESERVATION_SETTLED).counterexamples().getFirst(), containsString("buyer 9"));
    }

    @Test
    void aDoubleOrderIsCaught() throws Exception {
        reserve(1, "r1b", "q1b", 0);
        shelf = 1;
        Verdict verdict = judge();
        assertViolated(verdict, Promise.ONE_ORDER_PER_BUYER, "buyer 1 has 2 orders of sku 1");
    }

    @Test
    void aStrandedUnitIsCaught() throws Exception {
        shelf = 1;
        Verdict verdict = judge();
        assertViolated(verdict, Promise.NO_STRANDED_UNIT, "(stranded 1)");
    }

    /**
     * Seed 42 on the cluster (CI, 2026-12-02): 2 units "stranded" with every other figure right. Units
     * held by events in a bucket's stream that no ordering worker acknowledged (delivered to a consumer
     * that died with the killed instance, reclaimed only after the reclaim idle time) are neither on the
     * shelf nor orders; the checker reads them from the stream and names them, and the runner waits for
     * them ({@link Checker#unitsInFlight}).
     */
    @Test
    void unitsHeldByEventsNoWorkerAcknowledgedAreNamedAndCounted() throws Exception {
        String events = "sk:{a" + activity + ":s1:b0}:events";
        stores.redis.del(events);
        stores.redis.xgroupCreate(events, "ordering", new redis.clients.jedis.StreamEntryID(), true);
        // one event delivered to a consumer that died (pending), one never delivered, one acknowledged
        stores.redis.xadd(events, redis.clients.jedis.params.XAddParams.xAddParams(),
                Map.of("reservationId", id("r10"), "userId", "10", "quantity", "1"));
        stores.redis.xreadGroup("ordering", "dead-consumer", redis.clients.jedis.params.XReadGroupParams
                .xReadGroupParams().count(1), Map.of(events, redis.clients.jedis.StreamEntryID.UNRECEIVED_ENTRY));
        stores.redis.xadd(events, redis.clients.jedis.params.XAddParams.xAddParams(),
                Map.of("reservationId", id("r11"), "userId", "11", "quantity", "2"));
        assertThat(new Checker(stores.db, stores.redis, 5).unitsInFlight(activity), is(Map.of(1L, 3L)));

        shelf = 0;
        Verdict verdict = judge();
        assertViolated(verdict, Promise.NO_STRANDED_UNIT, "3 unit(s) held by events no ordering worker acknowledged");
        assertThat(verdict.of(Promise.NO_STRANDED_UNIT).counterexamples().toString(), containsString(id("r10")));
        assertThat(verdict.of(Promise.NO_STRANDED_UNIT).counterexamples().toString(), containsString(id("r11")));

        // recorded in the history's shelf line, so a later judgement names them too
        HistoryEntry.ShelfRead read = new Checker(stores.db, stores.redis, 5).readShelf(activity, 60_000_000_000L, "w");
        assertThat(read.inFlight(), is(Map.of(1L, 3L)));
        assertThat(HistoryLines.read(HistoryLines.write(read)), is(read));

        // acknowledged (the reclaim ordered them): nothing in flight
        var pending = stores.redis.xpending(events, "ordering", redis.clients.jedis.params.XPendingParams
                .xPendingParams().count(10));
        stores.redis.xreadGroup("ordering", "live-consumer", redis.clients.jedis.params.XReadGroupParams
                .xReadGroupParams().count(10), Map.of(events, redis.clients.jedis.StreamEntryID.UNRECEIVED_ENTRY))
                .forEach(e -> e.getValue().forEach(entry -> stores.redis.xack(events, "ordering", entry.getID())));
        pending.forEach(p -> stores.redis.xack(events, "ordering", p.getID()));
        assertThat(new Checker(stores.db, stores.redis, 5).unitsInFlight(activity), is(Map.of(1L, 0L)));
        stores.redis.del(events);
    }

    /**
     * Issue #35: the coalesced script records an event in one field, {@code e} =
     * {@code reservationId,userId,quantity,reservedAt,requestId}. Such events count their quantity and are
     * named by their reservation id, as the named-field ones.
     */
    @Test
    void unacknowledgedPackedEventsCountTheirQuantityAndAreNamedByTheirReservation() throws Exception {
        String events = "sk:{a" + activity + ":s1:b0}:events";
        stores.redis.del(events);
        stores.redis.xgroupCreate(events, "ordering", new redis.clients.jedis.StreamEntryID(), true);
        stores.redis.xadd(events, redis.clients.jedis.params.XAddParams.xAddParams(),
                Map.of("e", id("r20") + ",20,2,1767225600000,req,with,commas"));
        stores.redis.xadd(events, redis.clients.jedis.params.XAddParams.xAddParams(),
                Map.of("reservationId", id("r21"), "userId", "21", "quantity", "1"));
        assertThat(new Checker(stores.db, stores.redis, 5).unitsInFlight(activity), is(Map.of(1L, 3L)));
        shelf = 0;
        Verdict verdict = judge();
        assertThat(verdict.of(Promise.NO_STRANDED_UNIT).counterexamples().toString(), containsString(id("r20")));
        stores.redis.del(events);
    }

    /**
     * Issue #35's third step: a coalesced call's reservations in one entry, field {@code es}, each one's
     * {@code e} text joined by newlines. Each counts its quantity and is named by its reservation id.
     */
    @Test
    void unacknowledgedReservationsOfOneCallsEntryEachCountAndAreNamed() throws Exception {
        String events = "sk:{a" + activity + ":s1:b0}:events";
        stores.redis.del(events);
        stores.redis.xgroupCreate(events, "ordering", new redis.clients.jedis.StreamEntryID(), true);
        stores.redis.xadd(events, redis.clients.jedis.params.XAddParams.xAddParams(),
                Map.of("es", id("r22") + ",22,2,1767225600000,req,with,commas\n" + id("r23") + ",23,1,1767225600000,q"));
        assertThat(new Checker(stores.db, stores.redis, 5).unitsInFlight(activity), is(Map.of(1L, 3L)));
        shelf = 0;
        Verdict verdict = judge();
        assertThat(verdict.of(Promise.NO_STRANDED_UNIT).counterexamples().toString(), containsString(id("r22")));
        assertThat(verdict.of(Promise.NO_STRANDED_UNIT).counterexamples().toString(), containsString(id("r23")));
        stores.redis.del(events);
    }

    @Test
    void aFailureWhoseUnitNeverCameBackIsCaught() throws Exception {
        stores.sql("DELETE FROM stock_sync_outbox WHERE reservation_id = ?", id("r3"));
        shelf = 1;
        Verdict verdict = judge();
        assertViolated(verdict, Promise.RESERVATION_SETTLED, "FAILED but its unit is not back");
        assertViolated(verdict, Promise.NO_STRANDED_UNIT, "not given back: [failed reservation " + id("r3"));
    }

    @Test
    void aHaltThatNeverLiftsIsCaught() throws Exception {
        history.removeIf(e -> e instanceof Operation op && op.kind() == OpKind.PROBE && op.instance() == 1);
        probe(1, 60_000_000_000L, 503);
        probe(1, 90_000_000_000L, 503);
        Verdict verdict = judge();
        assertViolated(verdict, Promise.RESUMES_AFTER_HEAL, "instance 1: no purchase answered within 30000 ms");
    }

    @Test
    void aRunThatNeverHealedIsCaught() throws Exception {
        history.removeIf(e -> e instanceof HistoryEntry.Healed);
        assertViolated(judge(), Promise.RESUMES_AFTER_HEAL, "never healed");
    }

    @Test
    void a500IsCaught() throws Exception {
        purchase(1, 10, "q10", 500, "{\"type\":\"INTERNAL\"}", null);
        assertViolated(judge(), Promise.NO_500, "buyer 10");
    }

    @Test
    void a503WithoutRetryAfterIsCaught() throws Exception {
        purchase(1, 11, "q11", 503, "{\"type\":\"BUSY\"}", null);
        Verdict verdict = judge();
        assertViolated(verdict, Promise.RETRY_AFTER, "buyer 11");
        assertThat(verdict.of(Promise.NO_500).held(), is(true));
    }

    @Test
    void anOrderNoRequestCouldHaveMadeIsCaught() throws Exception {
        stores.sql("INSERT INTO seckill_order (order_no, reservation_id, request_id, activity_id, sku_id, user_id,"
                        + " quantity, status, expire_at, created_at, updated_at) VALUES (?, ?, ?, ?, 1, 12, 1, 1,"
                        + " UTC_TIMESTAMP(3), UTC_TIMESTAMP(3), UTC_TIMESTAMP(3))", "N" + activity + "x12",
                id("r12"), activity + ":12:nobody-sent-this", activity);
        shelf = 1;
        assertViolated(judge(), Promise.NO_PHANTOM_ORDER, "buyer 12");
    }

    @Test
    void anOrderForAnotherSkuThanTheRequestIsCaught() throws Exception {
        purchase(0, 14, "q14", 410, "{}", null);
        stores.sql("INSERT INTO seckill_order (order_no, reservation_id, request_id, activity_id, sku_id, user_id,"
                        + " quantity, status, expire_at, created_at, updated_at) VALUES (?, ?, ?, ?, 1, 14, 1, 1,"
                        + " UTC_TIMESTAMP(3), UTC_TIMESTAMP(3), UTC_TIMESTAMP(3))", "N" + activity + "x14",
                id("r14"), activity + "/1/14/other-request", activity);
        shelf = 1;
        assertViolated(judge(), Promise.NO_PHANTOM_ORDER, "buyer 14");
    }

    @Test
    void aPaidOrderNoGenuineCallbackPaidIsCaught() throws Exception {
        reserve(15, "r15", "q15", 1);
        stores.sql("UPDATE seckill_order SET payment_id = ? WHERE order_no = ?", "forged-" + activity + "-r15",
                orderNo("r15"));
        forgedPayment("wrong-amount", "r15", "forged-" + activity + "-r15", 409);
        shelf = 1;
        Verdict verdict = judge();
        assertViolated(verdict, Promise.NO_FORGED_PAYMENT, "order " + orderNo("r15"));
        assertThat(verdict.of(Promise.NO_FORGED_PAYMENT).counterexamples().getFirst(),
                containsString("forged wrong-amount answered 409 sent {\"orderNo\":\"" + orderNo("r15")));
    }

    @Test
    void aPaidOrderWhoseCallbackWasNeverAnsweredIsGenuine() throws Exception {
        reserve(16, "r16", "q16", 1);
        stores.sql("UPDATE seckill_order SET payment_id = ? WHERE order_no = ?", "pay-" + activity + "-r16",
                orderNo("r16"));
        history.add(payment(OpKind.PAYMENT, null, "r16", "pay-" + activity + "-r16", 0, null));
        shelf = 1;
        Verdict verdict = judge();
        assertThat(verdict.report(), verdict.of(Promise.NO_FORGED_PAYMENT).held(), is(true));
    }

    @Test
    void aForgedCallbackAnswered200IsCaught() throws Exception {
        forgedPayment("no-signature", "r2", "forged-" + activity + "-r2", 200);
        Verdict verdict = judge();
        assertViolated(verdict, Promise.NO_FORGED_PAYMENT, "forged no-signature: answered 200");
    }

    @Test
    void aForgedCallbackThatLeftAPaymentRowIsCaught() throws Exception {
        forgedPayment("unknown-order", "r2", "forged-" + activity + "-r2", 404);
        stores.sql("INSERT INTO seckill_payment (payment_id, order_no, amount, currency, paid_at, outcome, received_at)"
                + " VALUES (?, ?, 1.00, 'CNY', UTC_TIMESTAMP(3), 'ORDER_EXPIRED', UTC_TIMESTAMP(3))",
                "forged-" + activity + "-r2", orderNo("r2"));
        assertViolated(judge(), Promise.NO_FORGED_PAYMENT, "answered 404 but left payment row");
    }

    /**
     * Buyer 4's 410 SOLD_OUT was sent at 01:00:00; the shelf ends with 2 units, r3's refill applied at an
     * unknown time. Planted: r2's unit came back at 00:58:00, two minutes before the 410, and is still on
     * the shelf at the end: a sold-out answer over a unit that sat there, unsold, the whole time.
     */
    @Test
    void aSoldOutAnswerOverAUnitThatStayedOnTheShelfIsCaught() throws Exception {
        stores.sql("UPDATE stock_sync_outbox SET applied_at = '2026-12-02 00:58:00.000' WHERE reservation_id = ?",
                id("r2"));
        Verdict verdict = judge();
        assertViolated(verdict, Promise.NO_STALE_SOLD_OUT, "buyer 4 sku 1 requestId q4: answered 410 SOLD_OUT");
        assertThat(verdict.of(Promise.NO_STALE_SOLD_OUT).counterexamples().getFirst(),
                containsString("1 unit(s) of sku 1 were on the shelf from 2026-12-02T00:59:50Z"));
        assertThat(verdict.of(Promise.NO_STRANDED_UNIT).held(), is(true));
    }

    @Test
    void aSoldOutAnswerWithinTheBoundOfARefillHolds() throws Exception {
        // the unit came back 8 s before the 410: a sold-out mark may outlive it that long (bound 10 s)
        stores.sql("UPDATE stock_sync_outbox SET applied_at = '2026-12-02 00:59:52.000' WHERE reservation_id = ?",
                id("r2"));
        Verdict verdict = judge();
        assertThat(verdict.report(), verdict.of(Promise.NO_STALE_SOLD_OUT).held(), is(true));
    }

    @Test
    void aMovedClockWidensTheBoundByItsOffset() throws Exception {
        // the refill's applied_at may have been written by an instance whose clock was 3 min behind
        stores.sql("UPDATE stock_sync_outbox SET applied_at = '2026-12-02 00:58:00.000' WHERE reservation_id = ?",
                id("r2"));
        history.add(new HistoryEntry.FaultEvent(9, FaultKind.CLOCK_MOVE, "instance 1: clock -180 s (moved: seen after"
                + " 900 ms; put back: seen after 700 ms)", 1, "2026-12-02T00:57:00Z", 2, "2026-12-02T00:57:10Z"));
        Verdict verdict = judge();
        assertThat(verdict.report(), verdict.of(Promise.NO_STALE_SOLD_OUT).held(), is(true));
    }

    @Test
    void aSoldOutAnswerWhileAnOperatorsThresholdIsInForceIsNotJudged() throws Exception {
        stores.sql("UPDATE stock_sync_outbox SET applied_at = '2026-12-02 00:58:00.000' WHERE reservation_id = ?",
                id("r2"));
        history.add(0, new Operation(900, 90, OpKind.SWITCH_FLIP, 1, null, null, null, null, 1, "2026-12-02T00:59:00Z",
                2, "2026-12-02T00:59:00.001Z", 200, "seckill.admission.sold-out-threshold=3", null, null));
        history.add(1, new Operation(901, 91, OpKind.SWITCH_FLIP, 1, null, null, null, null, 3, "2026-12-02T00:59:55Z",
                4, "2026-12-02T00:59:55.001Z", 200, "seckill.admission.sold-out-threshold=0", null, null));
        Verdict verdict = judge();
        assertThat(verdict.report(), verdict.of(Promise.NO_STALE_SOLD_OUT).held(), is(true));
    }

    @Test
    void theLedgersScopedRequestIdIsReadInBothLayouts() {
        assertThat(Checker.clientRequestId("7/2/42/r-1").orElseThrow(), is("r-1"));
        assertThat(Checker.clientRequestId("7:42:r-1").orElseThrow(), is("r-1"));
        assertThat(Checker.clientRequestId("garbage").isPresent(), is(false));
    }

    @Test
    void aReconciliationThatIsNotCleanIsCaught() throws Exception {
        history.add(op(OpKind.RECONCILE, 0, null, null, 200,
                "{\"skus\":[{\"skuId\":1,\"state\":\"MISMATCH\"}]}", null, 58_000_000_000L));
        assertViolated(judge(), Promise.RECONCILED_CLEAN, "MISMATCH");
    }

    @Test
    void theHistoryFileReadsBackAsWritten() throws Exception {
        history.add(new HistoryEntry.FaultEvent(3, FaultKind.KILL, "instance 1", 1, "a", 2, "b"));
        history.add(op(OpKind.PURCHASE, 0, 13L, "q13", 0, null, null, 3).withError("connect timed out"));
        history.add(new HistoryEntry.ShelfRead(activity, Map.of(1L, 2L), 4, "c"));
        Path file = Files.createTempFile("history", ".jsonl");
        try (HistoryWriter writer = new HistoryWriter(file)) {
            history.forEach(writer::write);
        }
        assertThat(History.read(file).entries(), is(history));
        assertThat(judge(History.read(file)).clean(), is(true));
        Files.delete(file);
    }

    @Test
    void anOperationLineWrittenBeforeSentAndForgedExistedReadsAsGenuine() {
        Operation op = (Operation) HistoryLines.read("{\"type\":\"op\",\"seq\":5,\"step\":3,\"kind\":\"PAYMENT\","
                + "\"instance\":1,\"buyer\":7,\"activity\":9,\"sku\":2,\"sendNanos\":1,\"sendWall\":\"a\","
                + "\"answerNanos\":2,\"answerWall\":\"b\",\"status\":200,\"body\":\"{}\"}");
        assertThat(op.sent(), is(org.hamcrest.Matchers.nullValue()));
        assertThat(op.forged(), is(org.hamcrest.Matchers.nullValue()));
        assertThat(op.isForged(), is(false));
        assertThat(HistoryLines.write(op).contains("forged"), is(false));
    }

    @Test
    void aRunIsJudgedAgainFromTheShelfItsHistoryRecorded() throws Exception {
        stores.redis.set("sk:{a" + activity + ":s1:b0}:stock", Long.toString(shelf));
        history.add(new Checker(stores.db, stores.redis, 5).readShelf(activity, 60_000_000_000L, "w"));
        stores.redis.del("sk:{a" + activity + ":s1:b0}:stock");
        assertThat(new Checker(stores.db, null, 5).judge(new History(history)).clean(), is(true));

        history.add(new HistoryEntry.ShelfRead(activity, Map.of(1L, 1L), 61_000_000_000L, "w"));
        assertViolated(new Checker(stores.db, null, 5).judge(new History(history)), Promise.NO_STRANDED_UNIT,
                "(stranded 1)");
    }

    // ---- planting

    private Verdict judge() throws Exception {
        return judge(new History(history));
    }

    /**
     * Buyer 21's purchase was sent at 01:00:00 and answered 202; the activity's window is 10 s, so its order's
     * deadline is 01:00:10 at the earliest. Planted: its genuine payment, answered at 01:00:05, refused
     * {@code 409 ORDER_EXPIRED} (as an instance whose clock ran 2 min ahead refused them, seed 13).
     */
    @Test
    void anOnTimePaymentRefusedOrderExpiredIsCaught() throws Exception {
        reserve(21, "r21", "q21", 2);
        refill("r21", 1);
        history.add(expiredPayment(OpKind.PAYMENT, null, "r21", "2026-12-02T01:00:04.800Z", "2026-12-02T01:00:05Z"));
        Verdict verdict = judge();
        assertViolated(verdict, Promise.ON_TIME_PAYMENT_ACCEPTED, "answered 409 ORDER_EXPIRED at 2026-12-02T01:00:05Z");
        assertThat(verdict.of(Promise.ON_TIME_PAYMENT_ACCEPTED).counterexamples().getFirst(), containsString(
                "order " + orderNo("r21") + " (reservation " + id("r21") + ", buyer 21), whose 10 s window ran at the"
                        + " earliest to 2026-12-02T01:00:10Z"));
        assertThat(verdict.of(Promise.ON_TIME_PAYMENT_ACCEPTED).violations(), is(1L));
    }

    /**
     * Refusals the promise allows: a payment answered after the window (01:00:12), one answered within the
     * margin of its end (01:00:08.500: the window less 2 s is 01:00:08), and a forged callback answered
     * ORDER_EXPIRED in time (forgeries are {@code NO_FORGED_PAYMENT}'s). And the window counts from the first
     * purchase that could have made the order: buyer 23's first attempt at 00:59:55 got no answer, its retry
     * a 200 at 01:00:00, so a refusal answered at 01:00:06 is after 00:59:55 + 10 s less the margin.
     */
    @Test
    void aLatePaymentRefusedOrderExpiredHolds() throws Exception {
        reserve(21, "r21", "q21", 2);
        refill("r21", 1);
        history.add(expiredPayment(OpKind.PAYMENT, null, "r21", "2026-12-02T01:00:11.900Z", "2026-12-02T01:00:12Z"));
        history.add(expiredPayment(OpKind.PAYMENT, null, "r21", "2026-12-02T01:00:07.900Z", "2026-12-02T01:00:08.500Z"));
        history.add(expiredPayment(OpKind.HOSTILE_PAYMENT, "replayed-order", "r21", "2026-12-02T01:00:01Z",
                "2026-12-02T01:00:01.100Z"));
        history.add(new Operation(++seq, (int) seq, OpKind.PURCHASE, 0, 23L, activity, 1L, "q23", seq * 1_000_000L,
                "2026-12-02T00:59:55Z", seq * 1_000_000L + 1, "2026-12-02T00:59:58Z", 0, null, null,
                "HttpTimeoutException"));
        reserve(23, "r23", "q23", 2);
        refill("r23", 1);
        history.add(expiredPayment(OpKind.PAYMENT, null, "r23", "2026-12-02T01:00:05.900Z", "2026-12-02T01:00:06Z"));
        Verdict verdict = judge();
        assertThat(verdict.report(), verdict.of(Promise.ON_TIME_PAYMENT_ACCEPTED).held(), is(true));
        assertThat(verdict.report(), verdict.of(Promise.NO_FORGED_PAYMENT).held(), is(true));
    }

    /** A payment callback for the reservation's order answered {@code 409 ORDER_EXPIRED}, sent and answered at the given times. */
    private Operation expiredPayment(OpKind kind, String forged, String reservation, String sendWall, String answerWall) {
        long at = ++seq * 1_000_000L;
        String sent = "{\"orderNo\":\"" + orderNo(reservation) + "\",\"paymentId\":\"pay-" + activity + "-" + seq
                + "\",\"amount\":1.00,\"currency\":\"CNY\",\"paidAt\":\"2026-12-02T01:00:00Z\"}\nX-Signature: t=1,v1=00";
        return new Operation(seq, (int) seq, kind, 0, null, activity, null, null, at, sendWall, at + 1_000_000,
                answerWall, 409, "{\"type\":\"urn:seckill:problem:ORDER_EXPIRED\",\"status\":409,\"orderNo\":\""
                + orderNo(reservation) + "\"}", null, null, sent, forged);
    }

    private Verdict judge(History h) throws Exception {
        stores.redis.set("sk:{a" + activity + ":s1:b0}:stock", Long.toString(shelf));
        Verdict verdict = new Checker(stores.db, stores.redis, 5).judge(h);
        System.out.print(verdict.report());
        return verdict;
    }

    private static void assertViolated(Verdict verdict, Promise promise, String counterexample) {
        assertThat(verdict.report(), verdict.of(promise).held(), is(false));
        assertThat(verdict.exitCode(), is(1));
        assertThat(verdict.of(promise).counterexamples().toString(), containsString(counterexample));
    }

    /** A 202 for {@code buyer} and, with a status, its order (0 pending, 1 paid, 2 expired). */
    private void reserve(long buyer, String reservation, String requestId, int orderStatus) throws Exception {
        String rid = requestId == null ? "q" + buyer : requestId;
        purchase(0, buyer, rid, 202, "{\"reservationId\":\"" + id(reservation) + "\",\"status\":\"QUEUED\"}", null);
        if (requestId != null) {
            stores.sql("INSERT INTO seckill_order (order_no, reservation_id, request_id, activity_id, sku_id, user_id,"
                            + " quantity, status, expire_at, created_at, updated_at) VALUES (?, ?, ?, ?, 1, ?, 1, ?,"
                            + " UTC_TIMESTAMP(3), UTC_TIMESTAMP(3), UTC_TIMESTAMP(3))", "N" + activity + reservation,
                    id(reservation), activity + "/1/" + buyer + "/" + rid, activity, buyer, orderStatus);
        }
    }

    private String orderNo(String reservation) {
        return "N" + activity + reservation;
    }

    /** A genuine callback answered {@code status}; a 200 pays the order and writes its audit row, as the service would. */
    private void pay(String reservation, String paymentId, int status) throws Exception {
        history.add(payment(OpKind.PAYMENT, null, reservation, paymentId, status,
                status == 200 ? "{\"orderNo\":\"" + orderNo(reservation) + "\",\"paymentId\":\"" + paymentId
                        + "\",\"status\":\"PAID\"}" : "{}"));
        if (status == 200) {
            stores.sql("UPDATE seckill_order SET status = 1, payment_id = ? WHERE order_no = ?", paymentId,
                    orderNo(reservation));
            stores.sql("INSERT INTO seckill_payment (payment_id, order_no, amount, currency, paid_at, outcome,"
                    + " received_at) VALUES (?, ?, 1.00, 'CNY', UTC_TIMESTAMP(3), 'PAID', UTC_TIMESTAMP(3))",
                    paymentId, orderNo(reservation));
        }
    }

    private void forgedPayment(String how, String reservation, String paymentId, int status) {
        history.add(payment(OpKind.HOSTILE_PAYMENT, how, reservation, paymentId, status,
                "{\"type\":\"about:blank\",\"status\":" + status + "}"));
    }

    private Operation payment(OpKind kind, String forged, String reservation, String paymentId, int status,
                              String body) {
        long at = ++seq * 1_000_000L;
        String sent = "{\"orderNo\":\"" + orderNo(reservation) + "\",\"paymentId\":\"" + paymentId
                + "\",\"amount\":1.00,\"currency\":\"CNY\",\"paidAt\":\"2026-12-02T01:00:00Z\"}\nX-Signature: t=1,v1=00";
        return new Operation(seq, (int) seq, kind, 0, null, activity, null, null, at, "w", at + 1_000_000, "w", status,
                body, null, null, sent, forged);
    }

    private void refill(String reservation, int status) throws Exception {
        stores.sql("INSERT INTO stock_sync_outbox (activity_id, sku_id, bucket, reservation_id, user_id, quantity,"
                + " change_type, release_buyer, status, attempts, created_at) VALUES (?, 1, 0, ?, 0, 1, 2, 0, ?, 0,"
                + " UTC_TIMESTAMP(3))", activity, id(reservation), status);
    }

    private String id(String reservation) {
        return activity + "-" + reservation;
    }

    private void purchase(int instance, long buyer, String requestId, int status, String body, String retryAfter) {
        history.add(op(OpKind.PURCHASE, instance, buyer, requestId, status, body, retryAfter, seq * 1_000_000L));
    }

    private void probe(int instance, long at, int status) {
        history.add(new Operation(++seq, -1, OpKind.PROBE, instance, 1L, activity, 1L, "q1", at, "w", at + 5_000_000,
                "w", status, status == 200 ? "{\"reservationId\":\"" + id("r1") + "\",\"status\":\"ALREADY_RESERVED\"}"
                : "{}", status == 503 ? "1" : null, null));
    }

    private Operation op(OpKind kind, int instance, Long buyer, String requestId, int status, String body,
                         String retryAfter, long at) {
        return new Operation(++seq, (int) seq, kind, instance, buyer, activity, buyer == null ? null : 1L, requestId,
                at, "2026-12-02T01:00:00Z", at + 2_000_000, "2026-12-02T01:00:00.002Z", status, body, retryAfter, null);
    }
}
