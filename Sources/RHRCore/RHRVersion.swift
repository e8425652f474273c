/// The version `rhr --version` prints.
public enum RHRVersion {
    public static let current = "0.1.0"
}
