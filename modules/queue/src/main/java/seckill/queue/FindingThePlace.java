package seckill.queue;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import jakarta.inject.Inject;
import redis.clients.jedis.UnifiedJedis;
import seckill.queue.api.FindPlace;
import seckill.queue.api.PastPurchases;
import seckill.queue.api.PastTurns;
import seckill.queue.api.Place;
import seckill.queue.api.PlaceState;
import seckill.queue.api.QueueWindow;
import seckill.queue.rules.PreQueueShuffle;
import seckill.redis.RedisScript;

/**
 * Where a buyer stands ({@code place.lua}); a signed ticket shown for a buyer Redis does not know gives the
 * place it names back (a failover that lost the join loses no place), or, when the record of past purchases
 * says the buyer already bought in the activity, gives it back served ({@code USED}): a served buyer's ticket is
 * no second turn; when the record of turns left says the ticket was replaced (the buyer's turn at that place ran out
 * and they joined again, {@link PastTurns}), it gives a place at the end, not the old one ahead of buyers who never
 * had a turn. One Redis call; that rare path (a ticket Redis does not know) asks the records and writes.
 */
@QueueBean
class FindingThePlace implements FindPlace {

    private final RedisScript script = LineCalls.withLine("place.lua");
    private final LineCalls calls;
    private final Clock clock;
    private final QueueRandomness randomness;
    private final PassSigner signer;
    private final Places places;
    private final AskingPastPurchases purchases;
    private final LineFigures figures;

    @Inject
    FindingThePlace(UnifiedJedis redis, Clock clock, QueueSettings settings, QueueRandomness randomness,
                    PassSigner signer, QueueSwitches switches, LineFigures figures, PastPurchases purchases,
                    PastTurns turns) {
        this.purchases = new AskingPastPurchases(purchases, turns, clock);
        this.calls = new LineCalls(redis, settings.acksInForce());
        this.clock = clock;
        this.randomness = randomness;
        this.signer = signer;
        this.places = new Places(signer, switches, figures);
        this.figures = figures;
    }

    @Override
    public Place find(long activityId, long buyerId, QueueWindow window, Optional<String> ticket) {
        Instant now = clock.instant();
        boolean started = window.startedAt(now);
        long ticketPlace = ticket.map(t -> signer.ticketPlace(t, activityId, buyerId)).orElse(-1L);
        List<String> args = List.of(Long.toString(buyerId), started ? "1" : "0",
                ticketPlace == 0 ? PreQueueShuffle.draw(randomness.generator()) : "0", Long.toString(ticketPlace),
                Long.toString(window.millisSinceStart(now)));
        List<String> keys = new LineKeys(activityId).line();
        figures.placesRead(activityId);
        if (ticketPlace < 0) {
            return places.of(activityId, buyerId, calls.read(script, keys, args));
        }
        // a ticket (the page and its stream always show it): a read first, so a buyer Redis knows is told where
        // they stand without waiting for replicas (a lagging one would make every such read 503 and every stream
        // silent); the write that gives the ticket's place back, acknowledged, only for a buyer Redis does not know
        Place known = places.of(activityId, buyerId, calls.read(script, keys,
                List.of(args.get(0), args.get(1), "0", "-1", args.get(4))));
        if (known.state() != PlaceState.NOT_IN_LINE) {
            return known;
        }
        // the line lost this buyer (or never had them): a served buyer gets their place back used, not waiting; a
        // ticket replaced by a later join (its turn ran out) a place at the end, as a pre-queue ticket after the start
        // (before the start nobody bought or had a turn: the records are not asked)
        AskingPastPurchases.Known record = started ? purchases.known(activityId, buyerId)
                : AskingPastPurchases.Known.NOTHING;
        figures.placesRead(activityId);
        List<String> restoring = new java.util.ArrayList<>(args);
        if (!record.bought() && record.replaces(ticketPlace)) {
            restoring.set(3, "0");
        }
        restoring.add(record.bought() ? "1" : "0");
        return places.of(activityId, buyerId, calls.write(script, keys, restoring));
    }
}
