import { useCallback, useEffect, useId, useState } from "react";
import { api, formErrorMessage } from "../../api/client";
import { useMe } from "../../api/session";
import { RemoveRecordModal } from "../../ui/confirm-modal";
import { DataTable, sortRows, type Column, type SortState } from "../../ui/data-table";
import { Modal } from "../../ui/modal";
import { usePageTitle } from "../page-title";
import { formData, toText } from "../../ui/form";

/** A field of a resource's create/edit form. */
export interface FormFieldSpec {
  name: string;
  label: string;
  type?: "text" | "email" | "number" | "password" | "select" | "checkbox" | "checkboxes";
  required?: boolean;
  options?: readonly (readonly [value: string, label: string])[];
  hint?: string;
  /** Shown only when creating. */
  createOnly?: boolean;
  /** Shown only when editing. */
  editOnly?: boolean;
  /** Read-only when editing. */
  fixedOnEdit?: boolean;
}

/** Props of {@link ResourcePage}. */
export interface ResourcePageProps<T extends { id: string }> {
  title: string;
  singular: string;
  path: string;
  columns: Column<T>[];
  fields: FormFieldSpec[];
  rowLabel: (row: T) => string;
  toForm: (row: T) => Record<string, unknown>;
  fromForm: (values: Record<string, unknown>, editing: T | null) => Record<string, unknown>;
  allowed: (roles: number) => boolean;
  /** Inline editing of the selected row instead of the modal. */
  inline?: (row: T, values: Record<string, string>) => Record<string, unknown>;
  describe?: React.ReactNode;
}

function readFields(form: HTMLFormElement, fields: FormFieldSpec[]): Record<string, unknown> {
  // Fields fixed on edit are disabled, yet still part of the submit (SPEC 5).
  const data = formData(form);
  const values: Record<string, unknown> = {};
  for (const field of fields) {
    if (field.type === "checkbox") values[field.name] = data.get(field.name) === "on";
    else if (field.type === "checkboxes") values[field.name] = data.getAll(field.name).map(String);
    else {
      const value = data.get(field.name);
      if (typeof value === "string") values[field.name] = field.type === "password" ? value : value.trim();
    }
  }
  return values;
}

function FieldInput({ field, value, disabled }: { field: FormFieldSpec; value: unknown; disabled: boolean }) {
  const id = useId();
  if (field.type === "checkbox") {
    return (
      <div className="field">
        <label htmlFor={id}>
          <input
            id={id}
            name={field.name}
            type="checkbox"
            defaultChecked={value === true}
            disabled={disabled}
          />{" "}
          {field.label}
        </label>
        {field.hint && <p className="hint">{field.hint}</p>}
      </div>
    );
  }
  if (field.type === "checkboxes") {
    const chosen = Array.isArray(value) ? value.map(String) : [];
    return (
      <fieldset className="field">
        <legend>{field.label}</legend>
        {field.options?.map(([v, label]) => (
          <label key={v}>
            <input
              type="checkbox"
              name={field.name}
              value={v}
              defaultChecked={chosen.includes(v)}
              disabled={disabled}
            />{" "}
            {label}
          </label>
        ))}
      </fieldset>
    );
  }
  const text = toText(value);
  return (
    <div className="field">
      <label htmlFor={id}>
        {field.label}
        {field.required && <span aria-hidden="true"> *</span>}
      </label>
      {field.type === "select" ? (
        <select id={id} name={field.name} defaultValue={text} required={field.required} disabled={disabled}>
          <option value="">Choose...</option>
          {field.options?.map(([v, label]) => (
            <option key={v} value={v}>
              {label}
            </option>
          ))}
        </select>
      ) : (
        <input
          id={id}
          name={field.name}
          type={field.type ?? "text"}
          defaultValue={text}
          required={field.required}
          readOnly={disabled}
          autoComplete={field.type === "password" ? "new-password" : "off"}
        />
      )}
      {field.hint && <p className="hint">{field.hint}</p>}
    </div>
  );
}

