package seckill.queue;

import java.util.List;
import java.util.logging.Logger;

import jakarta.inject.Inject;
import redis.clients.jedis.UnifiedJedis;
import seckill.redis.RedisScript;

/**
 * Closes a line when the units left are none ({@code close.lua}): everyone in it is told SOLD_OUT at once
 * (their place reads so) and nobody more is called; opens it again when units come back (unpaid orders
 * expired, failures refilled), for those still waiting, who kept their places.
 */
@QueueBean
class ClosingTheLine {

    private static final Logger LOG = Logger.getLogger(ClosingTheLine.class.getName());

    private final RedisScript script = LineCalls.alone("close.lua");
    private final LineCalls calls;

    @Inject
    ClosingTheLine(UnifiedJedis redis, QueueSettings settings) {
        this.calls = new LineCalls(redis, settings.acksInForce());
    }

    /** Whether the line is closed after taking {@code unitsLeft} into account. */
    boolean closedWith(long activityId, long unitsLeft) {
        String change = RedisScript.text(calls.write(script, List.of(new LineKeys(activityId).meta()),
                List.of(Long.toString(unitsLeft))));
        if (!change.equals("SAME")) {
            LOG.info(() -> "line of activity " + activityId + " " + change.toLowerCase() + " (units left: " + unitsLeft + ")");
        }
        return unitsLeft <= 0;
    }
}
