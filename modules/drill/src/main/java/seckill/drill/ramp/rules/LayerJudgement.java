package seckill.drill.ramp.rules;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Decides, from the figures of each step, which layers gave way in it and which gave first over the
 * whole ramp. Plain arithmetic on the figures; knows nothing of HTTP, Redis or SQL.
 */
public final class LayerJudgement {

    private final Thresholds bounds;

    public LayerJudgement(Thresholds bounds) {
        this.bounds = bounds;
    }

    /** The layers that gave way in one step, nearest the buyer first (shedding before saturating). */
    public List<Giving> gave(StepFigures step) {
        List<Giving> gave = new ArrayList<>();
        for (Layer layer : Layer.values()) {
            shed(step, layer).ifPresent(gave::add);
            saturated(step, layer).ifPresent(gave::add);
        }
        return gave;
    }

    /** The first step in which a layer gave way, and which; empty when none did up to the last step. */
    public Optional<FirstToGive> first(List<StepFigures> steps) {
        for (StepFigures step : steps) {
            List<Giving> gave = gave(step);
            if (!gave.isEmpty()) {
                return Optional.of(new FirstToGive(step.step(), step.offeredRate(), gave.getFirst(), gave));
            }
        }
        return Optional.empty();
    }

    private Optional<Giving> shed(StepFigures step, Layer layer) {
        long refused = step.refusedBy(layer);
        if (step.sent() == 0 || refused == 0) {
            return Optional.empty();
        }
        double percent = 100.0 * refused / step.sent();
        if (percent <= bounds.shedPercent()) {
            return Optional.empty();
        }
        return Optional.of(new Giving(layer, Giving.How.SHEDS, format("%d of %d requests refused (%.1f %% > %.1f %%)",
                refused, step.sent(), percent, bounds.shedPercent())));
    }

    private Optional<Giving> saturated(StepFigures step, Layer layer) {
        return switch (layer) {
            case EDGE, ADMISSION -> Optional.empty();
            case RESERVATION -> {
                if (step.reservedP99Millis() > bounds.p99Millis()) {
                    yield saturates(layer, "p99 of 202 answers %.1f ms > %.1f ms", step.reservedP99Millis(),
                            bounds.p99Millis());
                }
                if (step.scriptMicrosPerCall() > bounds.scriptMicros()) {
                    yield saturates(layer, "Redis script call %.0f µs on average > %.0f µs",
                            step.scriptMicrosPerCall(), bounds.scriptMicros());
                }
                yield Optional.empty();
            }
            case STREAM -> {
                if (step.backlogEnd() > bounds.backlogEntries()) {
                    yield saturates(layer, "stream backlog %d entries > %d", step.backlogEnd(), bounds.backlogEntries());
                }
                double floor = step.reservedPerSecond() * (1 - bounds.orderingShortfallPercent() / 100);
                if (step.reserved() >= bounds.minReservations() && step.ordersPerSecond() < floor) {
                    yield saturates(layer, "%.1f orders/s written for %.1f reservations/s (more than %.0f %% behind)",
                            step.ordersPerSecond(), step.reservedPerSecond(), bounds.orderingShortfallPercent());
                }
                yield Optional.empty();
            }
            case DATABASE -> step.databaseWaitMillis() > bounds.databaseWaitMillis()
                    ? saturates(layer, "ordering transaction %.1f ms on average > %.1f ms", step.databaseWaitMillis(),
                    bounds.databaseWaitMillis())
                    : Optional.empty();
        };
    }

    private static Optional<Giving> saturates(Layer layer, String evidence, Object... figures) {
        return Optional.of(new Giving(layer, Giving.How.SATURATES, format(evidence, figures)));
    }

    private static String format(String text, Object... figures) {
        return String.format(Locale.ROOT, text, figures);
    }
}
