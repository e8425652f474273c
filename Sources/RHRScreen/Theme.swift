/// The colour theme a person chose in the config file: the default palette, one with stronger contrast, or
/// none at all (as under `NO_COLOR`). Roles stay the same in every theme; only how they look changes.
public enum Theme: String, Sendable, Hashable, CaseIterable {
    case standard = "default"
    case highContrast = "high-contrast"
    case mono
}
