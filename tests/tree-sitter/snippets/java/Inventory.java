package com.example.inventory;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.*;
import static java.util.Objects.requireNonNull;

/**
 * Keeps items in stock and reports shortages.
 */
public class Inventory extends AbstractStore implements Auditable, Comparable<Inventory> {
    /** Default capacity. */
    public static final int DEFAULT_CAPACITY = 64;

    private final List<Item> items = new ArrayList<>();

    /** Creates an empty inventory. */
    public Inventory() {
        super(DEFAULT_CAPACITY);
    }

    /**
     * Adds an item.
     * @param item the item, not null
     */
    public void add(Item item) {
        items.add(requireNonNull(item));
        this.audit("add", item.name());
    }

    // Items below their threshold.
    public List<Item> shortages(int threshold) {
        List<Item> out = new ArrayList<>();
        for (Item i : items) {
            if (i.count() < threshold) out.add(i);
        }
        return out;
    }

    @Override
    public int compareTo(Inventory other) {
        return Integer.compare(items.size(), other.items.size());
    }

    /** A stocked item. */
    public record Item(String name, int count) {}

    enum Status { OK, LOW, EMPTY }
}

/** Something whose changes are audited. */
interface Auditable extends java.io.Serializable {
    String CHANNEL = "audit";

    void audit(String action, String subject);
}
