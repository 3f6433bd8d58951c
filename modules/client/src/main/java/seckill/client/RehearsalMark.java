package seckill.client;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Signs the edge's mark of a rehearsal's traffic (issue #34, docs/rehearsal.md "The edge's signed mark"): the
 * header {@code X-Seckill-Rehearsal: a=<activityId>,t=<epoch seconds>,v1=<hex HMAC-SHA256 of
 * "rehearsal.<activityId>.<buyer>.<t>">} under the edge's key ({@code seckill.rehearsal.edge-key}, 32+
 * characters; not the gateway's). The service takes a request naming a rehearsal only with a valid mark for that
 * activity and that (already verified) buyer, {@code t} within its window of now; so sign each request when it is
 * sent. What an edge in Java, the drill's rehearsals ({@code drill rehearse --rehearsal}) and
 * {@link SeckillClients#rehearsalBuyers} use.
 */
public final class RehearsalMark {

    /** The header the edge writes (and strips from what clients send). */
    public static final String HEADER = "X-Seckill-Rehearsal";

    private static final int MIN_KEY_LENGTH = 32;
    /** The activity a buyer's request names: in its path, or as a reservation id's first part. */
    private static final Pattern ACTIVITY = Pattern.compile("/api/v1/(?:activities/|reservations/)(\\d+)(?:[-/?]|$)");

    private final SecretKeySpec key;

    /** A signer with the edge's key; shorter than 32 characters is refused, as the service refuses it. */
    public RehearsalMark(String edgeKey) {
        if (edgeKey == null || edgeKey.length() < MIN_KEY_LENGTH) {
            throw new IllegalArgumentException("the edge's rehearsal key must be at least " + MIN_KEY_LENGTH
                    + " characters (seckill.rehearsal.edge-key)");
        }
        this.key = new SecretKeySpec(edgeKey.getBytes(StandardCharsets.UTF_8), "HmacSHA256");
    }

    /** The header's value for {@code buyer}'s request naming {@code activityId}, sent at {@code at}. */
    public String sign(long activityId, long buyer, Instant at) {
        long t = at.getEpochSecond();
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            byte[] signature = mac.doFinal(("rehearsal." + activityId + "." + buyer + "." + t)
                    .getBytes(StandardCharsets.UTF_8));
            return "a=" + activityId + ",t=" + t + ",v1=" + HexFormat.of().formatHex(signature);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 unavailable", e);
        }
    }

    /**
     * The activity a buyer's request to {@code path} names ({@code /api/v1/activities/<id>/…}, or
     * {@code /api/v1/reservations/<id>-…}, whose first part is its activity); empty for a path naming none.
     */
    public static Optional<Long> activityOf(String path) {
        Matcher m = ACTIVITY.matcher(path);
        if (!m.find()) {
            return Optional.empty();
        }
        try {
            return Optional.of(Long.parseLong(m.group(1)));
        } catch (NumberFormatException tooLong) {
            return Optional.empty();
        }
    }
}
