/** The documents the designer edits; the name is also their browser-storage key (SPEC 9). */
export type EntityName = "survey" | "report";

/** A document as the designer holds it: the fields it edits plus the saved-state marker. */
export interface Versioned {
  id: string;
  version: number;
}

/** The local copy: the document and whether it matches what the server holds. */
export interface LocalEntry<T extends Versioned> {
  document: T;
  saved: boolean;
}

/** Where failures of browser storage are reported; never given the document itself. */
export interface StorageLog {
  error(message: string, detail?: unknown): void;
}

/** Storage key of the last edited id: the entity name plus '_last_id' (SPEC 9). */
export function lastIdKey(entity: EntityName): string {
  return `${entity}_last_id`;
}

/**
 * Storage key of one document's own copy while it has unsaved edits: the entity name, a colon and its
 * id. The spec's keys hold the current document; this one keeps another document's edits when the
 * designer moves on to a second one, until they are saved.
 */
export function documentKey(entity: EntityName, id: string): string {
  return `${entity}:${id}`;
}

function isQuotaExceeded(error: unknown): boolean {
  return (
    error instanceof DOMException &&
    (error.name === "QuotaExceededError" || error.name === "NS_ERROR_DOM_QUOTA_REACHED" || error.code === 22)
  );
}

function errorName(error: unknown): string {
  if (typeof error === "object" && error !== null && "name" in error && typeof error.name === "string") {
    return error.name;
  }
  return typeof error;
}

/** Reads and writes the designer's local copy of one entity kind in browser storage. */
export interface LocalCopy<T extends Versioned> {
  /** The stored copy, or null when there is none or it cannot be read (the failure is only logged). */
  read(): LocalEntry<T> | null;
  /**
   * The stored copy of document `id`: the current copy when it is that document's, else that document's
   * own copy with its unsaved edits, or null.
   */
  readFor(id: string): LocalEntry<T> | null;
  /**
   * Stores the copy and its id as the last edited one, and keeps an unsaved copy under the document's
   * own key too (a saved one drops it: the server holds it); on quota exceeded the stored value is cleared.
   */
  write(document: T, saved: boolean): boolean;
  /** The id of the last edited document, or null. */
  lastId(): string | null;
  /** Removes the stored copy (and its document's own copy) and the last edited id. */
  clear(): void;
}

/**
 * The local copy of `entity` in `storage` (SPEC 4, 8, 9): the document under the entity name with its
 * saved-state marker, the last edited id under the entity name plus '_last_id'.
 */
export function createLocalCopy<T extends Versioned>(
  entity: EntityName,
  storage: Storage = window.localStorage,
  log: StorageLog = console,
): LocalCopy<T> {
  const readKey = (key: string): LocalEntry<T> | null => {
    try {
      const text = storage.getItem(key);
      if (text === null) return null;
      const parsed = JSON.parse(text) as Partial<LocalEntry<T>> | null;
      const document = parsed?.document;
      if (!document || typeof document.id !== "string" || typeof document.version !== "number") {
        log.error(`The local ${entity} copy has an unknown shape and is ignored.`);
        return null;
      }
      return { document, saved: parsed.saved === true };
    } catch (error) {
      log.error(`Could not read the local ${entity} copy (${errorName(error)}).`);
      return null;
    }
  };
  return {
    read() {
      return readKey(entity);
    },
    readFor(id) {
      const current = readKey(entity);
      if (current !== null && current.document.id === id) return current;
      const own = readKey(documentKey(entity, id));
      return own !== null && own.document.id === id ? own : null;
    },
    write(document, saved) {
      try {
        const text = JSON.stringify({ document, saved });
        storage.setItem(entity, text);
        storage.setItem(lastIdKey(entity), document.id);
        if (saved) storage.removeItem(documentKey(entity, document.id));
        else storage.setItem(documentKey(entity, document.id), text);
        return true;
      } catch (error) {
        if (isQuotaExceeded(error)) {
          try {
            storage.removeItem(entity);
            storage.removeItem(documentKey(entity, document.id));
          } catch (removeError) {
            log.error(`Could not clear the local ${entity} copy (${errorName(removeError)}).`);
          }
          log.error(`Browser storage is full; the local ${entity} copy was cleared.`);
        } else {
          log.error(`Could not store the local ${entity} copy (${errorName(error)}).`);
        }
        return false;
      }
    },
    lastId() {
      try {
        return storage.getItem(lastIdKey(entity));
      } catch (error) {
        log.error(`Could not read the last edited ${entity} id (${errorName(error)}).`);
        return null;
      }
    },
    clear() {
      try {
        const current = readKey(entity);
        if (current !== null) storage.removeItem(documentKey(entity, current.document.id));
        storage.removeItem(entity);
        storage.removeItem(lastIdKey(entity));
      } catch (error) {
        log.error(`Could not clear the local ${entity} copy (${errorName(error)}).`);
      }
    },
  };
}
