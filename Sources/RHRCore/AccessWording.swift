/// The words that tell a person about file and directory permissions, one home for the store, its token file and the
/// daemon's socket: what may not be written, and what rhr could not make private (its files 0600, its directories
/// 0700).
public enum AccessWording {
    /// "its directory /data may not be written (permission denied)".
    public static func mayNotBeWritten(_ what: String) -> String { "\(what) may not be written (permission denied)" }

    /// "cannot make the socket's directory private (0700)", "cannot make the socket private (0600)".
    public static func cannotMakePrivate(_ what: String, directory: Bool) -> String {
        "cannot make \(what) private (\(directory ? "0700" : "0600"))"
    }
}
