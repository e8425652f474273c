import RHRCore

/// R2 for a Health Connect export (docs/design.md section 2): who wrote each record, and on which device. A record an
/// app wrote itself names the app's package (`application_info_table`). A record written through a device data
/// provider names, in `device_data_provider_id`, the provider app (`device_data_provider_metadata_table`), and in its
/// `app_info_id` a synthetic package Health Connect made for the device: its writer is the provider app, its device
/// the one the synthetic package stands for, by its display name. A synthetic package is never a writer.
struct HealthConnectWriters {
    /// A row of `application_info_table`.
    private enum App {
        case named(Writer, package: String, device: Int64?)
        /// A synthetic package, by its redacted name (`HealthConnectSyntheticPackage`), and its device.
        case synthetic(redacted: String, device: Int64?)
        case unusable(BadRow)

        /// The device Health Connect linked to the app: a synthetic package's.
        var device: Int64? {
            switch self {
            case .named(_, _, let device), .synthetic(_, let device): return device
            case .unusable: return nil
            }
        }
    }

    /// The app behind a device data provider.
    private struct Provider {
        var writer: Writer
        var package: String
    }

    private var apps: [Int64: App] = [:]
    /// By row of `device_data_provider_metadata_table`; nil when the export has no such table.
    private var providers: [Int64: Result<Provider, BadRow>]?
    private var devices: [Int64: Device] = [:]
    /// R2: by package name, the raw spellings of it, of the writers records named.
    private(set) var spellings: [String: Set<String>] = [:]

    static func read(_ db: HealthConnectDatabase, _ schema: HealthConnectSchema.Present) throws(InputError) -> HealthConnectWriters {
        var writers = HealthConnectWriters()
        let appNames = try writers.readApps(db, schema)
        try writers.readProviders(db, schema, appNames: appNames)
        try writers.readDevices(db, schema)
        return writers
    }

    /// The writer and device of a record: `app` is its `app_info_id`, `device` its `device_info_id`, `provider` its
    /// `device_data_provider_id` (below 1 is none, as the platform reads it).
    mutating func attribute(app appId: Int64, device deviceId: Int64?, provider providerId: Int64?) throws(BadRow)
        -> (writer: Writer, device: Device?) {
        let app = apps[appId]
        let device = (deviceId ?? app?.device).flatMap { devices[$0] }
        if let providerId, providerId >= 1 {
            let provider = try self.provider(providerId)
            noteSpelling(provider.package, of: provider.writer)
            return (provider.writer, device)
        }
        switch app {
        case .named(let writer, let package, _):
            noteSpelling(package, of: writer)
            return (writer, device)
        case .synthetic(let redacted, _):
            return (Writer(store: .healthConnect, name: redacted), device)
        case .unusable(let problem): throw problem
        case nil: throw BadRow("app_info_id \(appId) has no row in \(HealthConnectSchema.applications.name)")
        }
    }

    private func provider(_ id: Int64) throws(BadRow) -> Provider {
        let table = HealthConnectSchema.providers.name
        guard let providers else { throw BadRow("device_data_provider_id \(id): the export has no \(table)") }
        guard let provider = providers[id] else { throw BadRow("device_data_provider_id \(id) has no row in \(table)") }
        return try provider.get()
    }

    private mutating func noteSpelling(_ package: String, of writer: Writer) {
        if package != writer.name { spellings[writer.name, default: []].insert(package) }
    }

    // MARK: - Reading the tables

    /// The apps by row id; returns the apps' names by package, for the providers'.
    private mutating func readApps(_ db: HealthConnectDatabase, _ schema: HealthConnectSchema.Present) throws(InputError)
        -> [String: String] {
        let t = HealthConnectSchema.applications
        var names: [String: String] = [:]
        let sql = "SELECT row_id, package_name, \(schema.select(t, "app_name")), \(schema.select(t, "device_info_id")) "
            + "FROM \(HealthConnectDatabase.quoted(t.name))"
        try db.query(sql) { row throws(InputError) in
            guard let id = row.int64(0) else { return }
            let device = row.int64(3)
            switch HealthConnectWriters.package(row.text(1), of: "app_info_id \(id)", column: "package_name", in: t.name) {
            case .failure(let problem): apps[id] = .unusable(problem)
            case .success(let package):
                if let redacted = HealthConnectSyntheticPackage.redacted(package) {
                    apps[id] = .synthetic(redacted: redacted, device: device)
                    return
                }
                let appName = row.text(2).flatMap { $0.isEmpty ? nil : $0 }
                if let appName { names[package] = appName }
                apps[id] = .named(Writer(store: .healthConnect, name: WriterNameRule.canonical(package), appName: appName),
                                  package: package, device: device)
            }
        }
        return names
    }

    private mutating func readProviders(_ db: HealthConnectDatabase, _ schema: HealthConnectSchema.Present,
                                        appNames: [String: String]) throws(InputError) {
        let t = HealthConnectSchema.providers
        guard schema.has(t) else { return }
        var found: [Int64: Result<Provider, BadRow>] = [:]
        try db.query("SELECT row_id, source_package_name FROM \(HealthConnectDatabase.quoted(t.name))") { row throws(InputError) in
            guard let id = row.int64(0) else { return }
            let label = "device_data_provider_id \(id)"
            found[id] = HealthConnectWriters.package(row.text(1), of: label, column: "source_package_name", in: t.name).flatMap { package in
                guard HealthConnectSyntheticPackage.redacted(package) == nil else {
                    return .failure(BadRow("\(label): its source_package_name in \(t.name) is a device's synthetic package, not an app"))
                }
                let writer = Writer(store: .healthConnect, name: WriterNameRule.canonical(package), appName: appNames[package])
                return .success(Provider(writer: writer, package: package))
            }
        }
        providers = found
    }

    /// A device by its display name when it has one (a device data provider's), else maker, model and type.
    private mutating func readDevices(_ db: HealthConnectDatabase, _ schema: HealthConnectSchema.Present) throws(InputError) {
        let t = HealthConnectSchema.devices
        let sql = "SELECT row_id, \(["manufacturer", "model", "device_type", "display_name"].map { schema.select(t, $0) }.joined(separator: ", ")) "
            + "FROM \(HealthConnectDatabase.quoted(t.name))"
        try db.query(sql) { row throws(InputError) in
            guard let id = row.int64(0) else { return }
            let text = { (i: Int32) in row.text(i).flatMap { $0.isEmpty ? nil : $0 } }
            let device = Device(name: text(4), manufacturer: text(1), model: text(2), type: row.int64(3).map { Int($0) })
            if !device.isEmpty { devices[id] = device }
        }
    }

    /// A package name rhr can name a writer by, or why not: empty, or with a NUL or a control character (R14).
    private static func package(_ text: String?, of label: String, column: String, in table: String) -> Result<String, BadRow> {
        guard let text, !text.isEmpty else { return .failure(BadRow("\(label): its \(column) in \(table) is empty")) }
        if let flaw = TextGate.flaw(in: text) {
            return .failure(BadRow("\(label): its \(column) \(PassedOverRecord.quote(text)) holds \(flaw.words)"))
        }
        return .success(text)
    }
}
