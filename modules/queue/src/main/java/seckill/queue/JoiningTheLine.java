package seckill.queue;

import java.time.Clock;
import java.time.Instant;
import java.util.List;

import jakarta.inject.Inject;
import redis.clients.jedis.UnifiedJedis;
import seckill.queue.api.JoinLine;
import seckill.queue.api.PastPurchases;
import seckill.queue.api.PastTurns;
import seckill.queue.api.Place;
import seckill.queue.api.PlaceState;
import seckill.queue.api.QueueWindow;
import seckill.queue.rules.PreQueueShuffle;
import seckill.redis.RedisScript;

/**
 * Joining the line ({@code join.lua}): before the start into the pre-queue with a random draw, after it at
 * the end of the line (first come, first served); joining again returns the same place. One Redis call,
 * acknowledged by the replicas in force, so a place given is a place a failover keeps. Only a buyer whose pass
 * expired, joining again, costs more: the record of past purchases is asked whether they bought (a used pass whose
 * mark a failover lost reads as expired); one who did not has the turn left recorded where the line's keys are not
 * ({@link PastTurns}: their old ticket is replaced, even once those keys are lost); then a second call puts them at the
 * end, or marks them served.
 */
@QueueBean
class JoiningTheLine implements JoinLine {

    private final RedisScript script = LineCalls.withLine("join.lua");
    private final LineCalls calls;
    private final Clock clock;
    private final QueueRandomness randomness;
    private final Places places;
    private final AskingPastPurchases purchases;

    @Inject
    JoiningTheLine(UnifiedJedis redis, Clock clock, QueueSettings settings, QueueRandomness randomness,
                   PassSigner signer, QueueSwitches switches, LineFigures figures, PastPurchases purchases,
                   PastTurns turns) {
        this.calls = new LineCalls(redis, settings.acksInForce());
        this.purchases = new AskingPastPurchases(purchases, turns, clock);
        this.clock = clock;
        this.randomness = randomness;
        this.places = new Places(signer, switches, figures);
    }

    @Override
    public Place join(long activityId, long buyerId, QueueWindow window) {
        Place place = join(activityId, buyerId, window, "?");
        if (place.state() != PlaceState.EXPIRED) {
            return place;
        }
        // join.lua wrote nothing: the pass expired unused, or it bought and its used mark was lost; one that did not
        // buy has its turn at the old place recorded as left before the new place exists
        return join(activityId, buyerId, window,
                purchases.boughtOrLeft(activityId, buyerId, place.place()) ? "1" : "0");
    }

    private Place join(long activityId, long buyerId, QueueWindow window, String served) {
        Instant now = clock.instant();
        boolean started = window.startedAt(now);
        Object reply = calls.write(script, new LineKeys(activityId).line(), List.of(Long.toString(buyerId),
                started ? "1" : "0", PreQueueShuffle.draw(randomness.generator()), "-1",
                Long.toString(window.millisSinceStart(now)), served));
        return places.of(activityId, buyerId, reply);
    }
}
