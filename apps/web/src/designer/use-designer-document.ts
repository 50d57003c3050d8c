import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { ApiError } from "../api/client";
import { createLocalCopy } from "./local-copy";
import {
  browserDialogs,
  openDocument,
  saveRemote,
  type EntityDocuments,
  type SaveDialogs,
} from "./remote-save";

/**
 * Quiet time after the last edit before the local copy is written: writing the whole document to
 * browser storage on every keystroke cost more than the keystroke itself on a large survey. The copy
 * is also written at once when the page is hidden or left, the designer closes, or a save starts.
 */
export const LOCAL_COPY_DELAY_MS = 400;

/** The state of a document open in a designer. */
export type DesignerState<T> =
  | { status: "loading" }
  | { status: "error"; message: string }
  | { status: "ready"; document: T; saved: boolean; readOnly: boolean };

/** A document open in a designer, with its edit and save actions. */
export interface DesignerDocument<T> {
  state: DesignerState<T>;
  saving: boolean;
  /** Applies an edit; the local copy, marked unsaved, is written once edits pause. */
  edit: (change: (document: T) => T) => void;
  /** Saves to the server with the version check and its dialogs; true when the server took it. */
  save: () => Promise<boolean>;
  /** True while the page is being left on purpose (the conflict's reload, signing out after a 401). */
  leaving: () => boolean;
}

/**
 * Opens `id` of `entity` for editing (SPEC 4): from the local copy when the server has nothing newer,
 * every edit kept in browser storage, saved remotely with the conflict question.
 */
export function useDesignerDocument<E extends keyof EntityDocuments>(
  entity: E,
  id: string,
  dialogs: SaveDialogs = browserDialogs,
): DesignerDocument<EntityDocuments[E]> {
  type Doc = EntityDocuments[E];
  const local = useMemo(() => createLocalCopy<Doc>(entity), [entity]);
  // The save's own reload and sign-out leave the page on purpose: no question about unsaved work then.
  const leavingOnPurpose = useRef(false);
  const leaving = useCallback(() => leavingOnPurpose.current, []);
  const saveDialogs = useMemo<SaveDialogs>(
    () => ({
      ...dialogs,
      reload: () => {
        leavingOnPurpose.current = true;
        dialogs.reload();
      },
      unauthorized: () => {
        leavingOnPurpose.current = true;
        dialogs.unauthorized();
      },
    }),
    [dialogs],
  );
  const [state, setState] = useState<DesignerState<Doc>>({ status: "loading" });
  const [saving, setSaving] = useState(false);
  const current = useRef<DesignerState<Doc>>(state);
  current.current = state;

  useEffect(() => {
    let live = true;
    setState({ status: "loading" });
    openDocument(entity, id, local).then(
      (opened) => {
        if (live) setState({ status: "ready", ...opened });
      },
      (error: unknown) => {
        if (!live) return;
        if (error instanceof ApiError && error.status === 401) saveDialogs.unauthorized();
        const message =
          error instanceof ApiError && error.status === 404
            ? `This ${entity} was not found.`
            : error instanceof Error
              ? error.message
              : String(error);
        setState({ status: "error", message });
      },
    );
    return () => {
      live = false;
    };
  }, [entity, id, local, saveDialogs]);

  // The newest edited document not yet in browser storage, and the timer that will write it.
  const unwritten = useRef<Doc | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const writeLocal = useCallback(() => {
    clearTimeout(timer.current);
    timer.current = undefined;
    const document = unwritten.current;
    unwritten.current = null;
    if (document !== null) local.write(document, false);
  }, [local]);

  useEffect(() => {
    const onVisibility = () => {
      if (window.document.visibilityState === "hidden") writeLocal();
    };
    window.addEventListener("pagehide", writeLocal);
    window.document.addEventListener("visibilitychange", onVisibility);
    return () => {
      window.removeEventListener("pagehide", writeLocal);
      window.document.removeEventListener("visibilitychange", onVisibility);
      writeLocal();
    };
  }, [writeLocal]);

  const edit = useCallback(
    (change: (document: Doc) => Doc) => {
      const now = current.current;
      if (now.status !== "ready" || now.readOnly) return;
      const document = change(now.document);
      unwritten.current = document;
      clearTimeout(timer.current);
      timer.current = setTimeout(writeLocal, LOCAL_COPY_DELAY_MS);
      const next: DesignerState<Doc> = { ...now, document, saved: false };
      current.current = next;
      setState(next);
    },
    [writeLocal],
  );

  const save = useCallback(async () => {
    const now = current.current;
    if (now.status !== "ready" || now.readOnly) return false;
    writeLocal();
    setSaving(true);
    try {
      const outcome = await saveRemote(entity, now.document, local, saveDialogs);
      if (outcome.status === "saved") {
        const latest = current.current;
        // Edits made while the save was on its way stay unsaved, on top of the new version.
        const next: DesignerState<Doc> =
          latest.status === "ready" && latest.document !== now.document
            ? { ...latest, document: { ...latest.document, version: outcome.document.version }, saved: false }
            : { status: "ready", document: outcome.document, saved: true, readOnly: false };
        // What this writes holds every edit so far, on the new version: an older unwritten copy must not follow it.
        clearTimeout(timer.current);
        unwritten.current = null;
        if (!next.saved && next.status === "ready") local.write(next.document, false);
        current.current = next;
        setState(next);
        return next.saved;
      }
      return false;
    } finally {
      setSaving(false);
    }
  }, [entity, local, saveDialogs, writeLocal]);

  return { state, saving, edit, save, leaving };
}
