package seckill.client;

/** Whether this instance sells ({@code OPEN}) or is {@code HALTED}, and why. */
public record SalesState(String state, String reason) {
}
