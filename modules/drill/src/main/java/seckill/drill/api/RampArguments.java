package seckill.drill.api;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import seckill.drill.ramp.rules.Thresholds;
import seckill.redis.World;

/**
 * {@code drill rehearse}'s command line as picocli reads it; ranges picocli cannot express are
 * checked in {@link #options()}.
 */
@Command(name = "java -jar seckill.jar drill rehearse", sortOptions = false, usageHelpWidth = 110,
        footer = {"Ramps the purchase load from --start-fraction x R to 1.5 x R in --steps steps and names the first "
                + "layer to shed or saturate. Redis is read (INFO, SLOWLOG, LATENCY; never written) at "
                + "seckill.redis.uri, the ledger at seckill.db.url when set (with --rehearsal: at seckill.rehearsal.db.url, "
                + "the shadow database)."})
final class RampArguments {

    @Option(names = "--url", required = true, paramLabel = "URL", description = "the deployment (its edge or an instance); "
            + "repeat for each instance to spread the buyers over them, one after the other (the first is asked the "
            + "admin calls)")
    List<String> url = new ArrayList<>();

    @Option(names = "--target-rate", required = true, paramLabel = "R",
            description = "the sale's target purchase rate, requests per second; the ramp ends at 1.5 R")
    double targetRate;

    @Option(names = "--steps", paramLabel = "N", description = "steps of the ramp (default ${DEFAULT-VALUE})")
    int steps = 6;

    @Option(names = "--step-seconds", paramLabel = "S", description = "length of a step (default ${DEFAULT-VALUE})")
    double stepSeconds = 30;

    @Option(names = "--start-fraction", paramLabel = "F",
            description = "the first step's rate as a share of R, 0 < F <= 1.5 (default ${DEFAULT-VALUE})")
    double startFraction = 0.25;

    @Option(names = "--activity", paramLabel = "ID", description = "buy in this open activity instead of creating one "
            + "(with --rehearsal: a rehearsal's, launched already; it is not purged)")
    Long activity;

    @Option(names = "--rehearsal", description = "a shadow sale (docs/rehearsal.md): the activity is launched with "
            + "\"rehearsal\": true, every buyer request carries the edge's signed mark, and the rehearsal is purged "
            + "(DELETE) at the end; a deployment that refuses rehearsals (501) stops the ramp with exit code 3, nothing "
            + "created")
    boolean rehearsal;

    @Option(names = "--edge-key-file", paramLabel = "FILE",
            description = "with --rehearsal: a file holding the edge's rehearsal key (seckill.rehearsal.edge-key), "
                    + "which signs the mark")
    Path edgeKeyFile;

    @Option(names = "--keep-rehearsal", description = "with --rehearsal: leave the launched rehearsal in place "
            + "(purge it later with DELETE /api/v1/admin/activities/{id})")
    boolean keepRehearsal;

    @Option(names = "--skus", paramLabel = "N", description = "SKUs of the created activity (default ${DEFAULT-VALUE})")
    int skus = 1;

    @Option(names = "--buckets", paramLabel = "N", description = "stock buckets per SKU, 1..64 (default ${DEFAULT-VALUE})")
    int buckets = 1;

    @Option(names = "--stock", paramLabel = "N",
            description = "units per SKU of the created activity (default: one for every request the ramp sends)")
    Long stock;

    @Option(names = "--max-in-flight", paramLabel = "N",
            description = "requests the ramp keeps open at once; beyond it a request is skipped and counted "
                    + "(default ${DEFAULT-VALUE})")
    int maxInFlight = 2_000;

    @Option(names = "--request-timeout", paramLabel = "SECONDS",
            description = "a request unanswered this long counts as no answer (default ${DEFAULT-VALUE})")
    int requestTimeoutSeconds = 10;

    @Option(names = "--metrics", paramLabel = "URL", description = "an instance's /metrics (management port); "
            + "repeat for each instance. Without it the stream figures come from the admin overview and the "
            + "database wait is unknown")
    List<URI> metrics = new ArrayList<>();

    @Option(names = "--admin-token", paramLabel = "TOKEN",
            description = "admin token of the service (default: seckill.admin.token, or the dev token)")
    String adminToken;

    @Option(names = "--identity-key", paramLabel = "ID=KEY",
            description = "HMAC key the buyers' bearer tokens are signed with (default: the first of "
                    + "seckill.identity.hmac-keys, in dev mode the dev key)")
    String identityKey;

    @Option(names = "--report", paramLabel = "DIR",
            description = "where ramp.json, ramp.txt and ramp.svg are written (default ${DEFAULT-VALUE})")
    Path report = Path.of("ramp-report");

