package seckill.drill.chaos;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

import redis.clients.jedis.Jedis;
import seckill.drill.api.TcpProxy;
import seckill.chaos.api.FaultKind;
import seckill.chaos.api.HistoryEntry;
import seckill.chaos.api.HistoryWriter;
import seckill.reservation.api.KeysAtRisk;

/**
 * Injects a run's faults from outside the service: signals to an instance's PID, cuts through its
 * proxies, {@code CLIENT PAUSE} on the run's own Redis; on a topology with replicas
 * ({@link ReplicatedRedis}) also signals to a Redis node's PID ({@code MASTER_KILL},
 * {@code REPLICA_FREEZE}) and the pause of every master. Faults overlap; a cut or a freeze that two
 * faults share is undone only when the last of them ends. Master kills take turns: the next waits
 * until the topology is whole again, so no shard ever loses both its copies (the run keeps nothing
 * on disk; losing both is outside what any topology promises). {@link #healAll()} undoes whatever is
 * still in effect and starts any instance that is down.
 */
final class FaultInjector {

    /**
     * Fault kinds drawn but not injected ({@code -Dseckill.chaos.skip=CLOCK_MOVE,...}): for a known,
     * open finding that would otherwise fail every run of a seed until it is fixed (docs/chaos.md says
     * which, and why). Empty by default.
     */
    private static final java.util.Set<String> SKIPPED = java.util.Arrays.stream(
            System.getProperty("seckill.chaos.skip", "").split(","))
            .map(String::trim)
            .filter(kind -> !kind.isBlank()).collect(java.util.stream.Collectors.toUnmodifiableSet());

    private final List<ServiceProcess> instances;
    private final List<TcpProxy> databaseProxies;
    private final List<TcpProxy> redisProxies;
    private final int redisPort;
    private final HistoryWriter history;
    private final Clock clock;
    private final LongSupplier nanos;
    private final Map<Object, Integer> holds = new ConcurrentHashMap<>();
    private final ReplicatedRedis nodes;
    private final Object masterKills = new Object();
    private final Object memoryLimit = new Object();
    private volatile long activity;
    private volatile Map<Long, Integer> buckets = Map.of();
    private volatile java.util.function.Supplier<String> preheat = () -> "";

    private static final String QUIET_BUCKET_LOSS = String.join("\n",
            "-- KEYS[1] the bucket's stream, KEYS[1..] every key of the bucket (one hash tag). Deletes them only",
            "-- when every entry of the stream was delivered to every group and acknowledged: the ledger holds",
            "-- every reservation, so the bucket can be put back from it.",
            "if redis.call('EXISTS', KEYS[1]) == 0 then return 'absent' end",
            "local last = nil",
            "local info = redis.call('XINFO', 'STREAM', KEYS[1])",
            "for i = 1, #info, 2 do if info[i] == 'last-generated-id' then last = info[i + 1] end end",
            "for _, g in ipairs(redis.call('XINFO', 'GROUPS', KEYS[1])) do",
            "  local pending, delivered",
            "  for i = 1, #g, 2 do",
            "    if g[i] == 'pending' then pending = g[i + 1] end",
            "    if g[i] == 'last-delivered-id' then delivered = g[i + 1] end",
            "  end",
            "  if pending ~= 0 or delivered ~= last then return 'busy' end",
            "end",
            "return 'deleted ' .. redis.call('DEL', unpack(KEYS))");

    FaultInjector(List<ServiceProcess> instances, List<TcpProxy> databaseProxies, List<TcpProxy> redisProxies,
                  int redisPort, HistoryWriter history, Clock clock, LongSupplier nanos) {
        this(instances, databaseProxies, redisProxies, redisPort, null, history, clock, nanos);
    }

    /** On a topology with replicas: {@code nodes} takes the Redis faults, there are no Redis proxies. */
    FaultInjector(List<ServiceProcess> instances, List<TcpProxy> databaseProxies, List<TcpProxy> redisProxies,
                  int redisPort, ReplicatedRedis nodes, HistoryWriter history, Clock clock, LongSupplier nanos) {
        this.nodes = nodes;
        this.instances = instances;
        this.databaseProxies = databaseProxies;
        this.redisProxies = redisProxies;
        this.redisPort = redisPort;
        this.history = history;
        this.clock = clock;
        this.nanos = nanos;
    }

