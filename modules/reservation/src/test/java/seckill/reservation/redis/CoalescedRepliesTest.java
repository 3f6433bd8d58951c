package seckill.reservation.redis;

import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import seckill.reservation.TestRedis;
import seckill.reservation.api.ReservationId;
import seckill.reservation.api.ReservationOutcome;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** One buyer's unreadable reply in a coalesced call fails that buyer only. */
class CoalescedRepliesTest {

    @RegisterExtension
    static final TestRedis SERVER = new TestRedis();

    @Test
    void anUnreadableRecordFailsItsBuyerAndNoOther() {
        long activity = System.currentTimeMillis() % 1_000_000_000L * 10 + 9;
        StockBuckets keys = StockBuckets.of(activity, 1, 1);
        new PreheatScript().preheat(SERVER.client(), keys, 0, 5, "ordering", Instant.now().plusSeconds(600), 1);
        SERVER.client().hset(keys.buyers(0), "61", "not-a-reservation-id");
        List<ReservationOutcome> outcomes = new ReservationScript().reserveMany(SERVER.client(), keys, List.of(
                new ReservationScript.Claim(new ReservationId(activity, 1, 0, 1), 61, 1, "a", seckill.reservation.api.BuyerWindow.NONE),
                new ReservationScript.Claim(new ReservationId(activity, 1, 0, 2), 62, 1, "b", seckill.reservation.api.BuyerWindow.NONE)), Instant.now(), seckill.redis.ReplicaAcks.NONE);
        assertThat(outcomes.get(0), is(new ReservationOutcome.Unreadable("ALREADY_RESERVED not-a-reservation-id")));
        assertThat(outcomes.get(1), is(new ReservationOutcome.Reserved(new ReservationId(activity, 1, 0, 2), 4)));
    }

    @Test
    void theScriptsThemselvesRefuseQuantitiesThatAreNotPositiveIntegers() {
        long activity = System.currentTimeMillis() % 1_000_000_000L * 10 + 8;
        StockBuckets keys = StockBuckets.of(activity, 1, 1);
        new PreheatScript().preheat(SERVER.client(), keys, 0, 5, "ordering", Instant.now().plusSeconds(600), 1);
        ReservationScript script = new ReservationScript();
        assertThrows(redis.clients.jedis.exceptions.JedisDataException.class, () -> script.reserve(SERVER.client(), keys,
                new ReservationId(activity, 1, 0, 1), 71, 0, "zero", Instant.now(), seckill.redis.ReplicaAcks.NONE, seckill.reservation.api.BuyerWindow.NONE));
        assertThrows(redis.clients.jedis.exceptions.JedisDataException.class, () -> script.reserve(SERVER.client(), keys,
                new ReservationId(activity, 1, 0, 2), 71, -3, "negative", Instant.now(), seckill.redis.ReplicaAcks.NONE, seckill.reservation.api.BuyerWindow.NONE));
        List<ReservationOutcome> outcomes = script.reserveMany(SERVER.client(), keys, List.of(
                new ReservationScript.Claim(new ReservationId(activity, 1, 0, 3), 72, -1, "a", seckill.reservation.api.BuyerWindow.NONE),
                new ReservationScript.Claim(new ReservationId(activity, 1, 0, 4), 73, 1, "b", seckill.reservation.api.BuyerWindow.NONE)), Instant.now(), seckill.redis.ReplicaAcks.NONE);
        assertThat(outcomes.get(0), is(new ReservationOutcome.Unreadable("INVALID ")));
        assertThat(outcomes.get(1), is(new ReservationOutcome.Reserved(new ReservationId(activity, 1, 0, 4), 4)));
        assertThat("nothing taken for the refused ones", SERVER.client().get(keys.stock(0)), is("4"));
    }

