import Foundation
import RHRStore

extension TemporaryDirectory {
    /// A store in this directory, its days placed in UTC; by default the one at `storePath`, where a
    /// `TestDaemon` keeps its store.
    public func store(_ name: String = "rhr.sqlite") throws -> HealthDatabase {
        try HealthDatabase(path: file(name), machineZone: utc)
    }
}
