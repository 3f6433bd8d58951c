package seckill.drill.ramp.rules;

import java.util.List;

/**
 * The ramp's finding: the first step in which any layer gave way, the layer named (the nearest the
 * buyer among those that gave in that step) and every layer that gave in that step.
 */
public record FirstToGive(int step, double offeredRate, Giving named, List<Giving> all) {

    public FirstToGive {
        all = List.copyOf(all);
    }

    public Layer layer() {
        return named.layer();
    }

    /** One sentence for the report. */
    public String sentence() {
        return String.format(java.util.Locale.ROOT, "%s %s first, at %.1f req/s offered (step %d): %s",
                named.layer().jsonName(), named.how().word(), offeredRate, step, named.evidence());
    }
}
