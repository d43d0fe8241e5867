#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The new content of a file, written beside it under a name no one can guess, which takes the
/// file's place in one `rename(2)` when it is complete: the one way FluxShell writes a file that
/// a user names (`save`, `test --update`, `--junit`, `explore --save`, ``ScenarioRecorder``).
///
/// - A process killed while it writes leaves the old file whole (and a hidden temporary file
///   beside it, `.fluxsh-….tmp`); a failure to write removes the temporary file and changes
///   nothing.
/// - The new file keeps the old one's mode and owner. When the owner cannot be kept (another
///   user's file, written by a user other than root), nothing is written: the file would change
///   hands.
/// - Symbolic links are resolved, each of the path's, and the file a link leads to is replaced:
///   the link stays a link. A link in a sticky folder that others may write (`/tmp`), owned
///   neither by the user writing nor by the folder's owner, is refused, as Linux's
///   `protected_symlinks` refuses to follow it: another user may have planted it there.
/// - What is not a regular file (`/dev/null`, a pipe, a FIFO, a terminal, `/dev/stdout`) is
///   written in place: a rename would put a file where the device was.
struct FileReplacement {
    /// The descriptor to write the new content to.
    let descriptor: Int32
    /// The folder of the file being replaced, open; `-1` when the file is written in place.
    private let folder: Int32
    /// The names, in `folder`, of the file being replaced and of the new content.
    private let name: String
    private let temporaryName: String
    /// The path as the user gave it, and what could not be done to it, for errors.
    private let path: String
    private let verb: String

