package seckill.system;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.helidon.dbclient.DbClient;
import seckill.dev.api.DevServers;

/**
 * Another instance of the service in its own JVM (the test's class path, {@code SeckillMain}) on a
 * fixed free port, over the stores the test names; killed with SIGKILL or stopped, and started again
 * on the same port.
 */
public final class SecondInstance implements AutoCloseable {

    /**
     * The start of a command that runs a class of the test's class path in a JVM of its own (an instance,
     * the drill's command): {@code java -XX:TieredStopAtLevel=1 -cp <the test's class path>}. C1 only: such
     * a JVM lives for a minute or so, and C2's compilations of the start path were about a third of its
     * CPU: on CI's two cores, busy with three test runs, DevModeTest's three refused starts took 46-52 s of
     * CPU in all with C2 and 33 s without (wall 21.5-25 s -> 17 s for the class, 2026-12-07).
     */
    public static List<String> javaOnTestClassPath() {
        return List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-XX:TieredStopAtLevel=1",
                "-cp", System.getProperty("java.class.path"));
    }

    /** Its service port; drawn again only when its first start finds it taken ({@link #startOnFreePorts}). */
    private int port;
    /** The management socket's port, where its readiness is asked; 0 when it serves them on {@link #port}. */
    private int managementPort;
    private final Map<String, String> stores;
    private final List<String> properties;
    private final List<String> launcher;
    private Process process;
    private File log;

    private SecondInstance(int port, Map<String, String> stores, List<String> properties) {
        this(port, stores, properties, List.of());
    }

    private SecondInstance(int port, Map<String, String> stores, List<String> properties, List<String> launcher) {
        this.port = port;
        this.stores = stores;
        this.properties = new ArrayList<>(properties);
        this.launcher = launcher;
    }

    /**
     * Starts it and waits until it is ready. {@code stores} are its environment (SECKILL_* variables,
     * the admin token with them when it should have one); {@code properties} extra {@code -Dkey=value}
     * settings.
     */
    public static SecondInstance start(Map<String, String> stores, DbClient db, String... properties) throws IOException {
        return start(List.of(), stores, db, properties);
    }

    /**
     * Starts it as a host with a small {@code ulimit -n} would run it: under {@code prlimit}, at most
     * {@code openFiles} open files (sockets included), soft and hard.
     */
    public static SecondInstance startWithOpenFiles(int openFiles, Map<String, String> stores, DbClient db, String... properties)
            throws IOException {
        return start(List.of("prlimit", "--nofile=" + openFiles + ":" + openFiles), stores, db, properties);
    }

    private static SecondInstance start(List<String> launcher, Map<String, String> stores, DbClient db, String... properties)
            throws IOException {
        int port = freePort();
        SecondInstance instance = new SecondInstance(port, stores, List.of(properties), launcher);
        instance.startOnFreePorts(db);
        return instance;
    }

    /**
     * Starts it with the deployable's own layout, which the test configuration changes for the
     * in-process services: health, metrics and OpenAPI only on the loopback management socket
     * (on a free port of its own), none of them on the service port.
     */
    public static SecondInstance startWithManagementSocket(Map<String, String> stores, DbClient db, String... properties)
            throws IOException {
        return startWithManagementSocket(List.of(), stores, db, properties);
    }

    /** {@link #startWithManagementSocket} under {@code prlimit}, at most {@code openFiles} open files. */
    public static SecondInstance startWithManagementSocketAndOpenFiles(int openFiles, Map<String, String> stores, DbClient db,
                                                                 String... properties) throws IOException {
        return startWithManagementSocket(List.of("prlimit", "--nofile=" + openFiles + ":" + openFiles), stores, db,
                properties);
    }

    private static SecondInstance startWithManagementSocket(List<String> launcher, Map<String, String> stores,
                                                            DbClient db, String... properties) throws IOException {
        int managementPort = freePort();
        List<String> all = new ArrayList<>(List.of(properties));
        all.add("server.sockets.0.port=" + managementPort);
        all.add("server.features.observe.sockets.0=management");
        all.add("mp.openapi.sockets.0=management");
        int port = freePort();
        SecondInstance instance = new SecondInstance(port, stores, all, launcher);
        instance.managementPort = managementPort;
        instance.startOnFreePorts(db);
        return instance;
    }

    /** Where it answers health, metrics and OpenAPI. */
    public URI managementBase() {
        return managementPort == 0 ? base() : URI.create("http://127.0.0.1:" + managementPort);
    }

    /**
     * The SECKILL_* environment naming the stores the test's own service uses (the embedded ones when
     * none is configured), with the test's admin token.
     */
    public static Map<String, String> storesOf(org.eclipse.microprofile.config.Config config, DevServers devServers) {
        Map<String, String> stores = new java.util.HashMap<>();
        stores.put("SECKILL_REDIS_URI", config.getOptionalValue("seckill.redis.uri", String.class)
                .orElseGet(devServers::redisUri));
        stores.put("SECKILL_DB_URL", config.getOptionalValue("seckill.db.url", String.class)
                .orElseGet(devServers::jdbcUrl));
        stores.put("SECKILL_DB_USER", config.getOptionalValue("seckill.db.user", String.class).orElse("root"));
        config.getOptionalValue("seckill.db.password", String.class).ifPresent(p -> stores.put("SECKILL_DB_PASSWORD", p));
        stores.put("SECKILL_ADMIN_TOKEN", SaleFixture.ADMIN_TOKEN);
        return stores;
    }

    /** Its process id, as its node id lease names its holder ({@code <pid>:<uuid>}). */
    public long pid() {
        return process.pid();
    }

    /** A plain JDBC connection of its own to the database {@code stores} name, for a test that plays another client. */
    public static java.sql.Connection ledgerConnection(Map<String, String> stores) throws java.sql.SQLException {
        return java.sql.DriverManager.getConnection(stores.get("SECKILL_DB_URL"), stores.get("SECKILL_DB_USER"),
                stores.getOrDefault("SECKILL_DB_PASSWORD", ""));
    }

    public URI base() {
        return URI.create("http://127.0.0.1:" + port);
    }

    /** What it has logged so far (standard output and error). */
    public String log() throws IOException {
        return Files.readString(log.toPath());
    }

    /** SIGKILL: nothing of its in-flight work is finished or handed back. */
    public void kill() throws InterruptedException {
        process.destroyForcibly().waitFor();
    }

    /**
     * Starts an instance that is expected to refuse to start; returns what it logged once it exited
     * (within a minute), for the test to read why.
     */
    public static String startRefused(Map<String, String> stores, String... properties) throws Exception {
        int port = freePort();
        SecondInstance instance = new SecondInstance(port, stores, List.of(properties));
        File log = instance.launch();
        if (!instance.process.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)) {
            instance.process.destroyForcibly();
            throw new AssertionError("the instance started after all: " + instance.base());
        }
        return Files.readString(log.toPath());
    }

    /**
     * Its first start. A port drawn free may be taken before the JVM binds it, seconds later (an outgoing
     * connection's ephemeral port: once in CI, RehearsalOpsViewTest waited 3 minutes on an instance that had
     * exited with "Address already in use"): then it is started again on ports drawn again, at most twice.
     * A process that never became ready is stopped here: the caller never gets a handle to stop it (left
     * running, it would go on consuming the stores' streams under the next tests).
     */
    private void startOnFreePorts(DbClient db) throws IOException {
        for (int attempt = 1; ; attempt++) {
            try {
                restart(db);
                return;
            } catch (RuntimeException | Error notReady) {
                if (process != null) {
                    try {
                        process.destroyForcibly().waitFor();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                if (process == null || attempt == 3 || !log().contains("Address already in use")) {
                    throw notReady;
                }
                port = freePort();
                if (managementPort != 0) {
                    managementPort = freePort();
                    properties.replaceAll(p -> p.startsWith("server.sockets.0.port=") ? "server.sockets.0.port=" + managementPort : p);
                }
            }
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** Starts it (again) on its port and waits until it is ready; fails at once if it exits first. */
    public void restart(DbClient db) throws IOException {
        launch();
        SaleFixture probe = new SaleFixture(managementBase(), db);
        // three minutes: on a shared 2-core machine under load a JVM took 50 s to start (one minute timed out)
        SaleFixture.await("second instance ready", Duration.ofSeconds(180), () -> {
            if (!process.isAlive()) {
                return true;
            }
            try {
                return probe.get("/health/ready", null).statusCode() == 200;
            } catch (RuntimeException e) {
                return false;
            }
        });
        if (!process.isAlive()) {
            String logged = log();
            throw new IllegalStateException("the second instance exited (" + process.exitValue() + ") before it was ready: "
                    + logged.substring(Math.max(0, logged.length() - 4_000)));
        }
    }

    private File launch() throws IOException {
        // prlimit execs java in its own place: the process (and its pid) is the JVM's
        List<String> command = new ArrayList<>(launcher);
        command.addAll(javaOnTestClassPath());
        command.add("-Dserver.port=" + port);
        properties.forEach(p -> command.add("-D" + p));
        command.add("seckill.app.SeckillMain");
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().putAll(stores);
        log = Files.createTempFile("second-instance", ".log").toFile();
        builder.redirectErrorStream(true).redirectOutput(log);
        process = builder.start();
        return log;
    }

    @Override
    public void close() throws InterruptedException {
        if (process != null) {
            process.destroy();
            process.waitFor();
        }
    }
}
