package seckill.queue;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

import seckill.queue.api.Pass;
import seckill.queue.api.Place;
import seckill.queue.api.PlaceState;
import seckill.queue.rules.Position;
import seckill.queue.rules.WaitEstimate;
import seckill.redis.RedisScript;

/**
 * Turns line.lua's description of a buyer ({state, place, ahead, pass expiry, called, waiting}) into a
 * {@link Place}: the position, the wait estimate (ahead ÷ the rate, corrected by the rate measured), the
 * signed ticket and, on the buyer's turn, the signed pass.
 */
final class Places {

    private final PassSigner signer;
    private final QueueSwitches switches;
    private final LineFigures figures;

    Places(PassSigner signer, QueueSwitches switches, LineFigures figures) {
        this.signer = signer;
        this.switches = switches;
        this.figures = figures;
    }

    Place of(long activityId, long buyerId, Object reply) {
        List<?> parts = (List<?>) reply;
        PlaceState state = PlaceState.valueOf(RedisScript.text(parts.get(0)));
        long place = number(parts.get(1));
        long ahead = number(parts.get(2));
        long expiry = Long.parseLong(RedisScript.text(parts.get(3)));
        long called = number(parts.get(4));
        long waiting = number(parts.get(5));
        boolean inLine = state == PlaceState.WAITING || (state == PlaceState.SOLD_OUT && place > 0);
        long position = inLine ? Position.of(ahead) : 0;
        long wait = switch (state) {
            case WAITING -> WaitEstimate.seconds(position, switches.rate(), figures.measuredRate(activityId));
            case YOUR_TURN, USED -> 0;
            default -> WaitEstimate.UNKNOWN;
        };
        String ticket = state == PlaceState.NOT_IN_LINE || (state == PlaceState.SOLD_OUT && place == 0)
                ? null : signer.ticket(activityId, buyerId, place);
        Optional<Pass> pass = state == PlaceState.YOUR_TURN
                ? Optional.of(new Pass(signer.pass(activityId, buyerId, place, expiry), Instant.ofEpochMilli(expiry)))
                : Optional.empty();
        return new Place(activityId, buyerId, state, place, position, wait, waiting, called, ticket, pass);
    }

    private static long number(Object reply) {
        return reply instanceof Number n ? n.longValue() : Long.parseLong(RedisScript.text(reply));
    }
}
