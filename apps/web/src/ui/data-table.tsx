import { useState } from "react";
import { toText } from "./form";

/** Sort direction of a list. */
export type SortOrder = "asc" | "desc";

/** A list's sort: the column key and the direction. */
export interface SortState {
  key: string;
  order: SortOrder;
}

/** A column of a {@link DataTable}. */
export interface Column<T> {
  key: string;
  header: string;
  render?: (row: T) => React.ReactNode;
  sortable?: boolean;
  /** Inline editing: the field's input and whether it may be blank. */
  edit?: {
    type?: "text" | "date" | "email" | "tel" | "number";
    required?: boolean;
    onBlur?: (value: string) => string;
  };
}

/** Per-row actions a table offers. */
export interface RowActions<T> {
  onEdit?: (row: T) => void;
  onRemove?: (row: T) => void;
  /** Whether this row offers Edit (default: every row does). */
  canEdit?: (row: T) => boolean;
  /** Whether this row offers Remove (default: every row does). */
  canRemove?: (row: T) => boolean;
  onDownload?: (row: T) => void;
  extra?: (row: T) => React.ReactNode;
}

/** Props of {@link DataTable}. */
export interface DataTableProps<T> {
  caption: string;
  rows: readonly T[];
  rowKey: (row: T) => string;
  rowLabel: (row: T) => string;
  columns: Column<T>[];
  sort?: SortState;
  onSort?: (sort: SortState) => void;
  actions?: RowActions<T>;
  selectedKey?: string | null;
  /** Inline editing of the selected row; resolves when saved, rejects to stay in edit. */
  onInlineSave?: (row: T, values: Record<string, string>) => Promise<void>;
  onCancelEdit?: () => void;
  empty?: React.ReactNode;
}

/** The next sort when a header is activated: same column flips, another column starts ascending. */
export function nextSort(current: SortState | undefined, key: string): SortState {
  if (current?.key === key) return { key, order: current.order === "asc" ? "desc" : "asc" };
  return { key, order: "asc" };
}

/** Sorts rows in the browser by a column's value (text compared without case, numbers numerically). */
export function sortRows<T>(
  rows: readonly T[],
  sort: SortState | undefined,
  value: (row: T, key: string) => unknown,
): T[] {
  if (!sort) return [...rows];
  const factor = sort.order === "asc" ? 1 : -1;
  const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: "base" });
  return [...rows].sort((a, b) => {
    const x = value(a, sort.key);
    const y = value(b, sort.key);
    if (x == null && y == null) return 0;
    if (x == null) return 1;
    if (y == null) return -1;
    if (typeof x === "number" && typeof y === "number") return (x - y) * factor;
    return collator.compare(toText(x), toText(y)) * factor;
  });
}

/**
 * Returns the name of the first required field left blank, so the caller can alert
 * 'Field "{name}" is required.' and stop the save (SPEC 5, inline edit).
 */
export function firstBlankRequired<T>(
  columns: Column<T>[],
  values: Record<string, string>,
): string | undefined {
  return columns.find((c) => c.edit?.required && (values[c.key] ?? "").trim() === "")?.header;
}

function cellText<T>(row: T, column: Column<T>): React.ReactNode {
  if (column.render) return column.render(row);
  const value = (row as Record<string, unknown>)[column.key];
  return toText(value);
}

function rawValue<T>(row: T, key: string): string {
  return toText((row as Record<string, unknown>)[key]);
}