    /// Opens the new content of the file at `path` for writing.
    ///
    /// - Parameter verb: what the errors say could not be done (`write`, `create`).
    /// - Throws: a ``ShellError`` naming `path` and the reason, when nothing could be opened: no
    ///   file name, a name with a control character, a folder, a missing folder, a refused link,
    ///   an owner that cannot be kept, a folder not writable.
    init(_ path: String, verb: String = "write") throws(ShellError) {
        self.path = path
        self.verb = verb
        let failure = Failure(path: path, verb: verb)
        if let position = path.unicodeScalars.firstIndex(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            let scalar = path.unicodeScalars[position]
            let hex = String(scalar.value, radix: 16, uppercase: true)
            throw failure(
                "its name holds a control character, U+\(String(repeating: "0", count: 4 - hex.count) + hex) at character "
                    + "\(path.unicodeScalars.distance(from: path.unicodeScalars.startIndex, to: position) + 1)",
                hint: "name the file with printable characters")
        }
        let target: Resolution
        do {
            target = try Resolution(path)
        } catch {
            throw failure(error.reason, hint: error.hint)
        }
        switch target.kind {
        case .directory:
            throw failure(
                "it is a directory",
                hint: "give a file name, e.g. \(path.hasSuffix("/") ? path : path + "/")session.scenario")
        case .inPlace(let real):
            descriptor = try Self.openInPlace(real, failure)
            folder = -1
            name = ""
            temporaryName = ""
        case .replaced(let folderPath, let name, let folderIdentity):
            self.name = name
            let folder = open(folderPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard folder >= 0 else { throw failure(Self.reason(errno)) }
            // NB: the folder opened is the one resolved (no link of another user's swapped in
            // meanwhile): from here on every name is taken in it, by its descriptor.
            var opened = stat()
            guard fstat(folder, &opened) == 0, FileIdentity(opened) == folderIdentity else {
                close(folder)
                throw failure("the folder changed while it was being written to", hint: "try again")
            }
            var existing = stat()
            let exists =
                fstatat(folder, name, &existing, AT_SYMLINK_NOFOLLOW) == 0
                && (existing.st_mode & S_IFMT) == S_IFREG
            let temporary = try Self.makeTemporary(in: folder, replacing: exists, failure)
            descriptor = temporary.descriptor
            temporaryName = temporary.name
            self.folder = folder
            if exists { try keepOwnerAndMode(of: existing, failure) }
        }
    }

    /// How an error of ``init(_:verb:)`` is said: `cannot write 'PATH': REASON`.
    private struct Failure {
        let path: String
        let verb: String

        func callAsFunction(_ reason: String, hint: String? = nil) -> ShellError {
            ShellError("cannot \(verb) '\(path)': \(reason)", hint: hint)
        }
    }

    /// Opens what a rename cannot replace, to be written through.
    private static func openInPlace(_ real: String, _ failure: Failure) throws(ShellError) -> Int32 {
        // NB: O_TRUNC empties a regular file reached through a descriptor's link (`/dev/stdout >
        // file`), as the shell's `>` does, and a device or a pipe ignores it.
        var opened: Int32
        repeat {
            opened = open(real, O_WRONLY | O_TRUNC | O_NOCTTY | O_CLOEXEC)
        } while opened < 0 && errno == EINTR
        guard opened >= 0 else { throw failure(reason(errno)) }
        #if canImport(Darwin)
            // NB: a write to a pipe whose reader is gone then fails with EPIPE instead of
            // raising SIGPIPE, which kills the app by default (Darwin raises it for the whole
            // process); see `OutputFile.write`.
            _ = fcntl(opened, F_SETNOSIGPIPE, 1)
        #endif
        return opened
    }

    /// Makes the new content's file in `folder` under a name no one can guess; closes `folder`
    /// when it cannot.
    private static func makeTemporary(in folder: Int32, replacing exists: Bool, _ failure: Failure)
        throws(ShellError) -> (descriptor: Int32, name: String)
    {
        for _ in 0..<16 {
            let candidate = ".fluxsh-" + String(UInt64.random(in: 0...UInt64.max), radix: 16) + ".tmp"
            // NB: O_EXCL and O_NOFOLLOW: a name that someone made meanwhile (a file or a link)
            // is never opened, only another one tried. A new file gets the usual mode (0666
            // less the umask); one that replaces a file starts private and takes its mode below.
            let made = openat(
                folder, candidate, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, exists ? 0o600 : 0o666)
            if made >= 0 { return (made, candidate) }
            guard errno == EEXIST || errno == EINTR else { break }
        }
        let code = errno
        close(folder)
        throw failure(
            code == EACCES || code == EPERM || code == EROFS
                ? "its folder cannot be written (\(reason(code)))" : reason(code),
            hint: code == EACCES || code == EPERM
                ? "the file is replaced by a new one written beside it: its folder must be writable" : nil)
    }

    /// Gives the new content the owner and the mode of `existing`, the file it replaces;
    /// abandons it when it cannot.
    private func keepOwnerAndMode(of existing: stat, _ failure: Failure) throws(ShellError) {
        var made = stat()
        fstat(descriptor, &made)
        // NB: owner first: changing it clears the set-user-ID and set-group-ID bits, which the
        // mode then puts back.
        if made.st_uid != existing.st_uid || made.st_gid != existing.st_gid,
            fchown(descriptor, existing.st_uid, existing.st_gid) != 0
        {
            let code = errno
            abandon()
            throw failure(
                "its owner (user \(existing.st_uid), group \(existing.st_gid)) cannot be kept: \(Self.reason(code))",
                hint: "write it as its owner: a file written in its place would change hands")
        }
        if fchmod(descriptor, existing.st_mode & 0o7777) != 0 {
            let code = errno
            abandon()
            throw failure("its mode cannot be kept: \(Self.reason(code))")
        }
    }

    /// Whether the file is written in place (a device, a pipe) rather than replaced.
    var isInPlace: Bool { folder < 0 }

    /// Puts the new content in the file's place: on disk first when `durable` (`fsync`), then
    /// renamed over the file. The descriptor stays open: the caller closes it, and may write on
    /// (``ScenarioRecorder`` appends to the file it started).
    ///
    /// - Throws: a ``ShellError`` when the content or the rename fails; the file is then as it was.
    func commit(durable: Bool = true) throws(ShellError) {
        guard !isInPlace else { return }
        if durable, fsync(descriptor) != 0 {
            let code = errno
            abandon()
            throw ShellError("cannot \(verb) '\(path)': \(Self.reason(code))")
        }
        guard renameat(folder, temporaryName, folder, name) == 0 else {
            let code = errno
            abandon()
            throw ShellError("cannot \(verb) '\(path)': \(Self.reason(code))")
        }
        // NB: the folder is not synced: after a power cut the name may still give the old file,
        // but whole, as the new one is (synced above). Syncing the folder too would make every
        // `save` wait for the disk once more.
        close(folder)
    }

    /// Removes the new content and closes everything: the file stays as it was.
    func abandon() {
        if !isInPlace {
            unlinkat(folder, temporaryName, 0)
            close(folder)
        }
        close(descriptor)
    }

    /// `errno` in words: `no space left on device`.
    static func reason(_ code: Int32) -> String { OutputFile.reason(code) }
}

/// A file's device and inode: what tells two paths to one file.
private struct FileIdentity: Equatable {
    let device: UInt64
    let inode: UInt64

    init(_ status: stat) {
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
    }
}

/// Where a path leads, every symbolic link resolved by hand, so that each link can be checked
/// before it is followed.
private struct Resolution {
    package enum Kind {
        /// A regular file, or none yet: written beside it in `folder` and renamed to `name`.
        case replaced(folder: String, name: String, folderIdentity: FileIdentity)
        /// A device, a pipe, a socket, or a file reached through a process's descriptor
        /// (`/dev/stdout`, `/proc/self/fd/N`): written through this path.
        case inPlace(String)
        case directory
    }

    struct Failure: Error {
        var reason: String
        var hint: String?
    }

    var kind: Kind

    /// The most links followed, as Linux's own limit (`ELOOP` past it).
    private static let linkLimit = 40

