package seckill.drill.api;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import picocli.CommandLine;
import seckill.drill.ramp.rules.Thresholds;

/**
 * Options of {@code seckill.jar drill rehearse} (the ramp), parsed by picocli from
 * {@link RampArguments}; unknown or malformed options are an error with the usage text. {@code url} is the first
 * of {@code urls} (the admin calls go there; the buyers are spread over all of them); {@code rehearsal}: a shadow
 * sale, its mark signed with the key in {@code edgeKeyFile}, purged at the end unless {@code keepRehearsal}.
 */
public record RampOptions(URI url, double targetRate, int steps, Duration stepLength, double startFraction,
                          Optional<Long> activity, int skus, int buckets, Optional<Long> stock, int maxInFlight,
                          Duration requestTimeout, List<URI> metrics, Optional<String> adminToken,
                          Optional<String> identityKey, Path report, Thresholds thresholds, List<URI> urls,
                          boolean rehearsal, Optional<Path> edgeKeyFile, boolean keepRehearsal) {

    /** The usage text picocli writes from {@link RampArguments}' annotations. */
    public static final String USAGE = new CommandLine(new RampArguments()).getUsageMessage(CommandLine.Help.Ansi.OFF);

    /** Parses with picocli; unknown, missing or out-of-range values are an {@link IllegalArgumentException}. */
    public static RampOptions parse(String[] args) {
        RampArguments arguments = new RampArguments();
        try {
            new CommandLine(arguments).parseArgs(args);
        } catch (CommandLine.ParameterException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        return arguments.options();
    }

    /**
     * The offered rate of each step: from {@code startFraction} x R up to 1.5 x R in equal increments
     * (one step alone is 1.5 x R).
     */
    public List<Double> rates() {
        List<Double> rates = new ArrayList<>();
        for (int i = 0; i < steps; i++) {
            double fraction = steps == 1 ? 1.5 : startFraction + (1.5 - startFraction) * i / (steps - 1);
            rates.add(targetRate * fraction);
        }
        return rates;
    }

    /** Requests the whole ramp sends at most. */
    public long plannedRequests() {
        return rates().stream().mapToLong(r -> (long) Math.ceil(r * stepLength.toMillis() / 1000.0)).sum();
    }
}
