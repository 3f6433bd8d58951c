package seckill.reservation;

import java.io.IOException;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.Set;

import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisCluster;
import redis.clients.jedis.JedisPooled;
import redis.clients.jedis.UnifiedJedis;
import redis.embedded.RedisServer;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The Redis the module's tests run against: {@code SECKILL_REDIS_URI} when set ({@code redis://} or
 * {@code redis-cluster://host:port,...}, as CI's two phases set it), else an embedded redis-server.
 * Register it as a static {@code @RegisterExtension} field: it connects before the class's tests and
 * closes after them.
 */
public final class TestRedis implements BeforeAllCallback, AfterAllCallback {

    private RedisServer embedded;
    private UnifiedJedis client;
    private String singleNodeUri;

    @Override
    public void beforeAll(ExtensionContext context) throws IOException {
        String uri = System.getenv("SECKILL_REDIS_URI");
        if (uri != null && uri.startsWith("redis-cluster://")) {
            Set<HostAndPort> seeds = new HashSet<>();
            for (String seed : uri.substring("redis-cluster://".length()).split(",")) {
                seeds.add(HostAndPort.from(seed.replaceAll("/.*$", "")));
            }
            embedded = null;
            client = new JedisCluster(seeds);
            singleNodeUri = null;
        } else if (uri != null && uri.startsWith("redis://")) {
            embedded = null;
            client = new JedisPooled(uri);
            singleNodeUri = uri;
        } else {
            int port;
            try (ServerSocket socket = new ServerSocket(0)) {
                port = socket.getLocalPort();
            }
            embedded = RedisServer.newRedisServer().port(port).bind("127.0.0.1").setting("save \"\"").build();
            embedded.start();
            singleNodeUri = "redis://127.0.0.1:" + port;
            client = new JedisPooled(singleNodeUri);
        }
    }

    /** The server's URI when it is a single node (a test that wraps its own client needs it). */
    public String singleNodeUri() {
        if (singleNodeUri == null) {
            throw new IllegalStateException("this test runs against a single Redis node");
        }
        return singleNodeUri;
    }

    public UnifiedJedis client() {
        return client;
    }

    @Override
    public void afterAll(ExtensionContext context) throws IOException {
        // the module's tests share the namespace with the service tests that run after them (CI gives
        // both one Redis): the stream registry they filled would make that namespace look like a sale's
        // data bound to no ledger, which a service over a fresh database refuses to take (docs/ledger-binding.md)
        client.del(seckill.reservation.redis.StockBuckets.STREAM_REGISTRY);
        client.close();
        if (embedded != null) {
            embedded.stop();
        }
    }

    /**
     * The reservation ids a stream records, in order, whatever its entries' shape: a coalesced call's
     * reservations share one entry (issue #35), so the stream's length is no longer their count.
     */
    public static java.util.List<String> recorded(UnifiedJedis redis, String stream) {
        java.util.List<String> ids = new java.util.ArrayList<>();
        for (var entry : redis.xrange(stream, (redis.clients.jedis.StreamEntryID) null, null)) {
            for (var fields : seckill.reservation.api.ReservationEventFields.namedAll(entry.getFields())) {
                ids.add(fields.get(seckill.reservation.api.ReservationEventFields.RESERVATION_ID));
            }
        }
        return ids;
    }
}
