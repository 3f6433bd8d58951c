package seckill.app.infra;

/**
 * The drill's and the chaos command's door to the embedded dev servers, kept only while those tools
 * still live in the app (issue #31 moves them to their own modules, which use
 * {@link seckill.dev.api.DevServers} directly); then this class goes. The service itself never
 * names the dev servers: it reads its stores from configuration.
 */
public final class DevServers {

    private final seckill.dev.api.DevServers servers;

    public DevServers(boolean keepForJvm) {
        servers = new seckill.dev.api.DevServers(keepForJvm);
    }

    public String redisUri() {
        return servers.redisUri();
    }

    public String jdbcUrl() {
        return servers.jdbcUrl();
    }

    public void stop() {
        servers.stop();
    }
}
