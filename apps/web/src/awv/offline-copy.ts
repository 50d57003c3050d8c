import type { Answers } from "@core-care/survey-engine";
import type { PatientLanguage } from "@core-care/schema";
import { fromBase64, toBase64 } from "../bytes-text";

/**
 * What the Tele-AWV page keeps in the browser while it cannot reach the server: the answers, the step,
 * the language, when they were typed, and whether the patient has pressed Submit. Removed as soon as
 * the server has them.
 */
export interface OfflineCopy {
  answers: Answers;
  pageIndex: number;
  language: PatientLanguage;
  savedAt: number;
  submit: boolean;
}

const PREFIX = "coreCare.teleAwv.";
const encoder = new TextEncoder();

async function digest(subtle: SubtleCrypto, label: string, token: string): Promise<Uint8Array<ArrayBuffer>> {
  return new Uint8Array(await subtle.digest("SHA-256", encoder.encode(`${label}\n${token}`)));
}

function isCopy(value: unknown): value is OfflineCopy {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.answers === "object" &&
    v.answers !== null &&
    typeof v.pageIndex === "number" &&
    (v.language === "en" || v.language === "es") &&
    typeof v.savedAt === "number" &&
    typeof v.submit === "boolean"
  );
}

/**
 * The browser copy of one link's answers. It is stored under a name derived from the link's token and
 * sealed (AES-GCM) with a key derived from it, so it can be read only by the page that holds that very
 * link: another patient's link opened in the same browser finds nothing it can read.
 */
export class OfflineStore {
  private constructor(
    private readonly storage: Storage,
    private readonly subtle: SubtleCrypto,
    private readonly name: string,
    private readonly key: CryptoKey,
  ) {}

  /** The store of the link with `token`; null where the page has no Web Crypto (nothing is kept). */
  static async open(
    storage: Storage,
    token: string,
    subtle: SubtleCrypto | null = globalThis.crypto?.subtle ?? null,
  ): Promise<OfflineStore | null> {
    if (subtle === null || token === "") return null;
    const name = Array.from((await digest(subtle, "name", token)).slice(0, 12), (b) =>
      b.toString(16).padStart(2, "0"),
    ).join("");
    const key = await subtle.importKey("raw", await digest(subtle, "key", token), "AES-GCM", false, [
      "encrypt",
      "decrypt",
    ]);
    return new OfflineStore(storage, subtle, `${PREFIX}${name}`, key);
  }

  async save(copy: OfflineCopy): Promise<void> {
    const iv = globalThis.crypto.getRandomValues(new Uint8Array(12));
    const sealed = new Uint8Array(
      await this.subtle.encrypt({ name: "AES-GCM", iv }, this.key, encoder.encode(JSON.stringify(copy))),
    );
    try {
      this.storage.setItem(this.name, JSON.stringify({ iv: toBase64(iv), data: toBase64(sealed) }));
    } catch {
      // Storage full or disabled: the answers stay in the page's memory only.
    }
  }

  async load(): Promise<OfflineCopy | null> {
    try {
      const raw = this.storage.getItem(this.name);
      if (raw === null) return null;
      const { iv, data } = JSON.parse(raw) as { iv: string; data: string };
      const plain = await this.subtle.decrypt(
        { name: "AES-GCM", iv: fromBase64(iv) },
        this.key,
        fromBase64(data),
      );
      const copy = JSON.parse(new TextDecoder().decode(plain)) as unknown;
      if (isCopy(copy)) return copy;
    } catch {
      // Tampered with or unreadable: dropped below.
    }
    this.clear();
    return null;
  }

  clear(): void {
    try {
      this.storage.removeItem(this.name);
    } catch {
      // Storage disabled: nothing was kept.
    }
  }
}