/** A list-and-form screen for one admin resource: list, sort, create, edit and remove. */
export function ResourcePage<T extends { id: string }>(props: ResourcePageProps<T>) {
  const { title, singular, path, columns, fields, rowLabel, toForm, fromForm, allowed, inline } = props;
  usePageTitle(title);
  const me = useMe();
  const formId = useId();
  const [rows, setRows] = useState<T[] | null>(null);
  const [sort, setSort] = useState<SortState | undefined>(undefined);
  const [editing, setEditing] = useState<T | "new" | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [removing, setRemoving] = useState<T | null>(null);
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState("");
  const permitted = me ? allowed(me.user.roles) : false;

  const load = useCallback(async () => {
    const data = await api.get<{ items: T[] } | T[]>(path);
    setRows(Array.isArray(data) ? data : data.items);
  }, [path]);

  useEffect(() => {
    if (permitted) load().catch(() => undefined);
  }, [load, permitted]);

  if (!permitted) {
    return (
      <section>
        <h1>{title}</h1>
        <p>You do not have access to this screen.</p>
      </section>
    );
  }

  async function submit(form: HTMLFormElement) {
    const current = editing === "new" ? null : editing;
    const shown = fields.filter((f) => (current ? !f.createOnly : !f.editOnly));
    const body = fromForm(readFields(form, shown), current);
    setError("");
    setBusy(true);
    try {
      if (current) await api.put(`${path}/${encodeURIComponent(current.id)}`, body, { handleErrors: true });
      else await api.post(path, body, { handleErrors: true });
      setEditing(null);
      setNotice(`${singular} saved.`);
      await load();
    } catch (cause) {
      setError(formErrorMessage(cause));
    } finally {
      setBusy(false);
    }
  }

  async function saveInline(row: T, values: Record<string, string>) {
    if (!inline) return;
    await api.put(`${path}/${encodeURIComponent(row.id)}`, inline(row, values));
    setSelected(null);
    setNotice(`${singular} saved.`);
    await load();
  }

  async function remove(row: T) {
    setRemoving(null);
    await api.del(`${path}/${encodeURIComponent(row.id)}`);
    setNotice(`${singular} removed.`);
    await load();
  }

  const current = editing === "new" ? null : editing;
  const values = current ? toForm(current) : {};
  return (
    <section>
      <div className="page-header">
        <h1>{title}</h1>
        <button
          type="button"
          className="button primary"
          onClick={() => {
            setError("");
            setEditing("new");
          }}
        >
          New {singular.toLowerCase()}
        </button>
      </div>
      {props.describe}
      {notice && (
        <p className="notice success" role="status">
          {notice}
        </p>
      )}
      <DataTable
        caption={title}
        rows={sortRows(rows ?? [], sort, (row, key) => (row as Record<string, unknown>)[key])}
        rowKey={(r) => r.id}
        rowLabel={rowLabel}
        columns={columns.map((c) => ({ ...c, sortable: c.sortable ?? true }))}
        sort={sort}
        onSort={setSort}
        selectedKey={selected}
        {...(inline ? { onInlineSave: saveInline, onCancelEdit: () => setSelected(null) } : {})}
        actions={{
          onEdit: (row) => {
            setError("");
            if (inline) setSelected(row.id);
            else setEditing(row);
          },
          onRemove: setRemoving,
        }}
        empty={rows ? `No ${title.toLowerCase()} yet.` : "Loading..."}
      />
      {editing && (
        <Modal
          title={current ? `Edit ${singular.toLowerCase()}` : `New ${singular.toLowerCase()}`}
          onClose={() => setEditing(null)}
          footer={
            <>
              <button type="button" className="button" onClick={() => setEditing(null)}>
                Cancel
              </button>
              <button type="submit" form={formId} className="button primary" disabled={busy}>
                Save
              </button>
            </>
          }
        >
          <form
            id={formId}
            className="form"
            onSubmit={(e) => {
              e.preventDefault();
              void submit(e.currentTarget);
            }}
          >
            {fields
              .filter((f) => (current ? !f.createOnly : !f.editOnly))
              .map((field) => (
                <FieldInput
                  key={field.name}
                  field={field}
                  value={values[field.name]}
                  disabled={Boolean(current && field.fixedOnEdit)}
                />
              ))}
            <p className="form-error" role="alert">
              {error}
            </p>
          </form>
        </Modal>
      )}
      {removing && (
        <RemoveRecordModal
          onClose={() => setRemoving(null)}
          onConfirm={() => void remove(removing).catch(() => undefined)}
        />
      )}
    </section>
  );
}
