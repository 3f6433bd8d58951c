package seckill.app.chaos;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

import redis.clients.jedis.Jedis;
import seckill.app.drill.TcpProxy;
import seckill.chaos.api.FaultKind;
import seckill.chaos.api.HistoryEntry;
import seckill.chaos.api.HistoryWriter;

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

    /** Runs one fault for its length, on the calling thread, and writes it to the history once it ended. */
    void inject(Step step) {
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
            case MASTER_KILL, REPLICA_FREEZE -> throw new IllegalStateException("a node fault: " + step);
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
            case MASTER_KILL, REPLICA_FREEZE -> throw new IllegalStateException("a node fault: " + step);
        }
        history.write(new HistoryEntry.FaultEvent(step.index(), kind, target, start, startWall, nanos.getAsLong(),
                clock.instant().toString()));
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
     * Undoes every fault still in effect; an instance that is down is started again. With replicas,
     * every frozen node is continued, every killed one brought back, and the topology waited for until
     * it is whole (at most {@link ReplicatedRedis#RECOVERY}); what that took, for the log.
     */
    String healAll() {
        holds.clear();
        instances.forEach(ServiceProcess::thaw);
        databaseProxies.forEach(TcpProxy::restore);
        redisProxies.forEach(TcpProxy::restore);
        String redisHeal = "";
        if (nodes == null) {
            redis("CLIENT", "UNPAUSE");
        } else {
            redisHeal = nodes.heal();
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
