import { useId, useState } from "react";
import type { DocumentVersion } from "@core-care/schema";
import { api } from "../api/client";
import { diffDocuments, type DiffEntry } from "./document-diff";
import type { EntityName } from "./local-copy";
import { documentPath, type EntityDocuments } from "./remote-save";

const CHANGE_WORDS: Record<DiffEntry["change"], string> = {
  added: "Added",
  removed: "Removed",
  changed: "Changed",
};

/**
 * The saved versions of a survey or report and the differences between any two of them; every
 * published version is kept by the server (GET …/versions and …/versions/{v}).
 */
export function VersionHistory<E extends EntityName>({
  entity,
  id,
  onRestore,
}: {
  entity: E;
  id: string;
  /** Takes a saved version's content as an unsaved edit; absent where the document cannot be changed. */
  onRestore?: ((document: EntityDocuments[E], version: number) => void) | undefined;
}) {
  const htmlId = useId();
  const [versions, setVersions] = useState<DocumentVersion[] | null>(null);
  const [from, setFrom] = useState("");
  const [to, setTo] = useState("");
  const [diff, setDiff] = useState<DiffEntry[] | null>(null);
  const [error, setError] = useState("");
  const [restored, setRestored] = useState("");

  const load = async () => {
    setError("");
    try {
      const list = await api.get<DocumentVersion[]>(`${documentPath(entity, id)}/versions`);
      const ordered = [...list].sort((a, b) => b.version - a.version);
      setVersions(ordered);
      setTo(String(ordered[0]?.version ?? ""));
      setFrom(String(ordered[1]?.version ?? ordered[0]?.version ?? ""));
      setDiff(null);
    } catch (cause) {
      setError(cause instanceof Error ? cause.message : String(cause));
    }
  };

  const compare = async () => {
    setError("");
    try {
      const [before, after] = await Promise.all(
        [from, to].map((v) =>
          api.get<unknown>(`${documentPath(entity, id)}/versions/${encodeURIComponent(v)}`),
        ),
      );
      setDiff(diffDocuments(before, after));
    } catch (cause) {
      setError(cause instanceof Error ? cause.message : String(cause));
    }
  };

  const restore = async (version: number) => {
    setError("");
    setRestored("");
    try {
      const document = await api.get<EntityDocuments[E]>(`${documentPath(entity, id)}/versions/${version}`);
      onRestore?.(document, version);
      setRestored(
        `Version ${version} is restored as unsaved changes. Save to keep it as the newest version.`,
      );
    } catch (cause) {
      setError(cause instanceof Error ? cause.message : String(cause));
    }
  };

  const options = (versions ?? []).map((v) => (
    <option key={v.version} value={v.version}>
      Version {v.version} ({new Date(v.savedAt).toLocaleString()})
    </option>
  ));

  return (
    <section className="card" aria-labelledby={`${htmlId}-title`}>
      <h2 id={`${htmlId}-title`}>Versions</h2>
      <button type="button" className="button small" onClick={() => void load()}>
        {versions ? "Refresh versions" : "Show versions"}
      </button>
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
      <p className="hint" role="status">
        {restored}
      </p>
      {versions && versions.length === 0 ? <p className="hint">Not saved yet.</p> : null}
      {versions && versions.length > 0 ? (
        <>
          <ul className="designer-versions">
            {versions.map((v) => (
              <li key={v.version}>
                <span>
                  Version {v.version}, saved {new Date(v.savedAt).toLocaleString()}
                  {v.savedBy ? ` by ${v.savedBy}` : ""}
                </span>
                {onRestore && v.version !== versions[0]?.version ? (
                  <button type="button" className="button small" onClick={() => void restore(v.version)}>
                    Restore<span className="visually-hidden"> version {v.version}</span>
                  </button>
                ) : null}
              </li>
            ))}
          </ul>
          <div className="toolbar">
            <div className="field">
              <label htmlFor={`${htmlId}-from`}>Compare version</label>
              <select id={`${htmlId}-from`} value={from} onChange={(e) => setFrom(e.target.value)}>
                {options}
              </select>
            </div>
            <div className="field">
              <label htmlFor={`${htmlId}-to`}>with version</label>
              <select id={`${htmlId}-to`} value={to} onChange={(e) => setTo(e.target.value)}>
                {options}
              </select>
            </div>
            <button type="button" className="button small" onClick={() => void compare()}>
              Show differences
            </button>
          </div>
        </>
      ) : null}
      {diff ? (
        diff.length === 0 ? (
          <p role="status">The two versions are the same.</p>
        ) : (
          <div className="table-wrap">
            <table>
              <caption>
                Differences between version {from} and version {to}
              </caption>
              <thead>
                <tr>
                  <th scope="col">Where</th>
                  <th scope="col">Change</th>
                  <th scope="col">Version {from}</th>
                  <th scope="col">Version {to}</th>
                </tr>
              </thead>
              <tbody>
                {diff.map((entry) => (
                  <tr key={`${entry.path}-${entry.change}`}>
                    <td>
                      <code>{entry.path}</code>
                    </td>
                    <td>{CHANGE_WORDS[entry.change]}</td>
                    <td className="designer-diff-value">{entry.before ?? ""}</td>
                    <td className="designer-diff-value">{entry.after ?? ""}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )
      ) : null}
    </section>
  );
}
