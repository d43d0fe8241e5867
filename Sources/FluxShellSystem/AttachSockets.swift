#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where running apps serve their stores: one Unix domain socket per app,
/// `$XDG_RUNTIME_DIR/fluxsh/NAME.sock` (else `/tmp/fluxsh-UID/NAME.sock`), in a folder only its
/// user can enter. The app's agent makes the socket; `fluxsh attach` finds it.
package enum AttachSockets {
    /// The folder of the sockets.
    public static var folder: String {
        if let runtime = getenv("XDG_RUNTIME_DIR").map({ String(cString: $0) }), !runtime.isEmpty {
            return runtime + "/fluxsh"
        }
        return "/tmp/fluxsh-\(getuid())"
    }

    /// Throws unless `name` can name an app: letters, digits, `-`, `_` and `.`, 64 at most, not
    /// beginning with `.`.
    package static func checkName(_ name: String) throws(ShellError) {
        guard !name.isEmpty, name.utf8.count <= 64,
            name.utf8.allSatisfy({
                isalnum(Int32($0)) != 0 || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: ".")
            }),
            name.first != "."
        else {
            throw ShellError(
                "'\(name)' cannot name an app: use letters, digits, '-', '_' and '.' (64 at most)",
                hint: "e.g. ShellAgent(serving: flux, as: \"notes\")")
        }
    }

    /// The socket of the app named `name`.
    public static func path(for name: String) throws(ShellError) -> String {
        try checkName(name)
        let path = folder + "/" + name + ".sock"
        // NB: a socket's path must fit in `sockaddr_un.sun_path` (108 bytes on Linux, 104 on macOS).
        guard path.utf8.count < 104 else {
            throw ShellError(
                "the socket path '\(path)' is too long for a Unix socket",
                hint: "set XDG_RUNTIME_DIR to a shorter folder")
        }
        return path
    }

    /// Makes the folder (mode 0700), or checks that the one there belongs to this user and that
    /// no one else can enter it.
    public static func prepareFolder() throws(ShellError) {
        let folder = folder
        if mkdir(folder, 0o700) != 0, errno != EEXIST {
            throw ShellError("cannot make the folder '\(folder)': \(String(cString: strerror(errno)))")
        }
        var info = stat()
        guard lstat(folder, &info) == 0 else {
            throw ShellError("cannot read the folder '\(folder)': \(String(cString: strerror(errno)))")
        }
        guard info.st_mode & S_IFMT == S_IFDIR, info.st_uid == getuid() else {
            throw ShellError(
                "'\(folder)' is not a folder of this user's: the app's stores are not served there",
                hint: "remove it, or set XDG_RUNTIME_DIR to a folder of your own")
        }
        if info.st_mode & 0o077 != 0, chmod(folder, 0o700) != 0 {
            throw ShellError("cannot make '\(folder)' private: \(String(cString: strerror(errno)))")
        }
    }

    /// Checks that `folder` is one of this user's that no other user can write to: a shell sends
    /// its commands (a token in one, say) only to a socket there.
    ///
    /// - Returns: `false` when there is no such folder (no app ever served there).
    /// - Throws: ``ShellError`` when the folder is another user's, can be written by others, or
    ///   is not a folder (a link).
    public static func checkFolderTrusted(_ folder: String) throws(ShellError) -> Bool {
        var info = stat()
        guard lstat(folder, &info) == 0 else {
            if errno == ENOENT { return false }
            throw ShellError("cannot read the folder '\(folder)': \(String(cString: strerror(errno)))")
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw ShellError(
                "refused: '\(folder)' is not a folder (a link, or a file): no command was sent",
                hint: "remove it, or set XDG_RUNTIME_DIR to a folder of your own")
        }
        guard info.st_uid == getuid() else {
            throw ShellError(
                "refused: the folder '\(folder)' belongs to another user (uid \(info.st_uid)): no command was sent",
                hint: "remove it, or set XDG_RUNTIME_DIR to a folder of your own")
        }
        guard info.st_mode & 0o022 == 0 else {
            throw ShellError(
                "refused: other users can write to the folder '\(folder)': no command was sent",
                hint: "chmod go-w '\(folder)' (apps make it with mode 0700)")
        }
        return true
    }

    /// The user id of the process at the other end of the Unix socket `descriptor` (the one that
    /// listens, for a connected shell), as the kernel recorded it; `nil` when it cannot say.
    public static func peerUser(of descriptor: Int32) -> uid_t? {
        #if canImport(Darwin)
            var user = uid_t()
            var group = gid_t()
            return getpeereid(descriptor, &user, &group) == 0 ? user : nil
        #else
            // NB: `struct ucred` as the kernel writes it (glibc shows it to C only with _GNU_SOURCE).
            struct Credentials {
                var pid: Int32 = 0
                var uid: UInt32 = 0
                var gid: UInt32 = 0
            }
            var credentials = Credentials()
            var size = socklen_t(MemoryLayout<Credentials>.size)
            // NB: getsockopt writes at most `size` bytes into `credentials`, a value of that size
            // on our stack.
            guard getsockopt(descriptor, SOL_SOCKET, SO_PEERCRED, &credentials, &size) == 0,
                size == socklen_t(MemoryLayout<Credentials>.size)
            else { return nil }
            return credentials.uid
        #endif
    }

    /// The right to serve one name, held for as long as an app serves it: a lock file beside the
    /// socket (`NAME.lock`), locked with `flock`. Two apps that start together cannot both hold it.
    public final class Claim: Sendable {
        private let descriptor: Int32
        private let path: String

        fileprivate init(descriptor: Int32, path: String) {
            self.descriptor = descriptor
            self.path = path
        }

        /// Gives up the name: the lock file is removed while still locked, then closed.
        ///
        /// NB: an app that opened the file meanwhile and then gets the lock sees that the name
        /// no longer leads to its file (`claim` compares them) and opens it again.
        public func release() {
            unlink(path)
            close(descriptor)
        }
    }

    /// Claims the name whose socket is `socketPath`, in the folder `prepareFolder()` made.
    ///
    /// - Throws: ``ShellError`` when another running app holds it, or the lock file cannot be made.
    public static func claim(_ socketPath: String, name: String) throws(ShellError) -> Claim {
        let path = String(socketPath.dropLast(".sock".count)) + ".lock"
        while true {
            let descriptor = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else {
                throw ShellError("cannot make the lock file '\(path)': \(String(cString: strerror(errno)))")
            }
            guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
                let error = errno
                close(descriptor)
                guard error == EWOULDBLOCK else {
                    throw ShellError("cannot lock '\(path)': \(String(cString: strerror(error)))")
                }
                throw servedElsewhere(name, socketPath)
            }
            var held = stat()
            var named = stat()
            if fstat(descriptor, &held) == 0, lstat(path, &named) == 0, held.st_ino == named.st_ino,
                held.st_dev == named.st_dev
            {
                return Claim(descriptor: descriptor, path: path)
            }
            // NB: the app that held it released it (and removed the file) between our open and
            // our lock: the lock is on a file no longer there.
            close(descriptor)
        }
    }

    /// The error of an app started under a name another running app serves.
    public static func servedElsewhere(_ name: String, _ socketPath: String) -> ShellError {
        ShellError("another running app is served as '\(name)' (\(socketPath))", hint: "give this one another name")
    }

    /// The names of the apps whose sockets are in the folder, sorted (a socket may be left over
    /// from an app that did not stop its agent: connecting tells).
    public static func names() -> [String] {
        let names = (try? FileSystem.names(in: folder).get()) ?? []
        return names.filter { $0.hasSuffix(".sock") && $0.count > 5 }.map { String($0.dropLast(5)) }.sorted()
    }

    /// Whether an app listens on the socket at `path` (a file left by an app that ended does not).
    public static func isServed(_ path: String) -> Bool {
        let socket = connected(to: path)
        guard socket >= 0 else { return false }
        close(socket)
        return true
    }

    /// A stream socket connected to `path`, or -1 with `errno` set.
    public static func connected(to path: String) -> Int32 {
        #if canImport(Darwin)
            let socket = Darwin.socket(AF_UNIX, SOCK_STREAM, 0)
        #else
            let socket = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        #endif
        guard socket >= 0 else { return -1 }
        let status = Platform.connect(socket, toSocketAt: path)
        guard status == 0 else {
            let error = errno
            close(socket)
            errno = error
            return -1
        }
        return socket
    }
}