    @Test
    void aQuantityOtherThanOneIsTheOneOfTheBuyerAtItsPlaceInTheCall() {
        // issue #35's sixth step: a buyer takes 1 unless their place in the call is listed after the
        // buyers' arguments with another quantity; each buyer is judged with their own
        long activity = System.currentTimeMillis() % 1_000_000_000L * 100 + 11;
        StockBuckets keys = StockBuckets.of(activity, 1, 1);
        new PreheatScript().preheat(SERVER.client(), keys, 0, 7, "ordering", Instant.now().plusSeconds(600), 1);
        Instant at = Instant.ofEpochMilli(System.currentTimeMillis());
        List<ReservationScript.Claim> claims = List.of(
                new ReservationScript.Claim(new ReservationId(activity, 1, 0, 1), 81, 1, "a", seckill.reservation.api.BuyerWindow.NONE),
                new ReservationScript.Claim(new ReservationId(activity, 1, 0, 2), 82, 3, "b", seckill.reservation.api.BuyerWindow.NONE),
                new ReservationScript.Claim(new ReservationId(activity, 1, 0, 3), 83, 1, "c", seckill.reservation.api.BuyerWindow.NONE),
                new ReservationScript.Claim(new ReservationId(activity, 1, 0, 4), 84, 0, "d", seckill.reservation.api.BuyerWindow.NONE),
                new ReservationScript.Claim(new ReservationId(activity, 1, 0, 5), 85, 5, "e", seckill.reservation.api.BuyerWindow.NONE),
                new ReservationScript.Claim(new ReservationId(activity, 1, 0, 6), 86, 2, "f", seckill.reservation.api.BuyerWindow.NONE));
        ReservationScript script = new ReservationScript();
        List<ReservationOutcome> outcomes = script.reserveMany(SERVER.client(), keys, claims, at, seckill.redis.ReplicaAcks.NONE);
        assertThat(outcomes, is(List.of(
                new ReservationOutcome.Reserved(new ReservationId(activity, 1, 0, 1), 6),
                new ReservationOutcome.Reserved(new ReservationId(activity, 1, 0, 2), 3),
                new ReservationOutcome.Reserved(new ReservationId(activity, 1, 0, 3), 2),
                new ReservationOutcome.Unreadable("INVALID "),
                new ReservationOutcome.InsufficientStock(2),
                new ReservationOutcome.Reserved(new ReservationId(activity, 1, 0, 6), 0))));
        assertThat(SERVER.client().get(keys.stock(0)), is("0"));
        List<ReservationOutcome> again = script.reserveMany(SERVER.client(), keys, claims, at, seckill.redis.ReplicaAcks.NONE);
        for (int place : new int[] {0, 1, 2, 5}) {
            assertThat("run again, the same reservation", again.get(place),
                    is(new ReservationOutcome.Reserved(claims.get(place).candidate(), 0)));
        }
        assertThat(SERVER.client().get(keys.stock(0)), is("0"));
        var entries = SERVER.client().xrange(keys.events(0), (redis.clients.jedis.StreamEntryID) null, null);
        assertThat("nothing recorded again", entries.size(), is(1));
        var position = new seckill.reservation.api.EventPosition(keys.events(0), entries.getFirst().getID().toString());
        assertThat(seckill.reservation.api.ReservationEventFields.decodeAll(entries.getFirst().getFields(), position, 1)
                .stream().map(seckill.reservation.api.ReservationEvent::quantity).toList(), is(List.of(1, 3, 1, 2)));
    }