function InlineRow<T>({
  row,
  columns,
  label,
  onSave,
  onCancel,
}: {
  row: T;
  columns: Column<T>[];
  label: string;
  onSave: (row: T, values: Record<string, string>) => Promise<void>;
  onCancel: () => void;
}) {
  const [values, setValues] = useState<Record<string, string>>(() =>
    Object.fromEntries(columns.filter((c) => c.edit).map((c) => [c.key, rawValue(row, c.key)])),
  );
  const [saving, setSaving] = useState(false);

  async function save() {
    const blank = firstBlankRequired(columns, values);
    if (blank !== undefined) {
      window.alert(`Field "${blank}" is required.`);
      return;
    }
    setSaving(true);
    try {
      await onSave(row, values);
    } catch {
      setSaving(false);
    }
  }

  return (
    <tr className="is-selected" aria-selected="true">
      {columns.map((column) => (
        <td key={column.key}>
          {column.edit ? (
            <input
              aria-label={column.header}
              type={column.edit.type ?? "text"}
              value={values[column.key] ?? ""}
              required={column.edit.required}
              onChange={(e) => setValues((v) => ({ ...v, [column.key]: e.target.value }))}
              onBlur={(e) => {
                const format = column.edit?.onBlur;
                if (format) setValues((v) => ({ ...v, [column.key]: format(e.target.value) }));
              }}
              onKeyDown={(e) => {
                if (e.key === "Enter") void save();
                if (e.key === "Escape") onCancel();
              }}
            />
          ) : (
            cellText(row, column)
          )}
        </td>
      ))}
      <td>
        <div className="row-actions">
          <button
            type="button"
            className="button primary small"
            disabled={saving}
            onClick={() => void save()}
          >
            Save<span className="visually-hidden"> {label}</span>
          </button>
          <button type="button" className="button small" onClick={onCancel}>
            Cancel<span className="visually-hidden"> editing {label}</span>
          </button>
        </div>
      </td>
    </tr>
  );
}

/**
 * A list table (SPEC 2): sortable headers, per-row edit, remove and download, a selected row shown as
 * selected, and inline editing of the selected row.
 */
export function DataTable<T>({
  caption,
  rows,
  rowKey,
  rowLabel,
  columns,
  sort,
  onSort,
  actions,
  selectedKey,
  onInlineSave,
  onCancelEdit,
  empty,
}: DataTableProps<T>) {
  const hasActions = actions && (actions.onEdit || actions.onRemove || actions.onDownload || actions.extra);
  return (
    <div className="table-wrap">
      <table className="data">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => {
              const active = sort?.key === column.key;
              const ariaSort = active ? (sort.order === "asc" ? "ascending" : "descending") : undefined;
              return (
                <th
                  key={column.key}
                  scope="col"
                  aria-sort={column.sortable ? (ariaSort ?? "none") : undefined}
                >
                  {column.sortable && onSort ? (
                    <button
                      type="button"
                      className="sort-button"
                      onClick={() => onSort(nextSort(sort, column.key))}
                    >
                      {column.header}
                      <span aria-hidden="true">{active ? (sort.order === "asc" ? "▲" : "▼") : "↕"}</span>
                    </button>
                  ) : (
                    column.header
                  )}
                </th>
              );
            })}
            {hasActions && (
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 && (
            <tr>
              <td className="empty" colSpan={columns.length + (hasActions ? 1 : 0)}>
                {empty ?? "Nothing to show."}
              </td>
            </tr>
          )}
          {rows.map((row) => {
            const key = rowKey(row);
            const label = rowLabel(row);
            if (key === selectedKey && onInlineSave && onCancelEdit) {
              return (
                <InlineRow
                  key={key}
                  row={row}
                  columns={columns}
                  label={label}
                  onSave={onInlineSave}
                  onCancel={onCancelEdit}
                />
              );
            }
            return (
              <tr key={key} className={key === selectedKey ? "is-selected" : undefined}>
                {columns.map((column) => (
                  <td key={column.key}>{cellText(row, column)}</td>
                ))}
                {hasActions && (
                  <td>
                    <div className="row-actions">
                      {actions.extra?.(row)}
                      {actions.onEdit && (actions.canEdit?.(row) ?? true) && (
                        <button type="button" className="button small" onClick={() => actions.onEdit?.(row)}>
                          Edit<span className="visually-hidden"> {label}</span>
                        </button>
                      )}
                      {actions.onDownload && (
                        <button
                          type="button"
                          className="button small"
                          onClick={() => actions.onDownload?.(row)}
                        >
                          Download<span className="visually-hidden"> {label}</span>
                        </button>
                      )}
                      {actions.onRemove && (actions.canRemove?.(row) ?? true) && (
                        <button
                          type="button"
                          className="button danger small"
                          onClick={() => actions.onRemove?.(row)}
                        >
                          Remove<span className="visually-hidden"> {label}</span>
                        </button>
                      )}
                    </div>
                  </td>
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** Saves `data` as a pretty-printed JSON file named `name`. */
export function downloadJson(name: string, data: unknown): void {
  const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: "application/json" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
