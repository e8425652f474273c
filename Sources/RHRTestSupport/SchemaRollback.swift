/// What takes a store back from schema 8 to 7, for tests that make a store as an earlier rhr left it: the list of
/// deliveries and what each took from others (`DeliverySchema.swift`) taken away.
public enum SchemaRollback {
    public static let deliveries = """
        DROP TABLE delivery; DROP TABLE delivery_road; DROP TABLE displaced_sample; DROP TABLE displaced_heart_rate;
        DROP TABLE tombstone_seen; DROP TABLE delivery_writer; DROP TABLE passed_over_delivery;
        DROP INDEX revision_by_delivery; ALTER TABLE revision DROP COLUMN delivery_id;
        DELETE FROM meta WHERE key = 'last_delivery';
        """
}