    @Option(names = "--shed-percent", paramLabel = "P",
            description = "a layer sheds when its refusals exceed P %% of a step's requests (default ${DEFAULT-VALUE})")
    double shedPercent = Thresholds.DEFAULTS.shedPercent();

    @Option(names = "--p99-bound-ms", paramLabel = "MS",
            description = "the reservation path saturates when the p99 of its 202 answers exceeds this (default ${DEFAULT-VALUE})")
    double p99Millis = Thresholds.DEFAULTS.p99Millis();

    @Option(names = "--script-bound-micros", paramLabel = "US",
            description = "... or the mean Redis script call exceeds this (default ${DEFAULT-VALUE})")
    double scriptMicros = Thresholds.DEFAULTS.scriptMicros();

    @Option(names = "--backlog-bound", paramLabel = "N",
            description = "the stream saturates when its backlog at a step's end exceeds N entries (default ${DEFAULT-VALUE})")
    long backlogEntries = Thresholds.DEFAULTS.backlogEntries();

    @Option(names = "--ordering-shortfall-percent", paramLabel = "P",
            description = "... or orders are written more than P %% slower than reservations are made (default ${DEFAULT-VALUE})")
    double orderingShortfallPercent = Thresholds.DEFAULTS.orderingShortfallPercent();

    @Option(names = "--min-reservations", paramLabel = "N",
            description = "... judged only over steps with at least N reservations (default ${DEFAULT-VALUE})")
    long minReservations = Thresholds.DEFAULTS.minReservations();

    @Option(names = "--db-wait-bound-ms", paramLabel = "MS",
            description = "the database saturates when the mean ordering transaction exceeds this (default ${DEFAULT-VALUE})")
    double databaseWaitMillis = Thresholds.DEFAULTS.databaseWaitMillis();

    RampOptions options() {
        if (!(targetRate > 0)) {
            throw new IllegalArgumentException("--target-rate must be a positive number, got " + targetRate);
        }
        if (steps <= 0 || skus <= 0 || buckets <= 0 || maxInFlight <= 0 || requestTimeoutSeconds <= 0) {
            throw new IllegalArgumentException("--steps, --skus, --buckets, --max-in-flight and --request-timeout must "
                    + "be positive");
        }
        if (buckets > 64) {
            throw new IllegalArgumentException("--buckets must be at most 64, got " + buckets);
        }
        if (!(stepSeconds > 0)) {
            throw new IllegalArgumentException("--step-seconds must be a positive number, got " + stepSeconds);
        }
        if (!(startFraction > 0 && startFraction <= 1.5)) {
            throw new IllegalArgumentException("--start-fraction must be above 0 and at most 1.5, got " + startFraction);
        }
        if (stock != null && stock <= 0) {
            throw new IllegalArgumentException("--stock must be positive, got " + stock);
        }
        if (shedPercent < 0 || p99Millis < 0 || scriptMicros < 0 || backlogEntries < 0 || orderingShortfallPercent < 0
                || orderingShortfallPercent > 100 || minReservations < 0 || databaseWaitMillis < 0) {
            throw new IllegalArgumentException("thresholds must not be negative (a percentage at most 100)");
        }
        if (rehearsal && edgeKeyFile == null) {
            throw new IllegalArgumentException("--rehearsal needs --edge-key-file FILE (the edge's key signs every "
                    + "buyer request's mark)");
        }
        if (!rehearsal && (edgeKeyFile != null || keepRehearsal)) {
            throw new IllegalArgumentException("--edge-key-file and --keep-rehearsal go with --rehearsal");
        }
        if (activity != null && (World.of(activity) == World.REHEARSAL) != rehearsal) {
            throw new IllegalArgumentException(rehearsal
                    ? "--activity " + activity + " is a real activity: a rehearsal's id is " + World.REHEARSAL_IDS_FROM
                    + " or above, and the service refuses the edge's mark on a real one"
                    : "--activity " + activity + " is a rehearsal's: give --rehearsal and --edge-key-file");
        }
        List<URI> urls = url.stream().map(URI::create).toList();
        return new RampOptions(urls.getFirst(), targetRate, steps, Duration.ofMillis(Math.round(stepSeconds * 1000)),
                startFraction, Optional.ofNullable(activity), skus, buckets, Optional.ofNullable(stock), maxInFlight,
                Duration.ofSeconds(requestTimeoutSeconds), List.copyOf(metrics), Optional.ofNullable(adminToken),
                Optional.ofNullable(identityKey), report, new Thresholds(shedPercent, p99Millis, scriptMicros,
                backlogEntries, orderingShortfallPercent, minReservations, databaseWaitMillis), urls, rehearsal,
                Optional.ofNullable(edgeKeyFile), keepRehearsal);
    }
}