    /**
     * The run's activity (whose buckets a {@code KEY_LOSS} deletes) and the operator's preheat that puts
     * lost buckets back from the ledger (what it answered, for the fault's target).
     */
    void activity(long activityId, Map<Long, Integer> bucketsBySku, java.util.function.Supplier<String> preheating) {
        this.activity = activityId;
        this.buckets = bucketsBySku;
        this.preheat = preheating;
    }

    /** Runs one fault for its length, on the calling thread, and writes it to the history once it ended. */
    void inject(Step step) {
        if (SKIPPED.contains(step.kind().name())) {
            // drawn as always (the schedule and every other step stay the seed's), not injected; said in the history
            long at = nanos.getAsLong();
            history.write(new HistoryEntry.FaultEvent(step.index(), FaultKind.valueOf(step.kind().name()),
                    "skipped (seckill.chaos.skip): " + step.describe(), at, clock.instant().toString(), at,
                    clock.instant().toString()));
            return;
        }
        if (step.kind() == Step.Kind.CLOCK_MOVE) {
            moveClock(step);
            return;
        }
        if (step.kind() == Step.Kind.KEY_LOSS || step.kind() == Step.Kind.EVICTION) {
            injectOnRedisData(step);
            return;
        }
        if (step.kind() == Step.Kind.MASTER_KILL || step.kind() == Step.Kind.REPLICA_FREEZE) {
            injectOnNode(step);
            return;
        }
        long start = nanos.getAsLong();
        String startWall = clock.instant().toString();
        FaultKind kind = FaultKind.valueOf(step.kind().name());
        String target = step.instance() < 0 ? "redis" : "instance " + step.instance();
        switch (kind) {
            case KILL -> instances.get(step.instance()).kill();
            case PAUSE_PROCESS -> hold(instances.get(step.instance()), () -> instances.get(step.instance()).freeze());
            case DB_CUT -> hold(databaseProxies.get(step.instance()), databaseProxies.get(step.instance())::cut);
            case REDIS_CUT -> hold(redisProxies.get(step.instance()), redisProxies.get(step.instance())::cut);
            case REDIS_PAUSE -> {
                if (nodes == null) {
                    redis("CLIENT", "PAUSE", Long.toString(step.lengthMillis()), "ALL");
                } else {
                    target = "redis masters " + nodes.pauseMasters(step.lengthMillis());
                }
            }
            case MASTER_KILL, REPLICA_FREEZE, KEY_LOSS, EVICTION, CLOCK_MOVE ->
                    throw new IllegalStateException("not an instance fault: " + step);
        }
        sleep(Duration.ofMillis(step.lengthMillis()));
        switch (kind) {
            case KILL -> instances.get(step.instance()).start();
            case PAUSE_PROCESS -> release(instances.get(step.instance()), () -> instances.get(step.instance()).thaw());
            case DB_CUT -> release(databaseProxies.get(step.instance()), databaseProxies.get(step.instance())::restore);
            case REDIS_CUT -> release(redisProxies.get(step.instance()), redisProxies.get(step.instance())::restore);
            case REDIS_PAUSE -> {
                // CLIENT PAUSE lifts itself after its length; nothing to undo
            }
            case MASTER_KILL, REPLICA_FREEZE, KEY_LOSS, EVICTION, CLOCK_MOVE ->
                    throw new IllegalStateException("not an instance fault: " + step);
        }
        history.write(new HistoryEntry.FaultEvent(step.index(), kind, target, start, startWall, nanos.getAsLong(),
                clock.instant().toString()));
    }

