package seckill.client;

/** A purchase token for one buyer and activity, to send in {@code header} until {@code expiresAt}. */
public record PurchaseToken(String token, String expiresAt, String header) {
}
