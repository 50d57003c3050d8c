import { useState } from "react";
import type { Interface, InterfaceCheck } from "@core-care/schema";
import { api, ApiError } from "../../api/client";
import { Modal } from "../../ui/modal";

const SFTP_TYPES: readonly string[] = ["sftp", "cda-sftp"];

/** The body of PUT /api/interfaces/{id} that confirms `hostKeySha256` and changes nothing else. */
function confirmBody(iface: Interface, hostKeySha256: string): Record<string, unknown> {
  const { id: _id, hasSecret: _secret, settings: _settings, ...fields } = iface;
  return { ...fields, hostKeySha256 };
}

/**
 * "Check connection" of an SFTP interface: shows the host key the server presents (SHA-256, as
 * `ssh-keygen -l` prints it) for the admin to compare with the receiver's and confirm. Nothing is sent to
 * an SFTP server whose key is not the confirmed one.
 */
export function HostKeyCheck({ iface }: { iface: Interface }) {
  const [open, setOpen] = useState(false);
  const [check, setCheck] = useState<InterfaceCheck | null>(null);
  const [error, setError] = useState("");
  const [confirmed, setConfirmed] = useState(false);
  if (!SFTP_TYPES.includes(iface.type)) return null;

  async function run() {
    setOpen(true);
    setCheck(null);
    setError("");
    setConfirmed(false);
    try {
      setCheck(
        await api.post<InterfaceCheck>(`/api/interfaces/${iface.id}/check-connection`, undefined, {
          handleErrors: true,
        }),
      );
    } catch (e) {
      setError(e instanceof ApiError ? e.message : "The check could not be made.");
    }
  }

  async function confirm(key: string) {
    try {
      await api.put(`/api/interfaces/${iface.id}`, confirmBody(iface, key), { handleErrors: true });
      setConfirmed(true);
    } catch (e) {
      setError(e instanceof ApiError ? e.message : "The key could not be saved.");
    }
  }

  return (
    <>
      <button type="button" className="button small" onClick={() => void run()}>
        Check connection<span className="visually-hidden"> of {iface.name}</span>
      </button>
      {open && (
        <Modal
          title={`Connection to ${iface.name}`}
          onClose={() => setOpen(false)}
          footer={
            check !== null && check.matches !== true && !confirmed ? (
              <button
                type="button"
                className="button primary"
                onClick={() => void confirm(check.hostKeySha256)}
              >
                Confirm this key
              </button>
            ) : undefined
          }
        >
          <div role="status" aria-live="polite">
            {check === null && error === "" && <p>Checking {iface.host}...</p>}
            {check !== null && (
              <>
                <p>The server at {iface.host} presents this host key:</p>
                <p>
                  <code>{check.hostKeySha256}</code>
                </p>
                <p>{check.message}</p>
                {check.matches !== true && !confirmed && (
                  <p>
                    Compare it with the fingerprint the receiver&apos;s administrator gives you before you
                    confirm it.
                  </p>
                )}
                {confirmed && (
                  <p className="notice success">Host key confirmed. Files are now sent to this server.</p>
                )}
              </>
            )}
          </div>
          {error !== "" && (
            <p className="form-error" role="alert">
              {error}
            </p>
          )}
        </Modal>
      )}
    </>
  );
}
