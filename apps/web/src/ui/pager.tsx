import { useCallback } from "react";
import { useSearchParams } from "react-router-dom";
import type { PagedList } from "../api/types";

/** Where a keyset-paged list stands, kept in the URL (`page`, `cursor`) so reload and Back keep it. */
export interface ListPosition {
  page: number;
  cursor: string | undefined;
}

/** Reads the page and cursor from the URL. */
export function readPosition(params: URLSearchParams): ListPosition {
  const page = Number(params.get("page"));
  const cursor = params.get("cursor") ?? undefined;
  return { page: Number.isInteger(page) && page > 1 && cursor !== undefined ? page : 1, cursor };
}

/**
 * The URL's search parameters with helpers for a paged list: `setFilter` changes a filter, search or
 * sort and goes back to page 1 (a search replaces the history entry, so typing does not fill it);
 * `move` goes to the next or previous page as a new history entry, so Back returns to the page before.
 */
export function useListUrl() {
  const [params, setParams] = useSearchParams();
  const position = readPosition(params);

  const setFilter = useCallback(
    (changes: Record<string, string | undefined>, options: { replace?: boolean } = {}) => {
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          for (const [key, value] of Object.entries(changes)) {
            if (value) next.set(key, value);
            else next.delete(key);
          }
          next.delete("cursor");
          next.delete("page");
          return next;
        },
        { replace: options.replace ?? false },
      );
    },
    [setParams],
  );

  const move = useCallback(
    (list: PagedList<unknown>, direction: "next" | "prev") => {
      const cursor = direction === "next" ? list.nextCursor : list.prevCursor;
      if (cursor === null) return;
      const page = position.page + (direction === "next" ? 1 : -1);
      setParams((current) => {
        const next = new URLSearchParams(current);
        if (page <= 1) {
          next.delete("cursor");
          next.delete("page");
        } else {
          next.set("cursor", cursor);
          next.set("page", String(page));
        }
        return next;
      });
      // The new page opens at its top, the page focused for keyboard and screen reader.
      window.scrollTo({ top: 0 });
      document.getElementById("main")?.focus({ preventScroll: true });
    },
    [position.page, setParams],
  );

  return { params, setParams, position, setFilter, move };
}

const count = new Intl.NumberFormat("en-US");

/** "812" or "1,000+": a capped total is shown as a lower bound. */
export function totalText(list: Pick<PagedList<unknown>, "total" | "totalCapped">): string {
  return list.totalCapped ? `${count.format(list.total)}+` : count.format(list.total);
}

/** Previous and Next of a keyset-paged list, with where the list stands. */
export function Pager({
  list,
  page,
  pageSize,
  noun,
  onMove,
}: {
  list: PagedList<unknown>;
  page: number;
  pageSize: number;
  noun: string;
  onMove: (direction: "next" | "prev") => void;
}) {
  if (list.prevCursor === null && list.nextCursor === null && page <= 1) {
    return list.total > 0 ? (
      <p className="pager-total">
        {totalText(list)} {noun}
      </p>
    ) : null;
  }
  const pages = Math.max(1, Math.ceil(list.total / pageSize));
  return (
    <nav className="pager" aria-label="Pages">
      <button
        type="button"
        className="button small"
        disabled={list.prevCursor === null}
        onClick={() => onMove("prev")}
      >
        Previous
      </button>
      <span>
        Page {page}
        {list.totalCapped ? "" : ` of ${pages}`} · {totalText(list)} {noun}
      </span>
      <button
        type="button"
        className="button small"
        disabled={list.nextCursor === null}
        onClick={() => onMove("next")}
      >
        Next
      </button>
    </nav>
  );
}
