package seckill.drill.switches;

import java.util.List;
import java.util.Optional;

/**
 * One hot switch a sale day relies on, as the switch drill flips it: its config key, the values it may
 * be flipped to (the first that differs from the value in force is taken) and the purchase answer that
 * shows the flip in behaviour, where a cheap one exists. {@link #HALT_ENDPOINT} is no key of the file
 * but the per-instance {@code POST /api/v1/admin/sales/halt|resume}.
 */
public record HotSwitch(String key, List<String> flips, Probe probe) {

    /** The pseudo key under which the report lists the admin halt/resume endpoints. */
    public static final String HALT_ENDPOINT = "POST /api/v1/admin/sales/halt|resume";

    /** The purchase answer a flip shows in behaviour. */
    public enum Probe {
        /** none cheap: only the effective value the instance shows is timed */
        NONE,
        /** {@code 503 HALTED} */
        HALTED,
        /** {@code 403 QUEUE_PASS_REQUIRED} */
        QUEUE_PASS,
        /** {@code 429 THROTTLED} with {@code limit} {@code GLOBAL} among a few quick purchases (global rate 1) */
        GLOBAL_RATE
    }

    /** Every switch the drill flips, in the order it flips them. */
    public static final List<HotSwitch> SALE_DAY = List.of(
            new HotSwitch("seckill.admission.halt", List.of("true"), Probe.HALTED),
            new HotSwitch(HALT_ENDPOINT, List.of("HALTED"), Probe.HALTED),
            new HotSwitch("seckill.admission.global-rate", List.of("1", "2"), Probe.GLOBAL_RATE),
            new HotSwitch("seckill.admission.buyer-rate", List.of("2", "3"), Probe.NONE),
            new HotSwitch("seckill.admission.sold-out-threshold", List.of("3", "4"), Probe.NONE),
            new HotSwitch("seckill.ordering.max-orders-per-second", List.of("5", "6"), Probe.NONE),
            new HotSwitch("seckill.queue.enabled", List.of("true", "false"), Probe.QUEUE_PASS),
            new HotSwitch("seckill.queue.rate", List.of("7", "8"), Probe.NONE));

    /** Whether this is the endpoint pair rather than a key of the switches file. */
    public boolean endpoint() {
        return key.equals(HALT_ENDPOINT);
    }

    /**
     * The value to flip to from {@code inForce}, or empty when the switch must not be flipped from there:
     * the halt switch already on (flipping it off would open sales the file halted).
     */
    public Optional<String> flipFrom(String inForce) {
        String now = inForce.strip();
        if (key.equals("seckill.admission.halt") && Boolean.parseBoolean(now)) {
            return Optional.empty();
        }
        return flips.stream().filter(v -> !v.equalsIgnoreCase(now)).findFirst();
    }

    /**
     * Whether the flip from {@code inForce} to {@code flipped} shows in the probe's answer: the halt and
     * the queue switched on, the global rate lowered to 1 from no cap or more.
     */
    public boolean probedFlip(String inForce, String flipped) {
        return switch (probe) {
            case NONE -> false;
            case HALTED -> true;
            case QUEUE_PASS -> flipped.equals("true");
            case GLOBAL_RATE -> flipped.equals("1");
        };
    }
}
