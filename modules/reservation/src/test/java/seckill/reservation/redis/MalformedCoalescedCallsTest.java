package seckill.reservation.redis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.exceptions.JedisDataException;
import seckill.reservation.TestRedis;
import seckill.reservation.api.ReservationId;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.oneOf;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * A hostile reading of reserve_many.lua's argument layout (three arguments a buyer, then (place, quantity)
 * pairs for quantities other than 1): a malformed call is refused before it writes anything, a re-run of a
 * call answers every buyer as the first run did, and no buyer takes another's quantity. The calls are made
 * by hand (eval of the script's source), as a caller with a bug, or an instance of another version, would.
 */
class MalformedCoalescedCallsTest {

    @RegisterExtension
    static final TestRedis SERVER = new TestRedis();

    private static String source() {
        try (var window = ReservationScript.class.getResourceAsStream("buyer_window.lua");
             var many = ReservationScript.class.getResourceAsStream("reserve_many.lua")) {
            return new String(window.readAllBytes(), StandardCharsets.UTF_8) + "\n"
                    + new String(many.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static StockBuckets preheated(long activity, long stock) {
        StockBuckets keys = StockBuckets.of(activity, 1, 1);
        new PreheatScript().preheat(SERVER.client(), keys, 0, stock, "ordering", Instant.now().plusSeconds(600), 1);
        return keys;
    }

    private static List<String> callKeys(StockBuckets keys) {
        List<String> callKeys = new ArrayList<>(keys.bucketKeys(0));
        callKeys.add(keys.served(0));
        return callKeys;
    }

    private static List<String> buyer(long activity, long user, int sequence, int quantity) {
        String id = new ReservationId(activity, 1, 0, sequence).toString();
        return List.of(Long.toString(user), id, id + "," + user + "," + quantity + ",1000,r" + sequence);
    }

    private static void assertNothingWritten(StockBuckets keys, long stock) {
        assertThat("stock untouched", SERVER.client().get(keys.stock(0)), is(Long.toString(stock)));
        assertThat("no event recorded", SERVER.client().xlen(keys.events(0)), is(0L));
        assertThat("no buyer recorded (preheat's own field only)", SERVER.client().hkeys(keys.buyers(0)),
                is(java.util.Set.of("_")));
        assertThat("no id minted", SERVER.client().exists(keys.served(0)), is(false));
    }

    /**
     * The count names three buyers, the arguments hold two and buyer 2's (place, quantity) pair: on main the pair
     * is read as a third buyer (user "2", id "3", no event), buyer 2 takes 1 instead of 3, and the call fails
     * at the third XADD after the first two buyers' events were appended: two events in the stream for units the
     * stock never gave (the ordering workers would order them). Failed on main (2 events written).
     */
    @Test
    void aCallCountingMoreBuyersThanItsArgumentsHoldIsRefusedBeforeAnyWrite() {
        long activity = System.currentTimeMillis() % 1_000_000_000L * 100 + 41;
        StockBuckets keys = preheated(activity, 10);
        for (String shape : List.of("e", "es", "named")) {
            List<String> args = new ArrayList<>(List.of("3", "1000", Long.toString(activity), "1", "0", "0", shape));
            args.addAll(buyer(activity, 81, 1, 1));
            args.addAll(buyer(activity, 82, 2, 3));
            args.addAll(List.of("2", "3"));
            assertThrows(JedisDataException.class, () -> SERVER.client().eval(source(), callKeys(keys), args), shape);
            assertNothingWritten(keys, 10);
        }
    }

    /** Two quantities for one place: ambiguous, so refused; on main the last one silently won. Failed on main. */
    @Test
    void aPlaceListedTwiceIsRefusedBeforeAnyWrite() {
        long activity = System.currentTimeMillis() % 1_000_000_000L * 100 + 42;
        StockBuckets keys = preheated(activity, 10);
        List<String> args = new ArrayList<>(List.of("1", "1000", Long.toString(activity), "1", "0", "0", "es"));
        args.addAll(buyer(activity, 91, 1, 2));
        args.addAll(List.of("1", "2", "1", "5"));
        assertThrows(JedisDataException.class, () -> SERVER.client().eval(source(), callKeys(keys), args));
        assertNothingWritten(keys, 10);
    }

    /** Guard: trailing pairs that are not (place 1..count, quantity) pairs are refused with nothing written. */
    @Test
    void placesOutsideTheCallOrWithoutAQuantityAreRefusedBeforeAnyWrite() {
        long activity = System.currentTimeMillis() % 1_000_000_000L * 100 + 43;
        StockBuckets keys = preheated(activity, 10);
        for (List<String> tail : List.of(List.of("3", "2"), List.of("0", "2"), List.of("01", "2"), List.of("+1", "2"),
                List.of("1 ", "2"), List.of("2"), List.of("1", "2", "2"), List.of("-1", "2"))) {
            List<String> args = new ArrayList<>(List.of("2", "1000", Long.toString(activity), "1", "0", "0", "es"));
            args.addAll(buyer(activity, 91, 1, 1));
            args.addAll(buyer(activity, 92, 2, 2));
            args.addAll(tail);
            assertThrows(JedisDataException.class, () -> SERVER.client().eval(source(), callKeys(keys), args), "tail " + tail);
            assertNothingWritten(keys, 10);
        }
    }

    /** Guard: each buyer takes the quantity listed at its own place, whatever order the pairs come in. */
    @Test
    void noBuyerTakesTheQuantityListedForAnotherPlace() {
        long activity = System.currentTimeMillis() % 1_000_000_000L * 100 + 44;
        StockBuckets keys = preheated(activity, 10);
        List<String> args = new ArrayList<>(List.of("3", "1000", Long.toString(activity), "1", "0", "0", "named"));
        args.addAll(List.of("71", new ReservationId(activity, 1, 0, 1).toString(), "a"));
        args.addAll(List.of("72", new ReservationId(activity, 1, 0, 2).toString(), "b"));
        args.addAll(List.of("73", new ReservationId(activity, 1, 0, 3).toString(), "c"));
        args.addAll(List.of("3", "4", "1", "2"));
        SERVER.client().eval(source(), callKeys(keys), args);
        assertThat(SERVER.client().get(keys.stock(0)), is("3"));
        var quantities = SERVER.client().xrange(keys.events(0), (redis.clients.jedis.StreamEntryID) null, null).stream()
                .map(e -> e.getFields().get("userId") + "x" + e.getFields().get("quantity")).toList();
        assertThat(quantities, is(List.of("71x2", "72x1", "73x4")));
        assertThat(SERVER.client().hget(keys.buyers(0), "74"), is(nullValue()));
    }

    /**
     * A re-run of the same call (a client retrying after a lost reply) refuses a refused buyer again and changes
     * nothing. Buyer 81 asks 2 of the 1 left (INSUFFICIENT 1), buyer 82 then takes the 1: the re-run answers 82
     * the same reservation and 81 SOLD_OUT. The refusal's name may differ (the script keeps no memory of a
     * refusal, as {@code reserve.lua} keeps none: by then 82's unit is gone), never whether the buyer holds a
     * unit, and no second event or unit moves. Found by the s51 attack, which asked for the same name; accepted:
     * a caller told either refusal holds nothing and may ask again.
     */
    @Test
    void aReRunRefusesARefusedBuyerAgainAndChangesNothing() {
        long activity = System.currentTimeMillis() % 1_000_000_000L * 100 + 45;
        StockBuckets keys = preheated(activity, 1);
        List<String> args = new ArrayList<>(List.of("2", "1000", Long.toString(activity), "1", "0", "0", "es"));
        args.addAll(buyer(activity, 81, 1, 2));
        args.addAll(buyer(activity, 82, 2, 1));
        args.addAll(List.of("1", "2"));
        Object first = SERVER.client().eval(source(), callKeys(keys), args);
        Object again = SERVER.client().eval(source(), callKeys(keys), args);
        assertThat(String.valueOf(first), is("[INSUFFICIENT, 1, 0]"));
        assertThat("the re-run's verdict for buyer 81", verdicts(again).get(0), is(oneOf("INSUFFICIENT", "SOLD_OUT")));
        assertThat(SERVER.client().xlen(keys.events(0)), is(1L));
        assertThat(SERVER.client().get(keys.stock(0)), is("0"));
        assertThat(SERVER.client().hget(keys.buyers(0), "81"), is(nullValue()));
    }

    private static List<String> verdicts(Object reply) {
        List<String> out = new ArrayList<>();
        for (Object o : (List<?>) reply) {
            if (o instanceof String s) {
                out.add(s);
            } else if (o instanceof byte[] b) {
                out.add(new String(b, StandardCharsets.UTF_8));
            } else {
                out.add("RESERVED");
            }
        }
        return out;
    }
}
