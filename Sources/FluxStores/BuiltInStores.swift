import FluxShell

extension StoreCatalog {
    /// The built-in stores: `counter`, `todos` and `search`.
    public static let builtIn = StoreCatalog([.counter, .todos, .search, .library])
}