    /**
     * {@code CLOCK_MOVE}: the instance's wall clock moved by the step's offset (its faketime file rewritten;
     * the running JVM sees it within a second, no restart), held for the step's length, then put back
     * (when the last of overlapping moves of that instance ends; a later move's offset replaces an earlier
     * one's). The target says when the instance's host clock showed the move (its {@code Date} header) while
     * its own {@code serverTime}, the ledger database's time, did not, and when the real time was back, e.g.
     * {@code instance 1: clock +120 s (moved: host clock seen after 812 ms (Date +120 s); the service keeps the
     * ledger's time (serverTime +4 ms); put back: seen after 40 ms (serverTime -12 ms))}: see {@link #awaitClock}.
     */
    private void moveClock(Step step) {
        ServiceProcess instance = instances.get(step.instance());
        long offsetSeconds = Long.parseLong(step.variant().replace("+", ""));
        long start = nanos.getAsLong();
        String startWall = clock.instant().toString();
        hold("clock " + step.instance(), () -> { });
        instance.moveClock(step.variant());
        String seen = awaitClock(instance, offsetSeconds);
        sleep(Duration.ofMillis(step.lengthMillis()));
        String back = "still moved (an overlapping move of this instance goes on)";
        Integer left = holds.computeIfPresent("clock " + step.instance(), (t, n) -> n <= 1 ? null : n - 1);
        if (left == null) {
            instance.restoreClock();
            back = awaitClock(instance, 0);
        }
        history.write(new HistoryEntry.FaultEvent(step.index(), FaultKind.CLOCK_MOVE, "instance " + step.instance()
                + ": clock " + step.variant() + " s (moved: " + seen + "; put back: " + back + ")", start, startWall,
                nanos.getAsLong(), clock.instant().toString()));
    }

