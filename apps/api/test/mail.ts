import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { simpleParser, type ParsedMail } from "mailparser";

/** The .eml files the development mailer wrote to DATA_DIR/outbox, oldest first. */
export function outboxMessages(dataDir: string): string[] {
  const dir = join(dataDir, "outbox");
  let files: string[];
  try {
    files = readdirSync(dir)
      .filter((name) => name.endsWith(".eml"))
      .sort();
  } catch {
    return [];
  }
  return files.map((f) => readFileSync(join(dir, f), "utf8"));
}

/** The `pwd` token of the reset link in a message (quoted-printable soft breaks undone). */
export function resetTokenOf(message: string): string {
  const unfolded = message.replace(/=\r?\n/g, "").replace(/=3D/g, "=");
  const match = /\/auth\/changepassword\?email=[^&\s]+&pwd=([A-Za-z0-9_-]+)/.exec(unfolded);
  if (match?.[1] === undefined) throw new Error("no reset link in the message");
  return match[1];
}

/** A real SMTP server on 127.0.0.1 that keeps every message it receives. */
export async function startSmtpPeer(): Promise<{
  url: string;
  messages: ParsedMail[];
  close(): Promise<void>;
}> {
  const messages: ParsedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream).then(
        (mail) => {
          messages.push(mail);
          callback();
        },
        (err: Error) => callback(err),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The token of the invitation link in a message (quoted-printable soft breaks undone). */
export function invitationTokenOf(message: string): string {
  const unfolded = message.replace(/=\r?\n/g, "").replace(/=3D/g, "=");
  const match = /\/invitation#token=([A-Za-z0-9_-]+)/.exec(unfolded);
  if (match?.[1] === undefined) throw new Error("no invitation link in the message");
  return match[1];
}
