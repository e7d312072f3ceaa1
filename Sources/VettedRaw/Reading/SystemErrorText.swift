#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Words for the `errno` values a read or write of a file meets, without
/// `strerror` (which hands back a C pointer): `"no space left on device
/// (errno 28)"`. Others are named by number.
public enum SystemErrorText {
    public static func describe(_ code: Int32) -> String {
        let words: String? =
            switch code {
            case ENOSPC: "no space left on device"
            case EDQUOT: "disk quota exceeded"
            case EACCES, EPERM: "permission denied"
            case ENOENT: "no such file or folder"
            case EBADF: "bad file descriptor (closed?)"
            case EPIPE: "broken pipe (the reader has gone)"
            case EIO: "input/output error"
            case EROFS: "read-only file system"
            case EEXIST: "the file exists"
            case EMFILE, ENFILE: "too many open files"
            case ENOTDIR: "a component of the path is not a folder"
            case EISDIR: "is a folder"
            case ENAMETOOLONG: "file name too long"
            default: nil
            }
        return words.map { "\($0) (errno \(code))" } ?? "errno \(code)"
    }
}
