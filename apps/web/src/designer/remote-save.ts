import type { Report } from "@core-care/schema";
import type { Survey } from "@core-care/survey-engine";
import { api, ApiError, currentLocation } from "../api/client";
import type { EntityName, LocalCopy, Versioned } from "./local-copy";

/** The fields a save sends (SPEC 3: only these, for a survey; docs/api.md for a report). */
export const SAVED_FIELDS = {
  survey: ["id", "title", "description", "canSubscribeTo", "sections", "pages", "version"],
  report: ["id", "title", "script", "markup", "mock", "clinical", "version"],
} as const satisfies Record<EntityName, readonly string[]>;

/** The document type of each entity. */
export interface EntityDocuments {
  survey: Survey;
  report: Report;
}

/** Text of the overwrite question that follows the server's conflict message (SPEC 8). */
export const OVERWRITE_QUESTION =
  "Would you like to overwrite their changes (otherwise, you will lose your changes)?";

/** The alert of a failed save (SPEC 8). */
export function saveFailedMessage(message: string): string {
  return `Failed to save remotely: ${message}`;
}

/** The confirm text of a version conflict (SPEC 8). */
export function conflictQuestion(message: string): string {
  return `${message} ${OVERWRITE_QUESTION}`;
}

/** How the save talks to the person: the browser's alert, confirm and reload unless replaced. */
export interface SaveDialogs {
  alert(message: string): void | Promise<void>;
  confirm(message: string): boolean | Promise<boolean>;
  reload(): void;
  /** A 401: the session ended; the local copy stays for after signing in again. */
  unauthorized(): void;
}

/** The browser's own dialogs. */
export const browserDialogs: SaveDialogs = {
  alert: (message) => window.alert(message),
  confirm: (message) => window.confirm(message),
  reload: () => window.location.reload(),
  unauthorized: () =>
    window.location.assign(`/auth/logout?redirect=${encodeURIComponent(currentLocation())}`),
};

/** What a save came to. */
export type SaveOutcome<T> =
  { status: "saved"; document: T } | { status: "failed"; message: string } | { status: "discarded" };

/** The path of one document. */
export function documentPath(entity: EntityName, id: string): string {
  return `/api/${entity}s/${encodeURIComponent(id)}`;
}

/** The document reduced to the fields a save sends. */
export function savedFields<E extends EntityName>(
  entity: E,
  document: EntityDocuments[E],
): EntityDocuments[E] {
  const source = document as unknown as Record<string, unknown>;
  const picked: Record<string, unknown> = {};
  for (const field of SAVED_FIELDS[entity]) {
    if (source[field] !== undefined) picked[field] = source[field];
  }
  return picked as unknown as EntityDocuments[E];
}

/**
 * Saves `document` to the server with its version (SPEC 4, 8). Success: the local copy takes the
 * server's new version (the sent one + 1) and is marked saved. A conflict (409 whose numeric error
 * code is the server's version) asks whether to overwrite: Yes takes the server's version and saves
 * again, No marks the local copy saved and reloads so the server's copy is shown. Any other failure
 * alerts 'Failed to save remotely: {message}' and leaves the local copy unsaved.
 */
export async function saveRemote<E extends EntityName>(
  entity: E,
  document: EntityDocuments[E],
  local: LocalCopy<EntityDocuments[E]>,
  dialogs: SaveDialogs = browserDialogs,
): Promise<SaveOutcome<EntityDocuments[E]>> {
  let current = document;
  for (;;) {
    try {
      const answer = await api.post<Versioned>(
        documentPath(entity, current.id),
        savedFields(entity, current),
        {
          handleErrors: true,
        },
      );
      const saved = { ...current, version: answer.version };
      local.write(saved, true);
      return { status: "saved", document: saved };
    } catch (error) {
      const failure =
        error instanceof ApiError ? error : new ApiError(0, error instanceof Error ? error.message : "error");
      if (failure.status === 401) {
        local.write(current, false);
        dialogs.unauthorized();
        return { status: "failed", message: failure.message };
      }
      if (typeof failure.errorCode === "number") {
        const overwrite = await dialogs.confirm(conflictQuestion(failure.message));
        if (overwrite) {
          current = { ...current, version: failure.errorCode };
          local.write(current, false);
          continue;
        }
        local.write(current, true);
        dialogs.reload();
        return { status: "discarded" };
      }
      local.write(current, false);
      await dialogs.alert(saveFailedMessage(failure.message));
      return { status: "failed", message: failure.message };
    }
  }
}

/**
 * Loads a document (SPEC 7): with the version of a local copy of the same id as `newerThan`, so an
 * unchanged document is not downloaded again. Resolves to the server's copy, or undefined when the
 * local copy is current. Failures reject with the {@link ApiError} and show no banner: the caller reports them.
 */
export async function loadRemote<E extends EntityName>(
  entity: E,
  id: string,
  newerThan?: number,
): Promise<(EntityDocuments[E] & { readOnly?: boolean }) | undefined> {
  const query = newerThan === undefined ? undefined : { newerThan };
  const body = await api.get<(EntityDocuments[E] & { readOnly?: boolean }) | undefined>(
    documentPath(entity, id),
    query ? { query, handleErrors: true } : { handleErrors: true },
  );
  return body ?? undefined;
}

/** A document opened for editing, and where it came from. */
export interface OpenedDocument<T> {
  document: T;
  saved: boolean;
  readOnly: boolean;
  source: "local" | "server";
}

/**
 * Opens a document for editing: a local copy of the same id (the current copy, or that document's own copy
 * kept while another was edited) is used when the server has nothing newer;
 * a local copy with unsaved edits is kept even then, so its save meets the conflict question. Otherwise
 * the server's copy is stored locally and used. A new document not yet saved is opened from the local copy.
 */
export async function openDocument<E extends EntityName>(
  entity: E,
  id: string,
  local: LocalCopy<EntityDocuments[E]>,
): Promise<OpenedDocument<EntityDocuments[E]>> {
  const mine = local.readFor(id);
  // Version 0: created here and never saved, so the server cannot hold it yet.
  // A document's own copy (kept while another one was edited) becomes the current copy again (SPEC 9 keys).
  const becomeCurrent = () => {
    if (mine && local.read()?.document.id !== id) local.write(mine.document, mine.saved);
  };
  if (mine && mine.document.version === 0 && !mine.saved) {
    becomeCurrent();
    return { document: mine.document, saved: false, readOnly: false, source: "local" };
  }
  const fresh = await loadRemote(entity, id, mine?.document.version);
  if (mine && (fresh === undefined || !mine.saved)) {
    if (fresh?.readOnly !== true) becomeCurrent();
    return {
      document: mine.document,
      saved: mine.saved,
      readOnly: fresh?.readOnly ?? false,
      source: "local",
    };
  }
  if (fresh === undefined) throw new ApiError(404, `The ${entity} was not found.`);
  const { readOnly = false, ...document } = fresh;
  const copy = document as unknown as EntityDocuments[E];
  if (!readOnly) local.write(copy, true);
  return { document: copy, saved: true, readOnly, source: "server" };
}
