package seckill.queue;

import java.time.Clock;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import seckill.queue.api.LineUnavailable;
import seckill.queue.api.PastPurchases;
import seckill.queue.api.PastTurns;

/**
 * Asks the records that outlive the line's keys (the ledger, through the app's {@link PastPurchases} and
 * {@link PastTurns}) on the line's rare paths, keeping them out of the blast: callers asking the same question about
 * one buyer at once share one question (a burst of joins or of ticket reads from one buyer is one ledger question on
 * this instance, not one per request), and once a record did not answer it is not asked again for a second of the
 * line's clock (a buyer's retry loop against a ledger that is down is told {@link LineUnavailable} from memory, not a
 * connection attempt each).
 */
final class AskingPastPurchases {

    /** How long a record that did not answer is left alone. */
    static final long QUIET_MILLIS = 1000;

    /** The question of a buyer whose pass expired joining again; the question of a ticket of a buyer Redis lost. */
    private static final long REJOINING = 1;
    private static final long RESTORING = 2;

    /**
     * What the records know of a buyer Redis lost who shows a ticket: whether they bought in the activity, and the
     * highest place whose turn they let run out and left by joining again (0: none).
     */
    record Known(boolean bought, long lastTurnLeft) {

        /** Before the start: nobody bought or had a turn, nothing is asked. */
        static final Known NOTHING = new Known(false, 0);

        /** Whether a ticket of {@code ticketPlace} was replaced by a later join (a pre-queue ticket names no place). */
        boolean replaces(long ticketPlace) {
            return ticketPlace > 0 && ticketPlace <= lastTurnLeft;
        }
    }

    private final PastPurchases purchases;
    private final PastTurns turns;
    private final Clock clock;
    private final ConcurrentHashMap<List<Long>, CompletableFuture<Object>> asking = new ConcurrentHashMap<>();
    private volatile long quietUntil = Long.MIN_VALUE;

    AskingPastPurchases(PastPurchases purchases, PastTurns turns, Clock clock) {
        this.purchases = purchases;
        this.turns = turns;
        this.clock = clock;
    }

    /**
     * A buyer whose pass at {@code place} expired joins again: whether they bought in the activity (their used mark
     * lost) and, if not, the turn recorded as left before they get a new place, so the ticket of {@code place} is known
     * replaced wherever the line's keys go. {@link LineUnavailable} when a record cannot tell or did not record (or
     * could not a moment ago): the buyer asks again, nothing was written in the line.
     */
    boolean boughtOrLeft(long activityId, long buyerId, long place) {
        return (Boolean) ask(List.of(REJOINING, activityId, buyerId, place), () -> {
            if (purchases.boughtIn(activityId, buyerId)) {
                return true;
            }
            turns.turnLeft(activityId, buyerId, place);
            return false;
        });
    }

    /**
     * A ticket of a buyer Redis does not know: what the records know of them ({@link Known}). {@link LineUnavailable}
     * as above.
     */
    Known known(long activityId, long buyerId) {
        return (Known) ask(List.of(RESTORING, activityId, buyerId), () -> purchases.boughtIn(activityId, buyerId)
                ? new Known(true, 0) : new Known(false, turns.lastTurnLeft(activityId, buyerId)));
    }

    private Object ask(List<Long> question, Supplier<Object> records) {
        if (clock.millis() < quietUntil) {
            throw new LineUnavailable("the record of past purchases did not answer a moment ago", null);
        }
        CompletableFuture<Object> mine = new CompletableFuture<>();
        CompletableFuture<Object> shared = asking.putIfAbsent(question, mine);
        if (shared != null) {
            try {
                return shared.join();
            } catch (CompletionException e) {
                throw new LineUnavailable("the record of past purchases did not answer", e.getCause());
            }
        }
        try {
            Object answer = records.get();
            mine.complete(answer);
            return answer;
        } catch (RuntimeException e) {
            quietUntil = clock.millis() + QUIET_MILLIS;
            mine.completeExceptionally(e);
            throw new LineUnavailable("the record of past purchases did not answer", e);
        } finally {
            asking.remove(question, mine);
        }
    }
}
