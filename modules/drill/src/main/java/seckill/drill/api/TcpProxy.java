package seckill.drill.api;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A loopback TCP proxy in front of a server, for injecting a network fault from outside the code
 * under test: {@link #cut()} resets every connection through it and refuses new ones (accepted and
 * closed at once), {@link #restore()} lets them through again. The drill's {@code db-down} fault and
 * the database-outage tests put the service's JDBC URL through one.
 */
public final class TcpProxy implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(TcpProxy.class.getName());
    private static final Pattern JDBC_HOST = Pattern.compile("^(jdbc:[a-z]+://)([^/:?]+)(?::(\\d+))?(.*)$");

    private final ServerSocket listener;
    private final InetSocketAddress target;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private volatile boolean cut;

    private TcpProxy(InetSocketAddress target) throws IOException {
        this.target = target;
        this.listener = new ServerSocket(0, 200, InetAddress.getLoopbackAddress());
        Thread.ofPlatform().daemon(true).name("tcp-proxy-" + port()).start(this::accept);
    }

    /** Starts a proxy on a free loopback port that forwards to {@code host:port}. */
    public static TcpProxy to(String host, int port) {
        try {
            return new TcpProxy(new InetSocketAddress(host, port));
        } catch (IOException e) {
            throw new IllegalStateException("cannot start a TCP proxy: " + e.getMessage(), e);
        }
    }

    /** Starts a proxy in front of the server a {@code jdbc:mysql://host[:port]/...} URL names. */
    public static TcpProxy forJdbcUrl(String jdbcUrl) {
        Matcher m = matchJdbc(jdbcUrl);
        return to(m.group(2), m.group(3) == null ? 3306 : Integer.parseInt(m.group(3)));
    }

    /** The same JDBC URL, going through this proxy. */
    public String route(String jdbcUrl) {
        Matcher m = matchJdbc(jdbcUrl);
        return m.group(1) + "127.0.0.1:" + port() + m.group(4);
    }

    public int port() {
        return listener.getLocalPort();
    }

    /** Resets every connection through the proxy and refuses new ones until {@link #restore()}. */
    public void cut() {
        cut = true;
        open.forEach(TcpProxy::reset);
        open.clear();
    }

    public void restore() {
        cut = false;
    }

    @Override
    public void close() {
        cut();
        closeQuietly(listener);
    }

    private static Matcher matchJdbc(String jdbcUrl) {
        Matcher m = JDBC_HOST.matcher(jdbcUrl);
        if (!m.matches()) {
            throw new IllegalArgumentException("not a jdbc:<driver>://host[:port]/... URL: " + jdbcUrl);
        }
        return m;
    }

    private void accept() {
        while (!listener.isClosed()) {
            Socket client;
            try {
                client = listener.accept();
            } catch (IOException e) {
                return;
            }
            if (cut) {
                reset(client);
                continue;
            }
            Thread.ofVirtual().start(() -> connect(client));
        }
    }

    private void connect(Socket client) {
        Socket server = new Socket();
        try {
            server.connect(target, 2_000);
        } catch (IOException e) {
            LOG.fine(() -> "proxy cannot reach " + target + ": " + e.getMessage());
            reset(client);
            closeQuietly(server);
            return;
        }
        open.add(client);
        open.add(server);
        if (cut) {
            // cut while connecting
            reset(client);
            closeQuietly(server);
            return;
        }
        Thread.ofVirtual().start(() -> pump(client, server));
        pump(server, client);
    }

    private void pump(Socket from, Socket to) {
        byte[] buffer = new byte[16 * 1024];
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                out.write(buffer, 0, n);
                out.flush();
            }
        } catch (IOException e) {
            // a reset or a cut: both sides go
        } finally {
            open.remove(from);
            open.remove(to);
            closeQuietly(from);
            closeQuietly(to);
        }
    }

    /** Closes with a TCP reset rather than a polite FIN, as a dropped network path would. */
    private static void reset(Socket socket) {
        try {
            socket.setSoLinger(true, 0);
        } catch (IOException ignored) {
            // closing is what matters
        }
        closeQuietly(socket);
    }

    private static void closeQuietly(java.io.Closeable closeable) {
        try {
            closeable.close();
        } catch (IOException ignored) {
            // already gone
        }
    }
}