    @Test
    void theCoalescedScriptRefusesAQuantityWithoutAPlaceInTheCall() {
        long activity = System.currentTimeMillis() % 1_000_000_000L * 100 + 12;
        StockBuckets keys = StockBuckets.of(activity, 1, 1);
        new PreheatScript().preheat(SERVER.client(), keys, 0, 7, "ordering", Instant.now().plusSeconds(600), 1);
        String source;
        try (var window = ReservationScript.class.getResourceAsStream("buyer_window.lua");
             var many = ReservationScript.class.getResourceAsStream("reserve_many.lua")) {
            source = new String(window.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8) + "\n"
                    + new String(many.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        List<String> callKeys = new java.util.ArrayList<>(keys.bucketKeys(0));
        callKeys.add(keys.served(0));
        String id = new ReservationId(activity, 1, 0, 1).toString();
        for (List<String> tail : List.of(List.of("2", "3"), List.of("0", "3"), List.of("1"), List.of("x", "3"))) {
            List<String> args = new java.util.ArrayList<>(List.of("1", "1000", Long.toString(activity), "1", "0", "0", "e",
                    "81", id, id + ",81,1,1000,a"));
            args.addAll(tail);
            assertThrows(redis.clients.jedis.exceptions.JedisDataException.class,
                    () -> SERVER.client().eval(source, callKeys, args), "places " + tail);
        }
        assertThat("nothing taken", SERVER.client().get(keys.stock(0)), is("7"));
    }

    @Test
    void aCallWithMoreBuyersThanLuaUnpacksAtOnceJudgesEveryOne() {
        // Lua's unpack returns at most about 8,000 values at once; the script reads and writes the
        // buyers hash in slices, so an operator's large max-batch cannot break the call
        long activity = System.currentTimeMillis() % 1_000_000_000L * 10 + 7;
        StockBuckets keys = StockBuckets.of(activity, 1, 1);
        new PreheatScript().preheat(SERVER.client(), keys, 0, 8_998, "ordering", Instant.now().plusSeconds(600), 1);
        ReservationId earlier = new ReservationId(activity, 1, 0, 100_000);
        SERVER.client().hset(keys.buyers(0), "5000", earlier.toString());
        long held = SERVER.client().hlen(keys.buyers(0));
        List<ReservationScript.Claim> claims = new java.util.ArrayList<>();
        for (int buyer = 1; buyer <= 9_000; buyer++) {
            claims.add(new ReservationScript.Claim(new ReservationId(activity, 1, 0, buyer), buyer, 1, "r" + buyer,
                    seckill.reservation.api.BuyerWindow.NONE));
        }
        List<ReservationOutcome> outcomes = new ReservationScript().reserveMany(SERVER.client(), keys, claims,
                Instant.now(), seckill.redis.ReplicaAcks.NONE);
        long reserved = outcomes.stream().filter(ReservationOutcome.Reserved.class::isInstance).count();
        assertThat(reserved, is(8_998L));
        assertThat(outcomes.get(4_999), is(new ReservationOutcome.AlreadyReserved(earlier)));
        assertThat(outcomes.get(8_998), is(new ReservationOutcome.Reserved(new ReservationId(activity, 1, 0, 8_999), 0)));
        assertThat(outcomes.get(8_999), is(new ReservationOutcome.SoldOut()));
        assertThat(SERVER.client().get(keys.stock(0)), is("0"));
        assertThat("one entry for the call", SERVER.client().xlen(keys.events(0)), is(1L));
        List<String> recorded = TestRedis.recorded(SERVER.client(), keys.events(0));
        assertThat(recorded.size(), is(8_998));
        assertThat(recorded.getLast(), is(new ReservationId(activity, 1, 0, 8_999).toString()));
        assertThat(SERVER.client().hlen(keys.buyers(0)), is(held + 8_998));
        assertThat(SERVER.client().hget(keys.buyers(0), "8999"), is(new ReservationId(activity, 1, 0, 8_999).toString()));
    }

    @Test
    void aBucketWithoutStockAnswersEveryBuyerNotPreheatedAndRecordsNothing() {
        long activity = System.currentTimeMillis() % 1_000_000_000L * 10 + 6;
        StockBuckets keys = StockBuckets.of(activity, 1, 1);
        List<ReservationOutcome> outcomes = new ReservationScript().reserveMany(SERVER.client(), keys, List.of(
                new ReservationScript.Claim(new ReservationId(activity, 1, 0, 1), 71, 1, "a", seckill.reservation.api.BuyerWindow.NONE),
                new ReservationScript.Claim(new ReservationId(activity, 1, 0, 2), 72, 1, "b", seckill.reservation.api.BuyerWindow.NONE)),
                Instant.now(), seckill.redis.ReplicaAcks.NONE);
        assertThat(outcomes, is(List.of(new ReservationOutcome.NotPreheated(), new ReservationOutcome.NotPreheated())));
        assertThat(SERVER.client().exists(keys.stock(0), keys.buyers(0), keys.events(0)), is(0L));
    }

    @Test
    void eachReservationsEventIsItsClaimAndNoRefusedClaimHasOne() {
        // issue #35: the coalesced script records each event in one field, the text the caller made of
        // the same claim it judged; read back as the consumers read it, it is that claim
        eventsAreTheirClaims(true, 6);
    }

    @Test
    void withPackedEventsOffTheEventsAreNamedFieldsThatOlderConsumersRead() {
        // seckill.reservation.packed-events=false, for a rolling upgrade from instances that read only
        // the named fields
        var entries = eventsAreTheirClaims(false, 5);
        for (var entry : entries) {
            assertThat(entry.getFields().keySet(), is(java.util.Set.of("reservationId", "userId", "quantity",
                    "requestId", "reservedAt")));
        }
    }

    private static List<redis.clients.jedis.resps.StreamEntry> eventsAreTheirClaims(boolean packed, int salt) {
        long activity = System.currentTimeMillis() % 1_000_000_000L * 10 + salt;
        StockBuckets keys = StockBuckets.of(activity, 1, 1);
        new PreheatScript().preheat(SERVER.client(), keys, 0, 3, "ordering", Instant.now().plusSeconds(600), 1);
        Instant at = Instant.ofEpochMilli(System.currentTimeMillis());
        List<ReservationScript.Claim> claims = List.of(
                new ReservationScript.Claim(new ReservationId(activity, 1, 0, 1), 81, 2, "q,with,commas", seckill.reservation.api.BuyerWindow.NONE),
                new ReservationScript.Claim(new ReservationId(activity, 1, 0, 2), 82, 1, "q-82", seckill.reservation.api.BuyerWindow.NONE),
                new ReservationScript.Claim(new ReservationId(activity, 1, 0, 3), 83, 1, "q-83", seckill.reservation.api.BuyerWindow.NONE));
        List<ReservationOutcome> outcomes = new ReservationScript().reserveMany(SERVER.client(), keys, claims, at,
                seckill.redis.ReplicaAcks.NONE, packed);
        assertThat(outcomes.get(2), is(new ReservationOutcome.SoldOut()));
        var entries = SERVER.client().xrange(keys.events(0), (redis.clients.jedis.StreamEntryID) null, null);
        assertThat(entries.size(), is(2));
        for (int i = 0; i < 2; i++) {
            ReservationScript.Claim claim = claims.get(i);
            var event = seckill.reservation.api.ReservationEventFields.decode(entries.get(i).getFields(),
                    new seckill.reservation.api.EventPosition(keys.events(0), entries.get(i).getID().toString()), 1);
            assertThat(event, is(new seckill.reservation.api.ReservationEvent(claim.candidate(), claim.userId(),
                    claim.quantity(), claim.requestId(), at, event.position(), 1)));
            assertThat(entries.get(i).getFields().containsKey("e"), is(packed));
        }
        return entries;
    }

    @Test
    void aCallsReservationsAreOneEntryAndEachIsItsClaim() {
        // issue #35's third step: one XADD per call, its reservations in the call's order; a refused
        // claim has none, and the call run again records nothing more
        long activity = System.currentTimeMillis() % 1_000_000_000L * 10 + 4;
        StockBuckets keys = StockBuckets.of(activity, 1, 1);
        new PreheatScript().preheat(SERVER.client(), keys, 0, 4, "ordering", Instant.now().plusSeconds(600), 1);
        SERVER.client().hset(keys.buyers(0), "92", new ReservationId(activity, 1, 0, 99).toString());
        Instant at = Instant.ofEpochMilli(System.currentTimeMillis());
        List<ReservationScript.Claim> claims = List.of(
                new ReservationScript.Claim(new ReservationId(activity, 1, 0, 1), 91, 2, "q,with,commas", seckill.reservation.api.BuyerWindow.NONE),
                new ReservationScript.Claim(new ReservationId(activity, 1, 0, 2), 92, 1, "q-92", seckill.reservation.api.BuyerWindow.NONE),
                new ReservationScript.Claim(new ReservationId(activity, 1, 0, 3), 93, 1, "q-93", seckill.reservation.api.BuyerWindow.NONE),
                new ReservationScript.Claim(new ReservationId(activity, 1, 0, 4), 94, 1, "q-94", seckill.reservation.api.BuyerWindow.NONE),
                new ReservationScript.Claim(new ReservationId(activity, 1, 0, 5), 95, 1, "q-95", seckill.reservation.api.BuyerWindow.NONE));
        ReservationScript script = new ReservationScript();
        List<ReservationOutcome> outcomes = script.reserveMany(SERVER.client(), keys, claims, at, seckill.redis.ReplicaAcks.NONE);
        assertThat(outcomes.get(1), is(new ReservationOutcome.AlreadyReserved(new ReservationId(activity, 1, 0, 99))));
        assertThat(outcomes.get(4), is(new ReservationOutcome.SoldOut()));
        assertThat(script.reserveMany(SERVER.client(), keys, claims, at, seckill.redis.ReplicaAcks.NONE).get(3),
                is(new ReservationOutcome.Reserved(new ReservationId(activity, 1, 0, 4), 0)));
        var entries = SERVER.client().xrange(keys.events(0), (redis.clients.jedis.StreamEntryID) null, null);
        assertThat(entries.size(), is(1));
        assertThat(entries.getFirst().getFields().keySet(), is(java.util.Set.of("es")));
        var position = new seckill.reservation.api.EventPosition(keys.events(0), entries.getFirst().getID().toString());
        List<seckill.reservation.api.ReservationEvent> events = seckill.reservation.api.ReservationEventFields.decodeAll(
                entries.getFirst().getFields(), position, 1);
        List<seckill.reservation.api.ReservationEvent> expected = new java.util.ArrayList<>();
        for (int i : new int[] {0, 2, 3}) {
            ReservationScript.Claim claim = claims.get(i);
            expected.add(new seckill.reservation.api.ReservationEvent(claim.candidate(), claim.userId(), claim.quantity(),
                    claim.requestId(), at, position, 1));
        }
        assertThat(events, is(expected));
        assertThat(SERVER.client().get(keys.stock(0)), is("0"));
    }

    @Test
    void aCallThatReservesForOneBuyerWritesTheSingleEventShape() {
        long activity = System.currentTimeMillis() % 1_000_000_000L * 10 + 3;
        StockBuckets keys = StockBuckets.of(activity, 1, 1);
        new PreheatScript().preheat(SERVER.client(), keys, 0, 1, "ordering", Instant.now().plusSeconds(600), 1);
        new ReservationScript().reserveMany(SERVER.client(), keys, List.of(
                new ReservationScript.Claim(new ReservationId(activity, 1, 0, 1), 61, 1, "a", seckill.reservation.api.BuyerWindow.NONE),
                new ReservationScript.Claim(new ReservationId(activity, 1, 0, 2), 62, 1, "b", seckill.reservation.api.BuyerWindow.NONE)),
                Instant.now(), seckill.redis.ReplicaAcks.NONE);
        var entries = SERVER.client().xrange(keys.events(0), (redis.clients.jedis.StreamEntryID) null, null);
        assertThat(entries.size(), is(1));
        assertThat(entries.getFirst().getFields().keySet(), is(java.util.Set.of("e")));
    }

    @Test
    void aRequestIdHoldingTheSeparatorIsRecordedOneEntryPerReservation() {
        long activity = System.currentTimeMillis() % 1_000_000_000L * 10 + 2;
        StockBuckets keys = StockBuckets.of(activity, 1, 1);
        new PreheatScript().preheat(SERVER.client(), keys, 0, 5, "ordering", Instant.now().plusSeconds(600), 1);
        new ReservationScript().reserveMany(SERVER.client(), keys, List.of(
                new ReservationScript.Claim(new ReservationId(activity, 1, 0, 1), 61, 1, "line\nbreak", seckill.reservation.api.BuyerWindow.NONE),
                new ReservationScript.Claim(new ReservationId(activity, 1, 0, 2), 62, 1, "b", seckill.reservation.api.BuyerWindow.NONE)),
                Instant.now(), seckill.redis.ReplicaAcks.NONE);
        var entries = SERVER.client().xrange(keys.events(0), (redis.clients.jedis.StreamEntryID) null, null);
        assertThat(entries.size(), is(2));
        assertThat(seckill.reservation.api.ReservationEventFields.decode(entries.getFirst().getFields(),
                new seckill.reservation.api.EventPosition(keys.events(0), "1-0"), 1).requestId(), is("line\nbreak"));
    }
}
