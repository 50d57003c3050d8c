import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A certificate and its key, as PEM files on disk and as text. */
export interface CertFiles {
  certFile: string;
  keyFile: string;
  cert: string;
  key: string;
}

export interface ThrowawayPki {
  dir: string;
  ca: CertFiles;
  /** The listener's certificate for 127.0.0.1, signed by `ca`. */
  server: CertFiles;
  /** A client's certificate signed by `ca`. */
  client: CertFiles;
  /** Another CA, and a client certificate it signed: not trusted by the listener. */
  strangerCa: CertFiles;
  strangerClient: CertFiles;
  remove(): void;
}

const CONFIG = `
[req]
distinguished_name = dn
prompt = no
[dn]
CN = unused
[ca]
basicConstraints = critical, CA:TRUE
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
[server]
basicConstraints = CA:FALSE
subjectAltName = IP:127.0.0.1
extendedKeyUsage = serverAuth
[client]
basicConstraints = CA:FALSE
extendedKeyUsage = clientAuth
`;

/**
 * A CA, a server certificate for 127.0.0.1 and client certificates, made with the openssl command
 * (Debian's openssl package) in a temporary folder, valid for two days, EC P-256 keys.
 */
export function makeThrowawayPki(): ThrowawayPki {
  const dir = mkdtempSync(join(tmpdir(), "inbound-tls-"));
  const config = join(dir, "openssl.cnf");
  writeFileSync(config, CONFIG);
  const openssl = (...args: string[]) => execFileSync("openssl", args, { cwd: dir, stdio: "pipe" });
  const files = (name: string): CertFiles => {
    const certFile = join(dir, `${name}.crt`);
    const keyFile = join(dir, `${name}.key`);
    return { certFile, keyFile, cert: readFileSync(certFile, "utf8"), key: readFileSync(keyFile, "utf8") };
  };
  const newKey = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];
  const ca = (name: string, subject: string) => {
    openssl(
      "req",
      "-x509",
      "-config",
      config,
      "-extensions",
      "ca",
      ...newKey,
      "-keyout",
      `${name}.key`,
      "-out",
      `${name}.crt`,
      "-days",
      "2",
      "-subj",
      subject,
    );
    return files(name);
  };
  let serial = 1;
  const signed = (name: string, subject: string, by: string, extensions: string) => {
    openssl(
      "req",
      "-new",
      "-config",
      config,
      ...newKey,
      "-keyout",
      `${name}.key`,
      "-out",
      `${name}.csr`,
      "-subj",
      subject,
    );
    openssl(
      "x509",
      "-req",
      "-in",
      `${name}.csr`,
      "-CA",
      `${by}.crt`,
      "-CAkey",
      `${by}.key`,
      "-set_serial",
      String((serial += 1)),
      "-days",
      "2",
      "-extfile",
      config,
      "-extensions",
      extensions,
      "-out",
      `${name}.crt`,
    );
    return files(name);
  };
  return {
    dir,
    ca: ca("ca", "/CN=Throwaway inbound test CA"),
    server: signed("server", "/CN=127.0.0.1", "ca", "server"),
    client: signed("client", "/CN=EHR interface engine", "ca", "client"),
    strangerCa: ca("stranger-ca", "/CN=Throwaway stranger CA"),
    strangerClient: signed("stranger-client", "/CN=Someone else", "stranger-ca", "client"),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
