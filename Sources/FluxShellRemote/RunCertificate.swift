import CNIOBoringSSL
import FluxShell
import NIOSSL

/// The certificate `fluxsh listen` makes for its run: a new P-256 key, self-signed, valid for a
/// week, never written to disk. An app trusts it by its SHA-256 fingerprint from the pairing code,
/// not by any authority.
///
/// NB: the only code of the package that calls BoringSSL itself, as swift-nio-ssl's own tests do to
/// make certificates (swift-nio-ssl has no API for it). `CNIOBoringSSL` is swift-nio-ssl's module,
/// not a product of it: the package takes swift-nio-ssl up to its next minor version only. It is safe: every object is made, used and
/// freed in one function, each pointer is checked before use, and what leaves is DER bytes, which
/// swift-nio-ssl parses again into its own types.
struct RunCertificate {
    let certificate: NIOSSLCertificate
    let key: NIOSSLPrivateKey
    /// SHA-256 of the certificate's DER form.
    let fingerprint: [UInt8]

    /// Makes a key and a certificate for it.
    static func make() throws(ShellError) -> RunCertificate {
        guard let (certificateDER, keyDER) = makeDER() else {
            throw ShellError("cannot make a certificate for this run: BoringSSL refused")
        }
        do {
            return RunCertificate(
                certificate: try NIOSSLCertificate(bytes: certificateDER, format: .der),
                key: try NIOSSLPrivateKey(bytes: keyDER, format: .der),
                fingerprint: fingerprint(of: certificateDER))
        } catch {
            throw ShellError("cannot make a certificate for this run: \(error)")
        }
    }

    /// SHA-256 of `der`.
    static func fingerprint(of der: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        der.withUnsafeBufferPointer { bytes in
            digest.withUnsafeMutableBufferPointer { out in
                _ = SHA256(bytes.baseAddress, bytes.count, out.baseAddress)
            }
        }
        return digest
    }

    /// The certificate and its private key, each in DER; nil if BoringSSL fails at any step.
    private static func makeDER() -> (certificate: [UInt8], key: [UInt8])? {
        guard let context = EVP_PKEY_CTX_new_id(EVP_PKEY_EC, nil) else { return nil }
        defer { EVP_PKEY_CTX_free(context) }
        var made: OpaquePointer?
        guard EVP_PKEY_keygen_init(context) == 1,
            EVP_PKEY_CTX_set_ec_paramgen_curve_nid(context, NID_X9_62_prime256v1) == 1,
            EVP_PKEY_keygen(context, &made) == 1, let key = made
        else { return nil }
        defer { EVP_PKEY_free(key) }
        guard let certificate = X509_new() else { return nil }
        defer { X509_free(certificate) }
        guard X509_set_version(certificate, 2) == 1,
            setSerialNumber(certificate),
            let notBefore = X509_getm_notBefore(certificate), X509_gmtime_adj(notBefore, -3_600) != nil,
            let notAfter = X509_getm_notAfter(certificate), X509_gmtime_adj(notAfter, 7 * 86_400) != nil,
            X509_set_pubkey(certificate, key) == 1,
            let name = X509_get_subject_name(certificate),
            X509_NAME_add_entry_by_NID(name, NID_commonName, MBSTRING_UTF8, "fluxsh listen", -1, -1, 0) == 1,
            X509_set_issuer_name(certificate, name) == 1,
            X509_sign(certificate, key, EVP_sha256()) > 0
        else { return nil }
        guard let certificateDER = der(certificate, i2d_X509), let keyDER = der(key, i2d_PrivateKey) else {
            return nil
        }
        return (certificateDER, keyDER)
    }

    /// A random positive serial number of 16 bytes.
    private static func setSerialNumber(_ certificate: OpaquePointer) -> Bool {
        var generator = SystemRandomNumberGenerator()
        var bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        bytes[0] &= 0x7F
        guard let number = BN_bin2bn(bytes, bytes.count, nil) else { return false }
        defer { BN_free(number) }
        guard let serial = BN_to_ASN1_INTEGER(number, nil) else { return false }
        defer { ASN1_INTEGER_free(serial) }
        return X509_set_serialNumber(certificate, serial) == 1
    }

    /// The DER bytes `encode` writes for `object` (BoringSSL's `i2d_` functions).
    private static func der(
        _ object: OpaquePointer,
        _ encode: (OpaquePointer?, UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?) -> Int32
    ) -> [UInt8]? {
        let count = encode(object, nil)
        guard count > 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(count))
        let written = bytes.withUnsafeMutableBufferPointer { buffer in
            var cursor = buffer.baseAddress
            return encode(object, &cursor)
        }
        return written == count ? bytes : nil
    }
}
