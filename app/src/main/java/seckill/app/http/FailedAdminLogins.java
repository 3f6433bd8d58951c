package seckill.app.http;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Failed admin authentications counted in fixed windows, per client address and in total, and the
 * rule that refuses further tries: an address with {@code perAddress} failures in the window is
 * refused until the window ends; once the window holds {@code total} failures from everyone, every
 * address that failed at all in it is refused too (a guesser spread over many addresses gets one
 * try per address), while an address without a failure, the operator's, still gets its tries:
 * the backstop must not lock the operator out of the halt button. A success is never counted.
 * Plain Java; the caller passes the time.
 */
final class FailedAdminLogins {

    /** How many failures, over how long; {@code maxAddresses} bounds the memory a flood of addresses takes. */
    record Limits(int perAddress, int total, Duration window, int maxAddresses) {
        Limits {
            if (perAddress < 1 || total < 1 || window.isNegative() || window.isZero() || maxAddresses < 1) {
                throw new IllegalArgumentException("seckill.admin.auth.*: limits and window must be positive");
            }
        }
    }

    /** Why a try is refused before its token is looked at, and for how long. */
    record Refusal(String limit, long retryAfterSeconds) {
    }

    private final Limits limits;
    private final Map<String, Integer> failuresByAddress = new HashMap<>();
    private long windowStart = Long.MIN_VALUE;
    private int failures;

    FailedAdminLogins(Limits limits) {
        this.limits = limits;
    }

    /** Whether {@code address} may try a token now. */
    synchronized Optional<Refusal> refusal(String address, Instant now) {
        roll(now);
        int mine = failuresByAddress.getOrDefault(address, 0);
        if (mine >= limits.perAddress()) {
            return Optional.of(new Refusal("ADDRESS", retryAfter(now)));
        }
        boolean unknownWhenFull = mine == 0 && failuresByAddress.size() >= limits.maxAddresses();
        if (failures >= limits.total() && (mine > 0 || unknownWhenFull)) {
            return Optional.of(new Refusal("GLOBAL", retryAfter(now)));
        }
        return Optional.empty();
    }

    /** Records a failure of {@code address}; answers its failures in this window so far. */
    synchronized int failed(String address, Instant now) {
        roll(now);
        failures++;
        if (failuresByAddress.size() >= limits.maxAddresses() && !failuresByAddress.containsKey(address)) {
            // no room to remember it: it is counted in the total, which the backstop then applies to it
            return 1;
        }
        return failuresByAddress.merge(address, 1, Integer::sum);
    }

    private void roll(Instant now) {
        long windowMillis = limits.window().toMillis();
        long start = Math.floorDiv(now.toEpochMilli(), windowMillis) * windowMillis;
        if (start != windowStart) {
            windowStart = start;
            failures = 0;
            failuresByAddress.clear();
        }
    }

    private long retryAfter(Instant now) {
        long left = windowStart + limits.window().toMillis() - now.toEpochMilli();
        return Math.max(1, (left + 999) / 1000);
    }
}
