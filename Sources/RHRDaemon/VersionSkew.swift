// The one check before a store is migrated: no daemon of another build may be serving it.
import RHRDaemonClient
import RHRStore

/// docs/design.md section 8, version skew: what the commands, the dashboard and the daemon ask before they bring a
/// store's schema up to date. While a daemon of another build serves the store (one that keeps its file beside it, or
/// answers on one of `sockets`), the migration is refused, naming the daemon to stop, and nothing is changed.
public enum VersionSkew {
    public static func check(sockets: [String]) -> MigrationCheck {
        { (migration) throws(StoreError) in
            if let refusal = ServingDaemons.refusal(store: migration.path, from: migration.from, to: migration.to,
                                                    sockets: sockets) {
                throw StoreError(.database, refusal)
            }
        }
    }
}
