import { mkdir, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import nodemailer from "nodemailer";
import type { FastifyBaseLogger } from "fastify";
import { objectId } from "@core-care/survey-engine";
import type { Config } from "../config.js";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/** Sends e-mail; callers never log the recipient or the body (both may be PHI). */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
  /** Where development mail is written when no SMTP_URL is set; undefined when mail goes over SMTP. */
  readonly outboxDir: string | undefined;
}

/**
 * Mail over SMTP_URL through nodemailer. Without SMTP_URL, development and test write each message as
 * an .eml file to DATA_DIR/outbox so the product runs offline; production refuses to send.
 */
export function createMailer(config: Config, log: FastifyBaseLogger): Mailer {
  const from = config.mailFrom;
  if (config.smtpUrl !== undefined) {
    const transport = nodemailer.createTransport(config.smtpUrl);
    return {
      outboxDir: undefined,
      async send(message) {
        await transport.sendMail({ from, ...message });
        log.info({ subject: message.subject }, "mail sent");
      },
    };
  }
  const outboxDir = join(config.dataDir, "outbox");
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  return {
    outboxDir: config.nodeEnv === "production" ? undefined : outboxDir,
    async send(message) {
      if (config.nodeEnv === "production")
        throw new Error("SMTP_URL is not configured; mail cannot be sent.");
      const info = await transport.sendMail({ from, ...message });
      await mkdir(outboxDir, { recursive: true, mode: 0o700 });
      const file = `${new Date().toISOString().replace(/[:.]/g, "-")}-${objectId()}.eml`;
      // Written aside and renamed, so a reader of the outbox never meets a message half written.
      const part = join(outboxDir, `.${file}.part`);
      await writeFile(part, info.message as Buffer, { mode: 0o600 });
      await rename(part, join(outboxDir, file));
      log.info({ file, subject: message.subject }, "mail written to outbox");
    },
  };
}
