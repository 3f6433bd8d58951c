package seckill.app.identity;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Optional;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import seckill.redis.World;

/**
 * The edge's signed mark of rehearsal traffic (issue #34, docs/rehearsal.md "The edge's signed mark"): the
 * header {@code X-Seckill-Rehearsal: a=<activityId>,t=<epoch seconds>,v1=<hex HMAC-SHA256 of
 * "rehearsal.<activityId>.<buyer>.<t>">} under the edge's key {@code seckill.rehearsal.edge-key} (not the
 * gateway's), {@code t} within the window of now. A buyer cannot make its traffic a rehearsal's, nor reach
 * a rehearsal's activity, without it; and a request for a real activity that carries any mark is refused,
 * so a rehearsal can never reach a real activity's stock (whose keys come from the real id). Built in the
 * same way as {@link GatewaySignatures}; not yet asked by any route (rehearsals answer {@code 501} until
 * their path is kept apart end to end).
 */
public final class RehearsalMarks {

    /** The header the edge writes (and strips from clients). */
    public static final String HEADER = "X-Seckill-Rehearsal";

    /** What a request may do with the activity it names. */
    public enum Verdict {
        /** A real activity and no mark: the real path, as always. */
        REAL,
        /** A rehearsal's activity with a valid mark for it and this buyer: the rehearsal's path. */
        REHEARSAL,
        /** A rehearsal's activity without a valid mark: answered as if it did not exist ({@code 404}). */
        HIDDEN,
        /** A real activity with a mark, valid or not: refused ({@code 403}), nothing read or written. */
        MARK_ON_REAL
    }

    private static final int MIN_KEY_LENGTH = 32;

    private final SecretKeySpec key;
    private final Duration window;
    private final Clock clock;

    /** {@code key} empty: no rehearsal is ever reachable (every rehearsal activity is {@link Verdict#HIDDEN}). */
    public RehearsalMarks(Optional<String> key, Duration window, Clock clock) {
        key.ifPresent(k -> {
            if (k.length() < MIN_KEY_LENGTH) {
                throw new IllegalArgumentException("seckill.rehearsal.edge-key must be at least " + MIN_KEY_LENGTH
                        + " characters");
            }
        });
        this.key = key.map(k -> new SecretKeySpec(k.getBytes(StandardCharsets.UTF_8), "HmacSHA256")).orElse(null);
        this.window = window;
        this.clock = clock;
    }

    /** Judges a request of {@code buyer} (already verified, 0 for nobody) naming {@code activityId}. */
    public Verdict judge(long activityId, long buyer, String mark) {
        boolean marked = mark != null && !mark.isEmpty();
        if (World.of(activityId) == World.REAL) {
            return marked ? Verdict.MARK_ON_REAL : Verdict.REAL;
        }
        return marked && valid(activityId, buyer, mark) ? Verdict.REHEARSAL : Verdict.HIDDEN;
    }

    private boolean valid(long activityId, long buyer, String mark) {
        if (key == null || buyer <= 0 || mark.length() > 200) {
            return false;
        }
        long a = 0;
        long t = 0;
        byte[] offered = null;
        for (String part : mark.split(",")) {
            String p = part.trim();
            if (p.startsWith("a=")) {
                a = BearerTokens.buyerId(p.substring(2));
            } else if (p.startsWith("t=")) {
                t = BearerTokens.buyerId(p.substring(2));
            } else if (p.startsWith("v1=") && p.length() == 3 + 64) {
                try {
                    offered = HexFormat.of().parseHex(p, 3, p.length());
                } catch (IllegalArgumentException e) {
                    return false;
                }
            }
        }
        if (a != activityId || t <= 0 || offered == null || Math.abs(clock.millis() / 1000 - t) > window.toSeconds()) {
            return false;
        }
        return MessageDigest.isEqual(offered, sign(activityId, buyer, t));
    }

    /** The edge's mark of this buyer's request for this rehearsal at this second (for an edge in Java, and the tests). */
    public String markOf(long activityId, long buyer, long epochSeconds) {
        if (key == null) {
            throw new IllegalStateException("no seckill.rehearsal.edge-key configured");
        }
        return "a=" + activityId + ",t=" + epochSeconds + ",v1=" + HexFormat.of().formatHex(sign(activityId, buyer, epochSeconds));
    }

    private byte[] sign(long activityId, long buyer, long t) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            return mac.doFinal(("rehearsal." + activityId + "." + buyer + "." + t).getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
