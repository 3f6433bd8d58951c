package seckill.dev.api;

/**
 * The dev mode's well-known secrets: the service's dev defaults supply them when no store is
 * configured, and the drill falls back to them. Public knowledge, so never a production secret.
 */
public final class DevSecrets {

    /** The dev mode's admin token. */
    public static final String ADMIN_TOKEN = "dev-admin-token";
    /** The dev mode's identity key (id {@code dev}): any dev token is anyone's. */
    public static final String IDENTITY_KEY = "dev-identity-key-for-dev-mode-only-never-in-production";

    private DevSecrets() {
    }
}
