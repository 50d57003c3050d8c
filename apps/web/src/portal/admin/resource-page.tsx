import { useCallback, useId, useState } from "react";
import { api } from "../../api/client";
import { FieldMessage, formFailure, invalidProps, NO_FAILURE, type FormFailure } from "../../ui/field-errors";
import { useMe } from "../../api/session";
import type { May } from "../../api/types";
import { RemoveRecordModal } from "../../ui/confirm-modal";
import { DataTable, sortRows, type Column, type SortState } from "../../ui/data-table";
import { Modal } from "../../ui/modal";
import { usePageTitle } from "../page-title";
import { formData, toText } from "../../ui/form";
import { listStatus, useLoader } from "../../ui/load-state";

/** A field of a resource's create/edit form. */
export interface FormFieldSpec {
  name: string;
  label: string;
  type?: "text" | "email" | "number" | "password" | "select" | "checkbox" | "checkboxes";
  required?: boolean;
  options?: readonly (readonly [value: string, label: string])[];
  hint?: React.ReactNode;
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
  allowed: (may: May) => boolean;
  /** Inline editing of the selected row instead of the modal. */
  inline?: (row: T, values: Record<string, string>) => Record<string, unknown>;
  describe?: React.ReactNode;
  /** Whether a row offers Edit (default: every row). */
  canEdit?: (row: T) => boolean;
  /** Whether a row offers Remove (default: every row). */
  canRemove?: (row: T) => boolean;
  /** A row's own action beside Edit and Remove. */
  extraAction?: (row: T) => React.ReactNode;
  /** The notice after a save, from the server's answer; `${singular} saved.` when it gives none. */
  savedNotice?: (answer: unknown, editing: T | null) => string | undefined;
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

function FieldInput({
  field,
  value,
  disabled,
  error,
}: {
  field: FormFieldSpec;
  value: unknown;
  disabled: boolean;
  error: string | undefined;
}) {
  const id = useId();
  const hintId = field.hint ? `${id}-hint` : undefined;
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
            {...invalidProps(id, error, hintId)}
          />{" "}
          {field.label}
        </label>
        {field.hint && (
          <div id={hintId} className="hint">
            {field.hint}
          </div>
        )}
        <FieldMessage id={id} message={error} />
      </div>
    );
  }
  if (field.type === "checkboxes") {
    const chosen = Array.isArray(value) ? value.map(String) : [];
    return (
      <fieldset className="field" {...invalidProps(id, error)}>
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
        <FieldMessage id={id} message={error} />
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
        <select
          id={id}
          name={field.name}
          defaultValue={text}
          required={field.required}
          disabled={disabled}
          {...invalidProps(id, error, hintId)}
        >
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
          {...invalidProps(id, error, hintId)}
        />
      )}
      {field.hint && (
        <div id={hintId} className="hint">
          {field.hint}
        </div>
      )}
      <FieldMessage id={id} message={error} />
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
  const [failure, setFailure] = useState<FormFailure>(NO_FAILURE);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState("");
  const permitted = me ? allowed(me.may) : false;

  const load = useCallback(async () => {
    if (!permitted) return;
    const data = await api.get<{ items: T[] } | T[]>(path);
    setRows(Array.isArray(data) ? data : data.items);
  }, [path, permitted]);
  const loading = useLoader(load);

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
    setFailure(NO_FAILURE);
    setBusy(true);
    try {
      const answer = current
        ? await api.put<unknown>(`${path}/${encodeURIComponent(current.id)}`, body, { handleErrors: true })
        : await api.post<unknown>(path, body, { handleErrors: true });
      setEditing(null);
      setNotice(props.savedNotice?.(answer, current) ?? `${singular} saved.`);
      await load();
    } catch (cause) {
      setFailure(
        formFailure(
          cause,
          shown.map((f) => f.name),
        ),
      );
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
            setFailure(NO_FAILURE);
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
            setFailure(NO_FAILURE);
            if (inline) setSelected(row.id);
            else setEditing(row);
          },
          onRemove: setRemoving,
          ...(props.extraAction ? { extra: props.extraAction } : {}),
          ...(props.canEdit ? { canEdit: props.canEdit } : {}),
          ...(props.canRemove ? { canRemove: props.canRemove } : {}),
        }}
        empty={listStatus(
          rows !== null,
          loading,
          `The ${title.toLowerCase()}`,
          `No ${title.toLowerCase()} yet.`,
        )}
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
                  error={failure.fields[field.name]}
                />
              ))}
            <p className="form-error" role="alert">
              {failure.form}
            </p>
          </form>
        </Modal>
      )}
      {removing && (
        <RemoveRecordModal
          record={`${singular} ${rowLabel(removing)}`}
          onClose={() => setRemoving(null)}
          onConfirm={() => void remove(removing).catch(() => undefined)}
        />
      )}
    </section>
  );
}
