package seckill.drill.chaos;

import java.nio.file.Path;
import java.time.Duration;

/**
 * Options of {@code seckill.jar drill chaos}: {@code --seed S} (required), {@code --minutes M}
 * (decimal; {@code --seconds} for shorter runs), {@code --instances N}, {@code --history FILE},
 * {@code --resume-bound-seconds} (how soon after the heal every instance must sell again) and
 * {@code --settle-timeout-seconds} (how long to wait for quiescence before judging anyway) and
 * {@code --topology single|sentinel|cluster} (the Redis the run starts; {@link Topology}).
 */
public record ChaosOptions(long seed, Duration duration, int instances, Path history, Duration resumeBound,
                           Duration settleTimeout, Topology topology) {

    /** A run on a single Redis. */
    public ChaosOptions(long seed, Duration duration, int instances, Path history, Duration resumeBound,
                        Duration settleTimeout) {
        this(seed, duration, instances, history, resumeBound, settleTimeout, Topology.SINGLE);
    }

    public static final String USAGE = """
            Usage: seckill.jar drill chaos --seed S [--minutes M | --seconds S] [--instances N]
                   [--history FILE] [--resume-bound-seconds B] [--settle-timeout-seconds T]
                   [--topology single|sentinel|cluster]
            Starts N service instances as processes on loopback (each behind its own TCP proxy to the
            database) and the Redis topology (default single; sentinel: a master, two replicas, three
            Sentinels; cluster: three masters with a replica each) on free ports, runs buyers and faults drawn from the seed
            for M minutes, heals, waits for quiescence, reconciles, and judges the history (JSON lines,
            FILE, default chaos-<seed>.jsonl) with the checker. Exit 0: every promise held; 1: a violation;
            2: bad options. Stores: SECKILL_DB_URL/USER/PASSWORD, else an embedded MariaDB.""";

    public static ChaosOptions parse(String[] args) {
        Long seed = null;
        Duration duration = Duration.ofMinutes(1);
        int instances = 2;
        Path history = null;
        Duration bound = Duration.ofSeconds(60);
        Duration settle = Duration.ofSeconds(120);
        Topology topology = Topology.SINGLE;
        for (int i = 0; i < args.length; i++) {
            String name = args[i];
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(name + " needs a value");
            }
            String value = args[++i];
            try {
                switch (name) {
                    case "--seed" -> seed = Long.parseLong(value);
                    case "--minutes" -> duration = Duration.ofMillis(Math.round(Double.parseDouble(value) * 60_000));
                    case "--seconds" -> duration = Duration.ofSeconds(Long.parseLong(value));
                    case "--instances" -> instances = Integer.parseInt(value);
                    case "--history" -> history = Path.of(value);
                    case "--resume-bound-seconds" -> bound = Duration.ofSeconds(Long.parseLong(value));
                    case "--settle-timeout-seconds" -> settle = Duration.ofSeconds(Long.parseLong(value));
                    case "--topology" -> topology = Topology.parse(value);
                    default -> throw new IllegalArgumentException("unknown option " + name);
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(name + ": not a number: " + value);
            }
        }
        if (seed == null) {
            throw new IllegalArgumentException("--seed is required (the same seed draws the same schedule)");
        }
        if (instances < 1 || instances > 8) {
            throw new IllegalArgumentException("--instances must be 1..8");
        }
        if (duration.toSeconds() < 20) {
            throw new IllegalArgumentException("a run lasts at least 20 seconds (faults need room to overlap)");
        }
        return new ChaosOptions(seed, duration, instances,
                history == null ? Path.of("chaos-" + seed + ".jsonl") : history, bound, settle, topology);
    }
}
