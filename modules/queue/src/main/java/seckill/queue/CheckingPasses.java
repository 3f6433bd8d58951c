package seckill.queue;

import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.inject.Inject;
import redis.clients.jedis.UnifiedJedis;
import seckill.queue.api.LineUnavailable;
import seckill.queue.api.PassCheck;
import seckill.queue.api.PassClaim;
import seckill.redis.RedisScript;

/**
 * A purchase's pass, checked in memory (signature, buyer, activity, expiry), then bound to the purchase showing it
 * ({@code claim.lua}: one Redis call for a purchase whose pass is valid, so one turn buys once; acknowledged by the
 * replicas in force before the purchase goes on, so a failover cannot lose the binding and let the pass buy
 * again), and marked used after it bought something ({@link MarkingPassesUsed}: {@code use.lua}, not waited for: it
 * frees the pass's room for the next buyer at once instead of at its expiry; one Redis did not answer is made again
 * by the next tick; if a failover loses it, the buyer reads EXPIRED and joining
 * again finds the purchase in the record of past purchases, {@link JoiningTheLine}).
 */
@QueueBean
class CheckingPasses implements PassCheck {

    private static final Logger LOG = Logger.getLogger(CheckingPasses.class.getName());

    private final RedisScript claiming = LineCalls.alone("claim.lua");
    private final LineCalls calls;
    private final LineCalls acknowledged;
    private final PassSigner signer;
    private final Clock clock;
    private final MarkingPassesUsed uses;

    @Inject
    CheckingPasses(UnifiedJedis redis, QueueSettings settings, PassSigner signer, Clock clock, MarkingPassesUsed uses) {
        this.calls = new LineCalls(redis, () -> seckill.redis.ReplicaAcks.NONE);
        this.acknowledged = new LineCalls(redis, settings.acksInForce());
        this.signer = signer;
        this.clock = clock;
        this.uses = uses;
    }

    @Override
    public Optional<String> refusal(long activityId, long buyerId, Optional<String> pass) {
        return signer.passRefusal(pass.orElse(null), activityId, buyerId, clock.millis());
    }

    @Override
    public PassClaim bind(long activityId, long buyerId, String pass, String requestId) {
        // acknowledged by the replicas in force. LineUnavailable goes to the caller, which must not reserve: the pass
        // is then not bound (Redis did not answer: on a Redis Cluster the line's master may be down while the
        // reservation's answer), or bound on the master alone (a failover could lose it); either way it would buy again
        Object answer = acknowledged.write(claiming, new LineKeys(activityId).claiming(),
                List.of(Long.toString(buyerId), pass, requestId, "claim", Long.toString(signer.passExpiry(pass)),
                        Long.toString(clock.millis())));
        long claimed = answer instanceof Number n ? n.longValue() : 1;
        return claimed == 1 ? PassClaim.BOUND : claimed == 2 ? PassClaim.RAN_OUT : PassClaim.TAKEN;
    }

    @Override
    public void release(long activityId, long buyerId, String pass, String requestId) {
        try {
            calls.read(claiming, new LineKeys(activityId).claiming(),
                    List.of(Long.toString(buyerId), pass, requestId, "release",
                            Long.toString(signer.passExpiry(pass)), Long.toString(clock.millis())));
        } catch (LineUnavailable e) {
            // the pass stays bound to that purchase: it may still buy with the same requestId
            LOG.log(Level.FINE, "pass claim not released", e);
        }
    }

    @Override
    public void used(long activityId, long buyerId) {
        // Redis not answering: the next tick of this instance makes the mark (MarkingPassesUsed)
        uses.mark(activityId, buyerId);
    }
}
