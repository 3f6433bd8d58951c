package seckill.app.infra;

import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;
import java.util.logging.Logger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import redis.clients.jedis.Connection;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.JedisCluster;
import redis.clients.jedis.JedisPooled;
import redis.clients.jedis.JedisSentineled;
import seckill.redis.SentinelAddress;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.util.JedisURIHelper;

/**
 * Produces the one Redis client of the application from {@code seckill.redis.uri}
 * ({@code redis://[user:password@]host:port[/db]}, {@code rediss://} for TLS); with none configured,
 * the dev module, when it is on the class path, supplies its embedded Redis's.
 */
@ApplicationScoped
class RedisConnection {

    private static final Logger LOG = Logger.getLogger(RedisConnection.class.getName());

    private final Optional<String> uri;
    private final int poolSize;
    private final int timeoutMillis;

    @Inject
    RedisConnection(@ConfigProperty(name = "seckill.redis.uri") Optional<String> uri,
                    @ConfigProperty(name = "seckill.redis.pool-size", defaultValue = "64") int poolSize,
                    @ConfigProperty(name = "seckill.redis.timeout-millis", defaultValue = "2000") int timeoutMillis) {
        this.uri = uri;
        this.poolSize = poolSize;
        this.timeoutMillis = timeoutMillis;
    }

    @Produces
    @Singleton
    UnifiedJedis redis() {
        String configured = uri.filter(u -> !u.isBlank()).orElseThrow(() -> Database.notConfigured("seckill.redis.uri"));
        if (configured.startsWith("redis-cluster://")) {
            return cluster(configured);
        }
        if (SentinelAddress.isSentinel(configured)) {
            return sentineled(configured);
        }
        URI target = URI.create(configured);
        if (!JedisURIHelper.isValid(target)
                || target.getUserInfo() != null && !target.getUserInfo().contains(":")) {
            throw new IllegalStateException("seckill.redis.uri must look like redis://[[user]:password@]host:port[/db], "
                    + "rediss://… or redis-cluster://…");
        }
        // Jedis reads its own URIs: user, password, database, TLS scheme, default port
        DefaultJedisClientConfig.Builder client = DefaultJedisClientConfig.builder()
                .timeoutMillis(timeoutMillis)
                .ssl(JedisURIHelper.isRedisSSLScheme(target))
                .user(JedisURIHelper.getUser(target))
                .password(JedisURIHelper.getPassword(target))
                .database(JedisURIHelper.getDBIndex(target));
        HostAndPort address = JedisURIHelper.getHostAndPort(target);
        JedisClientConfig config = client.build();
        LOG.info(() -> "Redis at " + address + ", pool " + poolSize);
        return new JedisPooled(address, config, pool());
    }

    /**
     * {@code redis-cluster://[password@]host:port,host:port,...}: seed nodes of a Redis Cluster. Every
     * key the service touches in one call carries one hash tag, so scripts, streams and pub/sub work
     * unchanged on the cluster client.
     */
    private UnifiedJedis cluster(String configured) {
        String rest = configured.substring("redis-cluster://".length());
        DefaultJedisClientConfig.Builder client = DefaultJedisClientConfig.builder().timeoutMillis(timeoutMillis);
        int at = rest.lastIndexOf('@');
        if (at >= 0) {
            client.password(rest.substring(0, at));
            rest = rest.substring(at + 1);
        }
        Set<HostAndPort> seeds = new LinkedHashSet<>();
        for (String node : rest.split(",")) {
            seeds.add(HostAndPort.from(node.trim()));
        }
        LOG.info(() -> "Redis Cluster seeds " + seeds + ", pool " + poolSize + " per node");
        return new JedisCluster(seeds, client.build(), pool());
    }

    /**
     * {@code redis-sentinel://[[user]:password@]host:port[,host:port…]/<master-name>}: the Sentinels
     * to ask for the master of {@code master-name}. The client follows a failover by itself (it
     * listens for the Sentinels' switch-master); what the service does about writes in flight during
     * one is the reservation path's halt, reconcile and resume.
     */
    private UnifiedJedis sentineled(String configured) {
        SentinelAddress address = SentinelAddress.parse(configured);
        DefaultJedisClientConfig.Builder master = DefaultJedisClientConfig.builder().timeoutMillis(timeoutMillis);
        address.user().ifPresent(master::user);
        address.password().ifPresent(master::password);
        LOG.info(() -> "Redis master '" + address.masterName() + "' through Sentinels " + address.sentinels() + ", pool "
                + poolSize);
        return new JedisSentineled(address.masterName(), master.build(), pool(), address.sentinels(),
                DefaultJedisClientConfig.builder().timeoutMillis(timeoutMillis).build());
    }

    /** One pool shape for every kind of Redis: this many connections, waiting at most the Redis timeout. */
    private GenericObjectPoolConfig<Connection> pool() {
        GenericObjectPoolConfig<Connection> pool = new GenericObjectPoolConfig<>();
        pool.setMaxTotal(poolSize);
        pool.setMaxIdle(poolSize);
        pool.setMinIdle(Math.min(8, poolSize));
        pool.setMaxWait(Duration.ofMillis(timeoutMillis));
        pool.setJmxEnabled(false);
        return pool;
    }

    void close(@Disposes UnifiedJedis redis) {
        redis.close();
    }
}
