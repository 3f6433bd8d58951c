package seckill.redis;

import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;

import redis.clients.jedis.HostAndPort;

/**
 * A {@code redis-sentinel://[[user]:password@]host:port[,host:port…]/<master-name>} URI, read once:
 * the Sentinels to ask, the name of the master they watch, and the master's credentials.
 */
public record SentinelAddress(Set<HostAndPort> sentinels, String masterName, Optional<String> user,
                              Optional<String> password) {

    static final String SCHEME = "redis-sentinel://";

    public static boolean isSentinel(String uri) {
        return uri != null && uri.startsWith(SCHEME);
    }

    public static SentinelAddress parse(String uri) {
        String rest = uri.substring(SCHEME.length());
        int slash = rest.lastIndexOf('/');
        if (slash < 0 || slash == rest.length() - 1) {
            throw new IllegalStateException("seckill.redis.uri must name the master: redis-sentinel://host:port[,host:port…]"
                    + "/<master-name>");
        }
        String masterName = rest.substring(slash + 1);
        rest = rest.substring(0, slash);
        Optional<String> user = Optional.empty();
        Optional<String> password = Optional.empty();
        int at = rest.lastIndexOf('@');
        if (at >= 0) {
            String userInfo = rest.substring(0, at);
            int colon = userInfo.indexOf(':');
            password = Optional.of(colon < 0 ? userInfo : userInfo.substring(colon + 1));
            user = colon > 0 ? Optional.of(userInfo.substring(0, colon)) : Optional.empty();
            rest = rest.substring(at + 1);
        }
        Set<HostAndPort> sentinels = new LinkedHashSet<>();
        for (String node : rest.split(",")) {
            sentinels.add(HostAndPort.from(node.trim()));
        }
        return new SentinelAddress(Set.copyOf(sentinels), masterName, user, password);
    }

    /** The first Sentinel named, for a one-off question (which master, fail over now). */
    public HostAndPort anySentinel() {
        return sentinels.iterator().next();
    }
}
