package seckill.drill.ramp.rules;

import java.util.Map;

/**
 * What one step of the ramp measured, as far as the judgement needs it. A figure that could not be
 * read is {@code NaN} (or {@code -1} for the backlog) and judges nothing.
 *
 * @param step              1-based
 * @param offeredRate       the rate the ramp offered in this step, requests per second
 * @param sent              requests sent (every one answered, or counted as no answer)
 * @param refused           refusals per layer ({@link Answer#layer()})
 * @param reservedP99Millis p99 latency of the step's 202 answers
 * @param scriptMicrosPerCall mean {@code EVALSHA} time on Redis during the step ({@code INFO commandstats})
 * @param backlogEnd        stream entries recorded and not yet settled at the step's end
 * @param reserved          202 answers in the step
 * @param reservedPerSecond reservations per second
 * @param ordersPerSecond   orders written per second during the step
 * @param databaseWaitMillis mean ordering batch transaction during the step
 */
public record StepFigures(int step, double offeredRate, long sent, Map<Layer, Long> refused, double reservedP99Millis,
                          double scriptMicrosPerCall, long backlogEnd, long reserved, double reservedPerSecond,
                          double ordersPerSecond, double databaseWaitMillis) {

    public StepFigures {
        refused = Map.copyOf(refused);
    }

    public long refusedBy(Layer layer) {
        return refused.getOrDefault(layer, 0L);
    }
}