    /**
     * Waits (at most 5 s) until the instance's own clock, as it states it ({@code serverTime} of
     * {@code GET /api/v1/activities/{id}}: the service's injected clock), is {@code offsetSeconds} away
     * from the runner's (within 2 s: libfaketime reads its file once a second), or, for a move, until its
     * host's clock is: the {@code Date} header (Helidon's, on the host's wall clock) that far off while
     * {@code serverTime} is not. The service's clock is the ledger database's, so a move is expected to show
     * in the header only: {@code host clock seen after 1200 ms (Date +126 s); the service keeps the ledger's
     * time (serverTime +4 ms)}. Helidon caches the header and, after a backward jump, leaves it where the
     * moved clock was, so a move back is not seen in it: {@code not seen within 5 s (the service keeps the
     * ledger's time), last serverTime …}.
     */
    private String awaitClock(ServiceProcess instance, long offsetSeconds) {
        long begin = nanos.getAsLong();
        var http = java.net.http.HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
        java.util.regex.Pattern serverTime = java.util.regex.Pattern.compile("\"serverTime\"\\s*:\\s*\"([^\"]+)\"");
        String last = "no answer";
        String host = null;
        boolean keptLedgerTime = false;
        while (nanos.getAsLong() - begin < Duration.ofSeconds(5).toNanos()) {
            try {
                var response = http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(
                                "http://127.0.0.1:" + instance.port() + "/api/v1/activities/" + activity))
                        .timeout(Duration.ofSeconds(1)).build(), java.net.http.HttpResponse.BodyHandlers.ofString());
                java.util.regex.Matcher m = serverTime.matcher(response.body());
                if (m.find()) {
                    long skewMillis = java.time.Instant.parse(m.group(1)).toEpochMilli() - clock.millis();
                    last = "serverTime " + (skewMillis >= 0 ? "+" : "") + skewMillis + " ms";
                    keptLedgerTime = Math.abs(skewMillis) <= 2_000;
                    if (Math.abs(skewMillis - offsetSeconds * 1000) <= 2_000) {
                        return "seen after " + (nanos.getAsLong() - begin) / 1_000_000 + " ms (" + last + ")";
                    }
                    Optional<Long> hostSkew = response.headers().firstValue("Date").flatMap(this::dateSkewSeconds);
                    if (hostSkew.isPresent()) {
                        host = "Date " + (hostSkew.get() >= 0 ? "+" : "") + hostSkew.get() + " s";
                        if (offsetSeconds != 0 && keptLedgerTime && Math.abs(hostSkew.get() - offsetSeconds) <= 2) {
                            return "host clock seen after " + (nanos.getAsLong() - begin) / 1_000_000 + " ms (" + host
                                    + "); the service keeps the ledger's time (" + last + ")";
                        }
                    }
                } else {
                    last = response.statusCode() + " without serverTime";
                }
            } catch (java.io.IOException | RuntimeException e) {
                last = "no answer (" + e.getClass().getSimpleName() + ")";
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return "interrupted";
            }
            sleep(Duration.ofMillis(200));
        }
        return "not seen within 5 s" + (keptLedgerTime ? " (the service keeps the ledger's time)" : "") + ", last "
                + last + (host == null ? "" : "; " + host);
    }

    /** How far (whole seconds) an HTTP {@code Date} header is from the runner's clock, if it reads. */
    private Optional<Long> dateSkewSeconds(String date) {
        try {
            java.time.Instant at = java.time.ZonedDateTime.parse(date,
                    java.time.format.DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
            return Optional.of(Math.round((at.toEpochMilli() - clock.millis()) / 1000.0));
        } catch (java.time.format.DateTimeParseException e) {
            return Optional.empty();
        }
    }

    /**
     * A fault on one Redis node, looked up when it starts (the shard's master, or its replica number
     * {@code buyer} among the live ones): {@code MASTER_KILL} kills it and, after the fault's length,
     * brings it back as a replica ({@link ReplicatedRedis#rejoin}; the fault ends once it is one);
     * {@code REPLICA_FREEZE} stops it and continues it. A fault that finds no such node (the shard's
     * only replica is the master killed a moment ago) is written with target {@code none}.
     */
    private void injectOnNode(Step step) {
        FaultKind kind = FaultKind.valueOf(step.kind().name());
        if (kind == FaultKind.MASTER_KILL) {
            synchronized (masterKills) {
                // the previous kill's node is back, in sync: this kill cannot take a shard's last copy
                ReplicatedRedis.await(ReplicatedRedis.RECOVERY, nodes::whole);
                long start = nanos.getAsLong();
                String startWall = clock.instant().toString();
                java.util.Optional<RedisNode> master = nodes.master(step.ref());
                master.ifPresent(RedisNode::kill);
                sleep(Duration.ofMillis(step.lengthMillis()));
                // the shard's master now: the replica promoted, whose replica the killed node must have become
                String rejoined = master.map(nodes::rejoin).orElse("") + "; shard " + step.ref() + " served by "
                        + nodes.master(step.ref()).map(RedisNode::toString).orElse("none");
                history.write(new HistoryEntry.FaultEvent(step.index(), kind, "shard " + step.ref() + " master "
                        + master.map(m -> m + ": " + rejoined).orElse("none"), start, startWall, nanos.getAsLong(),
                        clock.instant().toString()));
            }
            return;
        }
        long start = nanos.getAsLong();
        String startWall = clock.instant().toString();
        java.util.Optional<RedisNode> replica = nodes.replica(step.ref(), (int) step.buyer());
        replica.ifPresent(r -> hold(r, r::freeze));
        sleep(Duration.ofMillis(step.lengthMillis()));
        replica.ifPresent(r -> release(r, r::thaw));
        history.write(new HistoryEntry.FaultEvent(step.index(), kind, "shard " + step.ref() + " replica "
                + replica.map(RedisNode::toString).orElse("none"), start, startWall, nanos.getAsLong(),
                clock.instant().toString()));
    }

    /**
     * A fault on what the run's Redis holds: {@code KEY_LOSS} deletes keys the reservation module names at
     * risk ({@code KeysAtRisk}), and after a quiet bucket's loss preheats the activity at the fault's end,
     * as an operator repairing it would; {@code EVICTION} sets {@code maxmemory} and the step's policy
     * ({@code noeviction} below the memory in use: writes refused; an evicting one with 64 MB of headroom:
     * nothing evicted yet, the service must notice and halt) and puts back {@code maxmemory 0} and
     * {@code noeviction} when it ends (the last of overlapping ones). Behind Sentinel and on the cluster
     * a key is deleted on the master that serves its slot when the fault starts
     * (behind Sentinel, the master the Sentinels name), lease keys on every master, and the memory limit
     * and policy are set on every data node that answers, masters and replicas, since any replica may be
     * promoted while the fault lasts, and put back on every one ({@link #onEveryNode}).
     */
    private void injectOnRedisData(Step step) {
        FaultKind kind = FaultKind.valueOf(step.kind().name());
        long start = nanos.getAsLong();
        String startWall = clock.instant().toString();
        String target;
        if (kind == FaultKind.KEY_LOSS) {
            target = loseKeys(step);
            sleep(Duration.ofMillis(step.lengthMillis()));
            if (step.variant().equals("quiet-bucket") && target.contains(": deleted")) {
                target += "; preheated: " + preheat.get();
            }
        } else {
            String[] reset = {"reset by an overlapping eviction fault"};
            target = (nodes == null ? "redis" : "redis nodes") + ": maxmemory-policy " + step.variant() + ", "
                    + limitMemory(step.variant());
            sleep(Duration.ofMillis(step.lengthMillis()));
            release(memoryLimit, () -> reset[0] = unlimitMemory());
            if (nodes != null) {
                target += "; put back: " + reset[0];
            }
        }
        history.write(new HistoryEntry.FaultEvent(step.index(), kind, target, start, startWall, nanos.getAsLong(),
                clock.instant().toString()));
    }

    /** A Redis server the runner acts on, by name: the run's own on {@code single}, else a node of the topology. */
    private record RedisTarget(String name, java.util.function.Supplier<Jedis> connection) {
    }

    private RedisTarget single() {
        return new RedisTarget("redis", () -> new Jedis("127.0.0.1", redisPort));
    }

    private static RedisTarget of(RedisNode node) {
        return new RedisTarget(node.toString(), node::connect);
    }

    /** The server that holds {@code key} now: on the cluster its slot's master, behind Sentinel the master. */
    private Optional<RedisTarget> holderOf(String key) {
        return nodes == null ? Optional.of(single()) : nodes.masterOf(key).map(FaultInjector::of);
    }

    /** Where keys live: every shard's master now; on {@code single} the run's own Redis. */
    private List<RedisTarget> masters() {
        return nodes == null ? List.of(single()) : nodes.masters().stream().map(FaultInjector::of).toList();
    }

    /** A failure worth another try: the node went away, or no longer serves the key (failed over, slot moved). */
    private static boolean transient_(RuntimeException e) {
        return e instanceof redis.clients.jedis.exceptions.JedisConnectionException
                || e instanceof redis.clients.jedis.exceptions.JedisRedirectionException
                || String.valueOf(e.getMessage()).startsWith("READONLY")
                || String.valueOf(e.getMessage()).startsWith("LOADING")
                || String.valueOf(e.getMessage()).startsWith("CLUSTERDOWN");
    }

    private String loseKeys(Step step) {
        try {
            switch (step.variant()) {
                case "quiet-bucket" -> {
                    KeysAtRisk.Bucket bucket = KeysAtRisk.bucket(activity, step.sku(), step.ref(),
                            buckets.getOrDefault(step.sku(), 1));
                    String what = "sku " + step.sku() + " bucket " + step.ref() + " of activity " + activity;
                    String outcome = "busy";
                    String where = "";
                    RuntimeException lastFailure = null;
                    // the script judges its first key, the stream, then deletes them all
                    List<String> streamFirst = new java.util.ArrayList<>(List.of(bucket.stream()));
                    bucket.keys().stream().filter(k -> !k.equals(bucket.stream())).forEach(streamFirst::add);
                    // a bucket with events not yet ordered cannot be put back from the ledger: wait for a quiet
                    // moment (and, behind Sentinel or on the cluster, for a master that serves the bucket)
                    for (int attempt = 0; attempt < 40 && outcome.equals("busy"); attempt++) {
                        Optional<RedisTarget> holder = holderOf(bucket.stream());
                        if (holder.isPresent()) {
                            try (Jedis jedis = holder.get().connection().get()) {
                                outcome = String.valueOf(jedis.eval(QUIET_BUCKET_LOSS, streamFirst, List.of()));
                                where = holder.get().name();
                                lastFailure = null;
                            } catch (RuntimeException e) {
                                if (!transient_(e)) {
                                    throw e;
                                }
                                lastFailure = e;
                            }
                        }
                        if (outcome.equals("busy")) {
                            sleep(Duration.ofMillis(100));
                        }
                    }
                    String on = nodes == null || where.isEmpty() ? "" : " on " + where;
                    return what + on + ": " + (outcome.startsWith("deleted") ? "deleted (" + outcome.substring(8)
                            + " keys)" : outcome.equals("busy") && (lastFailure != null || where.isEmpty())
                            ? "no master served it within 4 s" + (lastFailure == null ? "" : " ("
                            + lastFailure.getMessage() + ")") + ", nothing deleted"
                            : outcome + ", nothing deleted");
                }
                case "stream-registry" -> {
                    String key = KeysAtRisk.streamRegistry();
                    RuntimeException lastFailure = null;
                    // behind Sentinel or on the cluster, for up to 4 s a master that serves it and answers
                    for (int attempt = 0; attempt < 40; attempt++) {
                        Optional<RedisTarget> holder = holderOf(key);
                        if (holder.isPresent()) {
                            try (Jedis jedis = holder.get().connection().get()) {
                                return "stream registry" + (nodes == null ? "" : " on " + holder.get().name()) + ": "
                                        + jedis.del(key) + " key deleted";
                            } catch (RuntimeException e) {
                                if (!transient_(e)) {
                                    throw e;
                                }
                                lastFailure = e;
                            }
                        }
                        sleep(Duration.ofMillis(100));
                    }
                    return "stream registry: no master served it within 4 s" + (lastFailure == null ? ""
                            : " (" + lastFailure.getMessage() + ")") + ", nothing deleted";
                }
                case "node-leases" -> {
                    long deleted = 0;
                    java.util.Map<String, String> on = new java.util.LinkedHashMap<>();
                    // on the cluster the leases may sit on every master (each key on its slot's): scan each; a
                    // master that does not answer (an overlapping REDIS_PAUSE) is tried again for up to 5 s
                    int shards = nodes == null ? 1 : nodes.shards();
                    long deadline = nanos.getAsLong() + Duration.ofSeconds(5).toNanos();
                    do {
                        for (RedisTarget master : masters()) {
                            if (on.containsKey(master.name()) && !on.get(master.name()).startsWith("not reached")) {
                                continue;
                            }
                            long here = 0;
                            try (Jedis jedis = master.connection().get()) {
                                for (String pattern : KeysAtRisk.nodeLeases()) {
                                    String cursor = "0";
                                    do {
                                        var page = jedis.scan(cursor, new redis.clients.jedis.params.ScanParams()
                                                .match(pattern).count(100));
                                        for (String key : page.getResult()) {
                                            here += jedis.del(key);
                                        }
                                        cursor = page.getCursor();
                                    } while (!cursor.equals("0"));
                                }
                            } catch (RuntimeException e) {
                                if (!transient_(e)) {
                                    throw e;
                                }
                                on.put(master.name(), "not reached (" + e.getMessage() + ")");
                                continue;
                            }
                            deleted += here;
                            on.put(master.name(), Long.toString(here));
                        }
                        if (on.values().stream().filter(v -> !v.startsWith("not reached")).count() < shards) {
                            sleep(Duration.ofMillis(200));
                        } else {
                            break;
                        }
                    } while (nanos.getAsLong() < deadline);
                    List<String> said = new java.util.ArrayList<>();
                    on.forEach((node, count) -> said.add(node + ": " + count));
                    long scanned = on.values().stream().filter(v -> !v.startsWith("not reached")).count();
                    return "node id leases: " + deleted + " key(s) deleted" + (nodes == null ? "" : " (" + String.join(
                            ", ", said) + (scanned < shards ? "; " + (shards - scanned) + " master(s) not reached"
                            + " within 5 s" : "") + ")");
                }
                default -> throw new IllegalStateException("unknown key loss " + step.variant());
            }
        } catch (RuntimeException e) {
            return step.variant() + ": failed: " + e;
        }
    }

    private String limitMemory(String policy) {
        String[] applied = {"not applied (an eviction fault already in effect)"};
        hold(memoryLimit, () -> applied[0] = onEveryNode("not set", jedis -> {
            long used = jedis.info("memory").lines().filter(l -> l.startsWith("used_memory:"))
                    .map(l -> Long.parseLong(l.substring("used_memory:".length()).trim())).findFirst().orElse(0L);
            long limit = policy.equals("noeviction") ? Math.max(1, used / 2) : used + 64L * 1024 * 1024;
            // the limit first, then the policy: no moment with an evicting policy below the memory in use
            jedis.configSet("maxmemory", Long.toString(limit));
            jedis.configSet("maxmemory-policy", policy);
            return "maxmemory " + limit + " (" + used + " bytes in use)";
        }));
        return applied[0];
    }

    /**
     * {@code maxmemory-policy noeviction} then {@code maxmemory 0} on every data node (on {@code single} the
     * run's Redis); what was done, for the history.
     */
    private String unlimitMemory() {
        return "noeviction, maxmemory 0 " + onEveryNode("not reset", jedis -> {
            jedis.configSet("maxmemory-policy", "noeviction");
            jedis.configSet("maxmemory", "0");
            return "";
        });
    }

    /**
     * {@code action} on the run's Redis, or on every data node of a topology with replicas: a node that
     * does not answer (paused by an overlapping {@code REDIS_PAUSE}, frozen, killed) is tried again every
     * 200 ms for up to 5 s, then named with {@code missed} (a killed node restarts with the defaults, a
     * frozen one is continued at the heal, which puts every node back again). What was done on which node.
     */
    private String onEveryNode(String missed, java.util.function.Function<Jedis, String> action) {
        if (nodes == null) {
            try (Jedis jedis = single().connection().get()) {
                return action.apply(jedis);
            }
        }
        Map<RedisNode, String> done = new java.util.LinkedHashMap<>();
        Map<RedisNode, String> failed = new java.util.LinkedHashMap<>();
        long deadline = nanos.getAsLong() + Duration.ofSeconds(5).toNanos();
        do {
            for (RedisNode node : nodes.dataNodes()) {
                if (done.containsKey(node)) {
                    continue;
                }
                if (!node.answers()) {
                    failed.put(node, node.alive() ? (node.frozen() ? "frozen" : "not answering") : "down");
                    continue;
                }
                try (Jedis jedis = node.connect()) {
                    done.put(node, action.apply(jedis));
                    failed.remove(node);
                } catch (RuntimeException e) {
                    failed.put(node, e.getMessage());
                }
            }
            if (!failed.isEmpty()) {
                sleep(Duration.ofMillis(200));
            }
        } while (!failed.isEmpty() && nanos.getAsLong() < deadline);
        List<String> said = new java.util.ArrayList<>();
        done.forEach((node, what) -> said.add(node + (what.isEmpty() ? "" : " " + what)));
        failed.forEach((node, why) -> said.add(node + " " + missed + " (" + why + ")"));
        return "on " + String.join(", ", said);
    }

    /**
     * Undoes every fault still in effect; an instance that is down is started again. With replicas,
     * every frozen node is continued, every killed one brought back, and the topology waited for until
     * it is whole (at most {@link ReplicatedRedis#RECOVERY}); what that took, for the log.
     */
    String healAll() {
        holds.clear();
        instances.forEach(ServiceProcess::restoreClock);
        instances.forEach(ServiceProcess::thaw);
        databaseProxies.forEach(TcpProxy::restore);
        redisProxies.forEach(TcpProxy::restore);
        String redisHeal = "";
        if (nodes == null) {
            redis("CLIENT", "UNPAUSE");
            unlimitMemory();
        } else {
            redisHeal = nodes.heal();
            // after the heal every node answers (frozen ones continued, killed ones back): none keeps a limit
            redisHeal += "; " + unlimitMemory();
        }
        instances.stream().filter(i -> !i.alive()).forEach(ServiceProcess::start);
        return redisHeal;
    }

    private void hold(Object target, Runnable apply) {
        if (holds.merge(target, 1, Integer::sum) == 1) {
            apply.run();
        }
    }

    private void release(Object target, Runnable undo) {
        Integer left = holds.computeIfPresent(target, (t, n) -> n <= 1 ? null : n - 1);
        if (left == null) {
            undo.run();
        }
    }

    private void redis(String... command) {
        try (Jedis jedis = new Jedis("127.0.0.1", redisPort)) {
            jedis.sendCommand(redis.clients.jedis.Protocol.Command.valueOf(command[0]),
                    java.util.Arrays.copyOfRange(command, 1, command.length));
        }
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
