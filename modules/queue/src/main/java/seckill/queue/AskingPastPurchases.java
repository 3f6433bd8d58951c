package seckill.queue;

import java.time.Clock;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;

import seckill.queue.api.LineUnavailable;
import seckill.queue.api.PastPurchases;

/**
 * Asks the record of past purchases (the ledger, through the app's {@link PastPurchases}) on the line's rare paths,
 * keeping it out of the blast: callers asking about one buyer at once share one question (a burst of joins from one
 * buyer is one ledger query on this instance, not one per request), and once the record did not answer it is not
 * asked again for a second of the line's clock (a buyer's retry loop against a ledger that is down is told
 * {@link LineUnavailable} from memory, not a connection attempt each).
 */
final class AskingPastPurchases {

    /** How long a record that did not answer is left alone. */
    static final long QUIET_MILLIS = 1000;

    private final PastPurchases record;
    private final Clock clock;
    private final ConcurrentHashMap<List<Long>, CompletableFuture<Boolean>> asking = new ConcurrentHashMap<>();
    private volatile long quietUntil = Long.MIN_VALUE;

    AskingPastPurchases(PastPurchases record, Clock clock) {
        this.record = record;
        this.clock = clock;
    }

    /**
     * Whether the buyer bought in the activity; {@link LineUnavailable} when the record cannot tell (or could not a
     * moment ago): the buyer asks again, nothing was written.
     */
    boolean boughtIn(long activityId, long buyerId) {
        if (clock.millis() < quietUntil) {
            throw new LineUnavailable("the record of past purchases did not answer a moment ago", null);
        }
        List<Long> key = List.of(activityId, buyerId);
        CompletableFuture<Boolean> mine = new CompletableFuture<>();
        CompletableFuture<Boolean> shared = asking.putIfAbsent(key, mine);
        if (shared != null) {
            try {
                return shared.join();
            } catch (CompletionException e) {
                throw new LineUnavailable("the record of past purchases did not answer", e.getCause());
            }
        }
        try {
            boolean bought = record.boughtIn(activityId, buyerId);
            mine.complete(bought);
            return bought;
        } catch (RuntimeException e) {
            quietUntil = clock.millis() + QUIET_MILLIS;
            mine.completeExceptionally(e);
            throw new LineUnavailable("the record of past purchases did not answer", e);
        } finally {
            asking.remove(key, mine);
        }
    }
}
