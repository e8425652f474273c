/// What takes a store back to an older schema, for tests that make a store as an earlier rhr left it; a test going back
/// further takes the later steps away first (`deliveryTimes + deliveries`).
public enum SchemaRollback {
    /// 9 → 8: when deliveries were made and read (`DeliveryTimes.swift`) taken away.
    public static let deliveryTimes = """
        DROP TABLE tied_copy; ALTER TABLE layer DROP COLUMN claimed_as_of; ALTER TABLE sample DROP COLUMN made_at;
        ALTER TABLE sample DROP COLUMN made_in; ALTER TABLE heart_rate DROP COLUMN made_at;
        """

    /// 8 → 7: the list of deliveries and what each took from others (`DeliverySchema.swift`) taken away.
    public static let deliveries = """
        DROP TABLE delivery; DROP TABLE delivery_road; DROP TABLE displaced_sample; DROP TABLE displaced_heart_rate;
        DROP TABLE tombstone_seen; DROP TABLE delivery_writer; DROP TABLE passed_over_delivery;
        DROP INDEX revision_by_delivery; ALTER TABLE revision DROP COLUMN delivery_id;
        DELETE FROM meta WHERE key = 'last_delivery';
        """
}
