import type { DbOrTx } from "../db/index.js";
import { badRequest } from "../errors.js";
import { getInterfaceWithSecret, sftpTargetOf } from "../services/interfaces.js";
import { checkSftp, type SftpCheck } from "./sftp.js";

/**
 * The connection check of an SFTP interface: the host key the server presents, whether it is the one
 * confirmed, and with that key whether the account signs in (`checkSftp`). A server that cannot be
 * reached answers 400 with the reason in words.
 */
export async function checkSftpInterface(db: DbOrTx, tenantId: string, id: string): Promise<SftpCheck> {
  const row = await getInterfaceWithSecret(db, tenantId, id);
  if (row.type !== "sftp" && row.type !== "cda-sftp") {
    throw badRequest("Only an SFTP interface has a host key to check.");
  }
  try {
    return await checkSftp(sftpTargetOf(row));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw badRequest(`The SFTP server at ${row.host}:${row.port} could not be reached: ${reason}`);
  }
}
