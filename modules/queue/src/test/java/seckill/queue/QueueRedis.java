package seckill.queue;

import java.io.IOException;
import java.net.ServerSocket;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import redis.clients.jedis.JedisPooled;
import redis.clients.jedis.UnifiedJedis;
import redis.embedded.RedisServer;

/**
 * The real Redis the module's tests run against: {@code SECKILL_REDIS_URI} when set (a single node),
 * else a redis-server of the class's own, or always its own when asked (a test that must not share a
 * server, e.g. one that asks it for replicas it does not have). Register it as a static
 * {@code @RegisterExtension} field: it starts before the class's tests and stops after them.
 */
final class QueueRedis implements BeforeAllCallback, AfterAllCallback {

    private final boolean ownServer;
    private RedisServer embedded;
    private String uri;
    private UnifiedJedis client;

    private QueueRedis(boolean ownServer) {
        this.ownServer = ownServer;
    }

    /** The configured Redis, or one of the class's own when none is configured. */
    static QueueRedis configuredOrOwn() {
        return new QueueRedis(false);
    }

    /** Always a redis-server of the class's own. */
    static QueueRedis own() {
        return new QueueRedis(true);
    }

    @Override
    public void beforeAll(ExtensionContext context) throws IOException {
        uri = ownServer ? null : System.getenv("SECKILL_REDIS_URI");
        if (uri == null || uri.isBlank()) {
            int port;
            try (ServerSocket socket = new ServerSocket(0)) {
                port = socket.getLocalPort();
            }
            embedded = RedisServer.newRedisServer().port(port).bind("127.0.0.1").setting("save \"\"").build();
            embedded.start();
            uri = "redis://127.0.0.1:" + port;
        }
        client = new JedisPooled(uri);
    }

    @Override
    public void afterAll(ExtensionContext context) throws IOException {
        client.close();
        if (embedded != null) {
            embedded.stop();
        }
    }

    /** Its address, for a test that opens connections of its own (a second instance's). */
    String uri() {
        return uri;
    }

    UnifiedJedis client() {
        return client;
    }
}
