extension ShellEnvironment {
    /// The same for every copy of one session's environment, and for no other session's while a
    /// copy lives: what a ``SessionScope`` keeps what it prepared for a session by.
    package var identity: ObjectIdentifier { ObjectIdentifier(core) }
}
