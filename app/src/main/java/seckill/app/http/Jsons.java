package seckill.app.http;

import jakarta.json.spi.JsonProvider;

/**
 * One JSON-P provider for the whole edge. {@code jakarta.json.Jsons.PROVIDER.createXxx} looks the provider up
 * through ServiceLoader on every call, which scans jars and dominated the purchase path's CPU.
 */
public final class Jsons {

    public static final JsonProvider PROVIDER = JsonProvider.provider();

    private Jsons() {
    }
}
