package seckill.drill.chaos;

import java.nio.file.Path;
import java.time.Duration;

/**
 * Options of {@code seckill.jar drill chaos}: {@code --seed S} (required), {@code --minutes M}
 * (decimal; {@code --seconds} for shorter runs), {@code --instances N}, {@code --history FILE},
 * {@code --resume-bound-seconds} (how soon after the heal every instance must sell again) and
 * {@code --settle-timeout-seconds} (how long to wait for quiescence before judging anyway) and
 * {@code --topology single|sentinel|cluster} (the Redis the run starts; {@link Topology}) and
 * {@code --buyer-ops-per-second R} (how hard the buyers click, {@link PlanShape#standard()}'s 15 unless
 * given; the soak's lever: a seed draws the same schedule at the same R).
 */
public record ChaosOptions(long seed, Duration duration, int instances, Path history, Duration resumeBound,
                           Duration settleTimeout, Topology topology, int buyerOpsPerSecond) {

    /** A run on a single Redis. */
    public ChaosOptions(long seed, Duration duration, int instances, Path history, Duration resumeBound,
                        Duration settleTimeout) {
        this(seed, duration, instances, history, resumeBound, settleTimeout, Topology.SINGLE);
    }

    /** A run at the standard buyers' pace. */
    public ChaosOptions(long seed, Duration duration, int instances, Path history, Duration resumeBound,
                        Duration settleTimeout, Topology topology) {
        this(seed, duration, instances, history, resumeBound, settleTimeout, topology,
                PlanShape.standard().buyerOpsPerSecond());
    }

    /** The schedule's shape at this run's pace: buyers grow with it, so each clicks as often as at 15 a second. */
    public PlanShape shape() {
        return PlanShape.standard().at(buyerOpsPerSecond);
    }

    public static final String USAGE = """
            Usage: seckill.jar drill chaos --seed S [--minutes M | --seconds S] [--instances N]
                   [--history FILE] [--resume-bound-seconds B] [--settle-timeout-seconds T]
                   [--topology single|sentinel|cluster] [--buyer-ops-per-second R]
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
        int pace = PlanShape.standard().buyerOpsPerSecond();
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
                    case "--buyer-ops-per-second" -> pace = Integer.parseInt(value);
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
        if (pace < 1 || pace > 5_000) {
            throw new IllegalArgumentException("--buyer-ops-per-second must be 1..5000");
        }
        if (duration.toSeconds() < 20) {
            throw new IllegalArgumentException("a run lasts at least 20 seconds (faults need room to overlap)");
        }
        return new ChaosOptions(seed, duration, instances,
                history == null ? Path.of("chaos-" + seed + ".jsonl") : history, bound, settle, topology, pace);
    }
}
