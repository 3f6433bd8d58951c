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
 * proxies, {@code CLIENT PAUSE} on the run's own Redis. Faults overlap; a cut or a freeze that two
 * faults share is undone only when the last of them ends. {@link #healAll()} undoes whatever is
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

    FaultInjector(List<ServiceProcess> instances, List<TcpProxy> databaseProxies, List<TcpProxy> redisProxies,
                  int redisPort, HistoryWriter history, Clock clock, LongSupplier nanos) {
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
        long start = nanos.getAsLong();
        String startWall = clock.instant().toString();
        FaultKind kind = FaultKind.valueOf(step.kind().name());
        String target = step.instance() < 0 ? "redis" : "instance " + step.instance();
        switch (kind) {
            case KILL -> instances.get(step.instance()).kill();
            case PAUSE_PROCESS -> hold(instances.get(step.instance()), () -> instances.get(step.instance()).freeze());
            case DB_CUT -> hold(databaseProxies.get(step.instance()), databaseProxies.get(step.instance())::cut);
            case REDIS_CUT -> hold(redisProxies.get(step.instance()), redisProxies.get(step.instance())::cut);
            case REDIS_PAUSE -> redis("CLIENT", "PAUSE", Long.toString(step.lengthMillis()), "ALL");
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
        }
        history.write(new HistoryEntry.FaultEvent(step.index(), kind, target, start, startWall, nanos.getAsLong(),
                clock.instant().toString()));
    }

    /** Undoes every fault still in effect; an instance that is down is started again. */
    void healAll() {
        holds.clear();
        instances.forEach(ServiceProcess::thaw);
        databaseProxies.forEach(TcpProxy::restore);
        redisProxies.forEach(TcpProxy::restore);
        redis("CLIENT", "UNPAUSE");
        instances.stream().filter(i -> !i.alive()).forEach(ServiceProcess::start);
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
