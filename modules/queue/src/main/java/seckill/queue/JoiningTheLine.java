package seckill.queue;

import java.time.Clock;
import java.time.Instant;
import java.util.List;

import jakarta.inject.Inject;
import redis.clients.jedis.UnifiedJedis;
import seckill.queue.api.JoinLine;
import seckill.queue.api.Place;
import seckill.queue.api.QueueWindow;
import seckill.queue.rules.PreQueueShuffle;
import seckill.redis.RedisScript;

/**
 * Joining the line ({@code join.lua}): before the start into the pre-queue with a random draw, after it at
 * the end of the line (first come, first served); joining again returns the same place. One Redis call,
 * acknowledged by the replicas in force, so a place given is a place a failover keeps.
 */
@QueueBean
class JoiningTheLine implements JoinLine {

    private final RedisScript script = LineCalls.withLine("join.lua");
    private final LineCalls calls;
    private final Clock clock;
    private final QueueRandomness randomness;
    private final Places places;

    @Inject
    JoiningTheLine(UnifiedJedis redis, Clock clock, QueueSettings settings, QueueRandomness randomness,
                   PassSigner signer, QueueSwitches switches, LineFigures figures) {
        this.calls = new LineCalls(redis, settings.acksInForce());
        this.clock = clock;
        this.randomness = randomness;
        this.places = new Places(signer, switches, figures);
    }

    @Override
    public Place join(long activityId, long buyerId, QueueWindow window) {
        Instant now = clock.instant();
        boolean started = window.startedAt(now);
        Object reply = calls.write(script, new LineKeys(activityId).line(), List.of(Long.toString(buyerId),
                started ? "1" : "0", PreQueueShuffle.draw(randomness.generator()), "-1",
                Long.toString(window.millisSinceStart(now))));
        return places.of(activityId, buyerId, reply);
    }
}
