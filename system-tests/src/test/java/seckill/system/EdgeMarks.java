package seckill.system;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.HexFormat;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The edge's signed rehearsal mark (issue #34, docs/rehearsal.md "The edge's signed mark"), made here as an edge
 * would: {@code a=<activity>,t=<epoch seconds>,v1=<hex HMAC-SHA256 of "rehearsal.<activity>.<buyer>.<t>">} under
 * {@link #KEY}, the {@code seckill.rehearsal.edge-key} the tests give the instances.
 */
public final class EdgeMarks {

    /** The header the edge sets. */
    public static final String HEADER = "X-Seckill-Rehearsal";
    /** The edge's key for the rehearsal mark (not the gateway's, not the identity's). */
    public static final String KEY = "test-rehearsal-edge-key-of-32-characters";

    private EdgeMarks() {
    }

    /** The mark of {@code buyer}'s request naming {@code activity}, made at {@code epochSeconds}. */
    public static String mark(long activity, long buyer, long epochSeconds) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(KEY.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            byte[] signature = mac.doFinal(("rehearsal." + activity + "." + buyer + "." + epochSeconds)
                    .getBytes(StandardCharsets.UTF_8));
            return "a=" + activity + ",t=" + epochSeconds + ",v1=" + HexFormat.of().formatHex(signature);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