    init(_ path: String) throws(Failure) {
        guard !path.isEmpty else { throw Failure(reason: "no file name") }
        // NB: `resolved` is a path of folders that are not links (checked one by one), so `..`
        // can be taken off it by text.
        var resolved = path.hasPrefix("/") ? "/" : "."
        var pending = Self.components(of: path).reversed() as [Substring]
        var links = 0
        while let part = pending.popLast() {
            if part == "." { continue }
            if part == ".." {
                resolved = Self.parent(of: resolved)
                continue
            }
            let candidate = resolved == "/" ? "/" + part : resolved + "/" + part
            var status = stat()
            guard lstat(candidate, &status) == 0 else {
                let code = errno
                guard code == ENOENT else { throw Failure(reason: FileReplacement.reason(code)) }
                guard pending.isEmpty, !path.hasSuffix("/") else {
                    throw Failure(reason: "folder '\(Self.folder(of: path))' does not exist")
                }
                kind = .replaced(folder: resolved, name: String(part), folderIdentity: try Self.identity(of: resolved))
                return
            }
            switch status.st_mode & S_IFMT {
            case S_IFLNK:
                links += 1
                guard links <= Self.linkLimit else { throw Failure(reason: FileReplacement.reason(ELOOP)) }
                try Self.checkLink(candidate, status, in: resolved)
                if pending.isEmpty, resolved.hasPrefix("/proc/") {
                    // NB: a process's descriptor (`/dev/stdout` ends here): its link names what
                    // the descriptor is open on (`pipe:[…]`), not a path to replace.
                    kind = .inPlace(candidate)
                    return
                }
                let target = try Self.linkTarget(candidate)
                if target.hasPrefix("/") { resolved = "/" }
                pending += Self.components(of: target).reversed()
            case S_IFDIR:
                resolved = candidate
                if pending.isEmpty {
                    kind = .directory
                    return
                }
            case S_IFREG:
                guard pending.isEmpty else { throw Failure(reason: FileReplacement.reason(ENOTDIR)) }
                guard !path.hasSuffix("/") else { throw Failure(reason: FileReplacement.reason(ENOTDIR)) }
                kind = .replaced(folder: resolved, name: String(part), folderIdentity: try Self.identity(of: resolved))
                return
            default:
                guard pending.isEmpty else { throw Failure(reason: FileReplacement.reason(ENOTDIR)) }
                kind = .inPlace(candidate)
                return
            }
        }
        // NB: only `/`, `.` or `..` parts: a folder.
        kind = .directory
    }

    /// Refuses to follow a link planted in a shared folder: a sticky folder that others may
    /// write, where the link belongs neither to this user nor to the folder's owner (the rule of
    /// Linux's `fs.protected_symlinks`).
    private static func checkLink(_ link: String, _ status: stat, in folder: String) throws(Failure) {
        var folderStatus = stat()
        guard lstat(folder, &folderStatus) == 0 else { throw Failure(reason: FileReplacement.reason(errno)) }
        let shared = folderStatus.st_mode & S_ISVTX != 0 && folderStatus.st_mode & S_IWOTH != 0
        guard shared, status.st_uid != geteuid(), status.st_uid != folderStatus.st_uid else { return }
        throw Failure(
            reason:
                "the symbolic link '\(link)' belongs to another user (user \(status.st_uid)) and is in a shared folder"
                + " (sticky, writable by all): it is not followed",
            hint:
                "another user may have planted it: write to the file it leads to by that file's own path, or remove the link"
        )
    }

    private static func linkTarget(_ link: String) throws(Failure) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(link, &buffer, buffer.count - 1)
        guard count >= 0 else { throw Failure(reason: FileReplacement.reason(errno)) }
        guard count > 0 else { throw Failure(reason: FileReplacement.reason(ENOENT)) }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func identity(of folder: String) throws(Failure) -> FileIdentity {
        var status = stat()
        guard stat(folder, &status) == 0 else { throw Failure(reason: FileReplacement.reason(errno)) }
        return FileIdentity(status)
    }

    private static func components(of path: String) -> [Substring] {
        path.split(separator: "/", omittingEmptySubsequences: true)
    }

    /// `resolved` without its last folder; `..` added past the start of a relative path.
    private static func parent(of resolved: String) -> String {
        if resolved == "/" { return "/" }
        if resolved == "." { return ".." }
        if resolved == ".." || resolved.hasSuffix("/..") { return resolved + "/.." }
        guard let slash = resolved.lastIndex(of: "/") else { return "." }
        return slash == resolved.startIndex ? "/" : String(resolved[..<slash])
    }

    /// The folder of `path` as the user wrote it: `/a/b` for `/a/b/c`, `.` for `c`.
    private static func folder(of path: String) -> String {
        var path = Substring(path)
        while path.count > 1, path.hasSuffix("/") { path = path.dropLast() }
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
