import Foundation

/// Every file-system access of the engine: reading scripts and scenarios, finding scenario
/// files, and writing files atomically (a file is never left half-written).
public enum FileSystem {
    /// The bytes of a file, or a ``ShellError`` saying why it cannot be read.
    public static func read(_ path: String) throws(ShellError) -> [UInt8] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ShellError("cannot read '\(path)': no such file")
        }
        guard !isDirectory.boolValue else { throw ShellError("cannot read '\(path)': it is a directory") }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ShellError("cannot read '\(path)': permission denied or unreadable")
        }
        return [UInt8](data)
    }

    /// Writes `text` to `path` through a temporary file in the same folder and a rename.
    public static func writeAtomically(_ text: String, to path: String) throws(ShellError) {
        let url = URL(fileURLWithPath: path)
        do {
            try Data(text.utf8).write(to: url, options: .atomic)
        } catch {
            let folder = url.deletingLastPathComponent().path
            let reason =
                FileManager.default.fileExists(atPath: folder)
                ? "permission denied or read-only file system" : "folder '\(folder)' does not exist"
            throw ShellError("cannot write '\(path)': \(reason)")
        }
    }

    public enum Kind { case file, directory, missing }

    public static func kind(of path: String) -> Kind {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return .missing }
        return isDirectory.boolValue ? .directory : .file
    }

    /// The files under `folder` (recursively) whose names end in `suffix`, sorted by path.
    public static func files(under folder: String, withSuffix suffix: String) -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: folder) else { return [] }
        var found: [String] = []
        while let relative = enumerator.nextObject() as? String {
            guard relative.hasSuffix(suffix) else { continue }
            let path = folder.hasSuffix("/") ? folder + relative : folder + "/" + relative
            if kind(of: path) == .file { found.append(path) }
        }
        return found.sorted()
    }
}

extension FileSystem {
    /// The names in a folder, folders with a trailing `/`; hidden entries left out.
    public static func entries(in folder: String) -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return [] }
        return names.filter { !$0.hasPrefix(".") }.map { name in
            let path = folder.hasSuffix("/") ? folder + name : folder + "/" + name
            return kind(of: path) == .directory ? name + "/" : name
        }
    }
}
