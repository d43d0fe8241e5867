import FluxShell

extension StoreCatalog {
    /// The catalog, its stores reading swift-dependencies' `date`, `uuid`, `continuousClock`,
    /// `suspendingClock`, `withRandomNumberGenerator`, `calendar`, `timeZone` and `locale` from the
    /// session's environment (see "Pinning swift-dependencies" in the reference): around every
    /// `make`, reducer, `send`, `state` read and effect, so a feature written with
    /// `@Dependency(\.uuid)` or `@Dependency(\.continuousClock)` gives the same output in every run.
    ///
    /// ```swift
    /// FluxShellMain.run(catalog: StoreCatalog([search]).pinningDependencies())
    /// ```
    ///
    /// A ``StoreCatalog/scope`` set before is kept and runs inside the pinned values, so what it
    /// sets wins over them; pinning twice pins once.
    ///
    /// - Returns: the catalog with its ``StoreCatalog/scope`` pinning the dependencies.
    public func pinningDependencies() -> StoreCatalog {
        guard !(scope is DependencyPinningScope) else { return self }
        var catalog = self
        catalog.scope = DependencyPinningScope(inner: scope)
        return catalog
    }
}
