package seckill.drill.api;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import picocli.CommandLine;

/**
 * Options of {@code seckill.jar drill}, parsed by picocli from {@link DrillArguments}; unknown or
 * malformed options are an error with the usage text, never silently ignored.
 */
public record DrillOptions(Optional<String> url, int buyers, long stock, int skus, int concurrency, int clicks,
                           int perUserLimit, Duration duration, Duration settleTimeout, Optional<String> adminToken,
                           Optional<Path> json, Optional<String> fault, int paymentWindowSeconds,
                           Optional<Double> payRatio, Optional<String> paymentKey, int buckets,
                           Duration faultLength, Optional<String> identityKey) {

    /** The usage text picocli writes from {@link DrillArguments}' annotations. */
    public static final String USAGE = new CommandLine(new DrillArguments()).getUsageMessage(CommandLine.Help.Ansi.OFF);

    /** The faults a drill can inject. */
    public static final List<String> FAULTS = List.of("restart-workers", "redis-pause", "db-stall", "db-down",
            "redis-failover");

    /** Parses with picocli; unknown, missing or out-of-range values are an {@link IllegalArgumentException}. */
    public static DrillOptions parse(String[] args) {
        DrillArguments arguments = new DrillArguments();
        try {
            new CommandLine(arguments).parseArgs(args);
        } catch (CommandLine.ParameterException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        return arguments.options();
    }
}
