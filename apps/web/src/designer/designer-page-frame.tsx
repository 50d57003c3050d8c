import type { ReactNode } from "react";
import { Link } from "react-router-dom";
import { useMe, may } from "../api/session";
import { usePageTitle } from "../portal/page-title";
import type { EntityDocuments } from "./remote-save";
import { UnsavedChangesGuard } from "./unsaved-guard";
import { useDesignerDocument } from "./use-designer-document";

/** A loaded document as a designer edits it. */
export interface DesignerView<T> {
  document: T;
  saved: boolean;
  /** Shared by another practice, or the user is not an administrator. */
  readOnly: boolean;
  /** Another practice's document offered for subscription. */
  shared: boolean;
  saving: boolean;
  onEdit: (change: (document: T) => T) => void;
  onSave: () => Promise<boolean>;
}

interface DesignerPageFrameProps<E extends keyof EntityDocuments> {
  entity: E;
  id: string;
  children: (view: DesignerView<EntityDocuments[E]>) => ReactNode;
}

/** Opens `id` of `entity` and shows its designer, or the page's loading state or error. */
export function DesignerPageFrame<E extends keyof EntityDocuments>({
  entity,
  id,
  children,
}: DesignerPageFrameProps<E>) {
  const me = useMe();
  const canEdit = may(me, "editSurveys");
  const { state, saving, edit, save, leaving } = useDesignerDocument(entity, id);
  const dirty = state.status === "ready" && !state.saved && !state.readOnly && canEdit;
  const name = entity.charAt(0).toUpperCase() + entity.slice(1);
  usePageTitle(state.status === "ready" ? `${name}: ${state.document.title}` : `${name} designer`);

  if (state.status === "loading") return <div className="page-loading" aria-busy="true" />;
  if (state.status === "error") {
    return (
      <section>
        <div className="page-header">
          <h1>{`${name} designer`}</h1>
        </div>
        <p className="notice" role="alert">
          {state.message}
        </p>
        <Link to={`/${entity}s`}>{`Back to ${entity}s`}</Link>
      </section>
    );
  }
  return (
    <>
      <UnsavedChangesGuard when={dirty} what={entity} allowed={leaving} onSave={save} />
      {children({
        document: state.document,
        saved: state.saved,
        readOnly: state.readOnly || !canEdit,
        shared: state.readOnly,
        saving,
        onEdit: edit,
        onSave: save,
      })}
    </>
  );
}

/**
 * A designer's save state, announced as it changes, and its Save button (none for a read-only
 * document): what the header of every designer shows.
 */
export function SaveState<T extends { version: number }>({ view }: { view: DesignerView<T> }) {
  const { document, readOnly, saved, saving, onSave } = view;
  return (
    <>
      <span className="designer-status" role="status">
        {readOnly
          ? `Read-only, version ${document.version}`
          : saved
            ? `All changes saved (version ${document.version})`
            : "Unsaved changes"}
      </span>
      {readOnly ? null : (
        <button type="button" className="button primary" disabled={saving} onClick={() => void onSave()}>
          {saving ? "Saving..." : "Save"}
        </button>
      )}
    </>
  );
}
