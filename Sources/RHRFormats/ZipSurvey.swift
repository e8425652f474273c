import Foundation

/// What a zip holds that rhr reads, found by content (docs/design.md section 2): every Apple Health export and
/// every SQLite database in it, and the members that are symbolic links, which rhr does not follow. Read from the
/// zip's central directory, seeking from member to member, so a survey costs a kilobyte of each member however
/// large the export inside.
struct ZipSurvey {
    var names: [String] = []
    /// Members whose first KiB holds `<HealthData`.
    var appleExports: [String] = []
    /// Members that start with SQLite's header.
    var healthConnectDatabases: [String] = []
    /// Members that are symbolic links, and where they point.
    var symlinks: [(name: String, target: String)] = []
    /// When each member was made, where the zip says (R12: of files of one instant, the one made later decides).
    var modified: [String: Date] = [:]

    private init() {}

    init(path: String) throws(InputError) {
        let archive: ArchiveReader
        do {
            archive = try ArchiveReader(path: path, seekable: true)
            try read(archive)
        } catch {
            // A zip without a readable central directory (cut short, say) is surveyed as it streams; its
            // damage is then reported where the reader meets it.
            self = ZipSurvey()
            try read(try ArchiveReader(path: path))
        }
    }

    private mutating func read(_ archive: ArchiveReader) throws(InputError) {
        while let entry = try archive.nextEntry() {
            names.append(entry.name)
            if let time = entry.modified { modified[entry.name] = time }
            if let target = entry.symlinkTarget {
                symlinks.append((entry.name, target))
                continue
            }
            if entry.isDirectory { continue }
            let head = try archive.readPrefix(1024)
            if InputKind.isAppleHealthXML(head) { appleExports.append(entry.name) }
            if InputKind.isSQLite(head) { healthConnectDatabases.append(entry.name) }
        }
    }

    /// The kind of the zip: the exports it holds, the first of each store's; or why it holds none.
    func kind(path: String) throws(InputError) -> InputKind {
        let kinds = appleExports.prefix(1).map { InputKind.appleHealthZip(member: $0) }
            + healthConnectDatabases.prefix(1).map { InputKind.healthConnectZip(member: $0) }
        switch kinds.count {
        case 0: throw InputError(path: path, message: refusal)
        case 1: return kinds[0]
        default: return .exports(kinds)
        }
    }

    /// Why a zip without any export is refused: what it holds, and its links.
    var refusal: String {
        var text = "a zip archive, but neither an Apple Health nor a Health Connect export: " + ArchiveReader.memberListing(names)
        for link in symlinks {
            text += "; \(link.name) is a symbolic link (to \(link.target)), which rhr does not follow"
        }
        return text
    }
}
