package seckill.ledger.api.catalogue;

import java.util.Optional;
import java.util.regex.Pattern;

/**
 * One SKU on sale in an activity: its total stock, how many units one buyer may hold, how many
 * Redis buckets its stock is split into, and what the buyer is shown (issue #33): a name (plain text,
 * never markup), a flash price and a picture (a file name in the service's picture folder). The three
 * are optional: an activity created without them shows "SKU id" and no price.
 */
public record SkuLine(long skuId, long total, int perUserLimit, int buckets, Optional<String> name,
                      Optional<SkuPrice> price, Optional<String> picture) {

    /** Characters (code points) a name may have. */
    public static final int MAX_NAME = 100;
    /** A picture's file name: letters, digits, {@code . _ -}, a PNG, JPEG or WebP extension; never a path. */
    private static final Pattern PICTURE = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,95}\\.(png|jpg|jpeg|webp)");

    public SkuLine {
        if (skuId <= 0 || total < 0 || perUserLimit < 1 || buckets < 1 || name == null || price == null
                || picture == null || name.flatMap(SkuLine::nameProblem).isPresent()
                || picture.flatMap(SkuLine::pictureProblem).isPresent()) {
            throw new IllegalArgumentException("invalid SKU line");
        }
    }

    /** A SKU with nothing to show but its id. */
    public SkuLine(long skuId, long total, int perUserLimit, int buckets) {
        this(skuId, total, perUserLimit, buckets, Optional.empty(), Optional.empty(), Optional.empty());
    }

    /** What the buyer reads: the name, or "SKU id" without one. */
    public String title() {
        return name.orElse("SKU " + skuId);
    }

    /** What is wrong with a name, if anything: blank, longer than {@link #MAX_NAME}, or with control or format characters. */
    public static Optional<String> nameProblem(String name) {
        if (name == null || name.isBlank()) {
            return Optional.of("must not be blank");
        }
        if (name.codePointCount(0, name.length()) > MAX_NAME) {
            return Optional.of("must be at most " + MAX_NAME + " characters");
        }
        boolean unprintable = name.codePoints().anyMatch(c -> Character.isISOControl(c)
                || Character.getType(c) == Character.FORMAT || Character.getType(c) == Character.SURROGATE
                || Character.getType(c) == Character.UNASSIGNED);
        return unprintable ? Optional.of("must be plain text without control or formatting characters")
                : Optional.empty();
    }

    /** What is wrong with a picture's file name, if anything. */
    public static Optional<String> pictureProblem(String picture) {
        return picture != null && PICTURE.matcher(picture).matches() ? Optional.empty()
                : Optional.of("must be a file name in the picture folder ending .png, .jpg, .jpeg or .webp"
                        + " (letters, digits, . _ -; at most 100 characters, no path)");
    }
}
