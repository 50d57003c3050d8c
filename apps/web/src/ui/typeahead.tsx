import { useEffect, useId, useRef, useState } from "react";
import { TYPEAHEAD, type SuggestionSource } from "./suggestion-source";

/** Props of {@link Typeahead}. */
export interface TypeaheadProps<T> {
  label: string;
  source: SuggestionSource<T>;
  itemKey: (item: T) => string;
  itemLabel: (item: T) => string;
  onSelect: (item: T) => void;
  onQueryChange?: (query: string) => void;
  /** The text the box starts with (a search kept in the URL); suggestions wait for typing. */
  initialQuery?: string;
  placeholder?: string;
  minLength?: number;
  debounceMs?: number;
  limit?: number;
}

/**
 * A search box with suggestions, following the ARIA combobox pattern: suggestions after `minLength`
 * characters and a `debounceMs` pause, at most `limit` of them, arrows to move, Enter to pick, Escape to close.
 */
export function Typeahead<T>({
  label,
  source,
  itemKey,
  itemLabel,
  onSelect,
  onQueryChange,
  initialQuery = "",
  placeholder,
  minLength = TYPEAHEAD.minLength,
  debounceMs = TYPEAHEAD.debounceMs,
  limit = TYPEAHEAD.limit,
}: TypeaheadProps<T>) {
  const id = useId();
  const [query, setQuery] = useState(initialQuery);
  const [typed, setTyped] = useState(false);
  const [items, setItems] = useState<T[]>([]);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const latest = useRef("");

  useEffect(() => {
    const trimmed = query.trim();
    latest.current = trimmed;
    if (!typed || trimmed.length < minLength) {
      setItems([]);
      setOpen(false);
      return;
    }
    const timer = setTimeout(() => {
      source.get(trimmed).then(
        (found) => {
          if (latest.current !== trimmed) return;
          setItems(found.slice(0, limit));
          setActive(-1);
          setOpen(true);
        },
        () => undefined,
      );
    }, debounceMs);
    return () => clearTimeout(timer);
  }, [query, typed, source, minLength, debounceMs, limit]);

  function pick(item: T) {
    setOpen(false);
    setQuery(itemLabel(item));
    onSelect(item);
  }

  function onKeyDown(event: React.KeyboardEvent<HTMLInputElement>) {
    if (event.key === "ArrowDown" && items.length > 0) {
      event.preventDefault();
      setOpen(true);
      setActive((a) => (a + 1) % items.length);
    } else if (event.key === "ArrowUp" && items.length > 0) {
      event.preventDefault();
      setActive((a) => (a <= 0 ? items.length - 1 : a - 1));
    } else if (event.key === "Enter" && open && active >= 0) {
      event.preventDefault();
      const item = items[active];
      if (item) pick(item);
    } else if (event.key === "Escape" && open) {
      // The first Escape only closes the suggestions; a search input clears itself on the next one.
      event.preventDefault();
      setOpen(false);
    }
  }

  const listId = `${id}-list`;
  const showList = open && items.length > 0;
  return (
    <div className="field typeahead">
      <label htmlFor={`${id}-input`}>{label}</label>
      <input
        id={`${id}-input`}
        type="search"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={showList}
        aria-controls={listId}
        aria-activedescendant={showList && active >= 0 ? `${id}-opt-${active}` : undefined}
        autoComplete="off"
        placeholder={placeholder}
        value={query}
        onChange={(e) => {
          setQuery(e.target.value);
          setTyped(true);
          onQueryChange?.(e.target.value);
        }}
        onKeyDown={onKeyDown}
        onBlur={() => setTimeout(() => setOpen(false), 150)}
      />
      <ul
        id={listId}
        role="listbox"
        aria-label={`${label} suggestions`}
        className="typeahead-list"
        hidden={!showList}
      >
        {items.map((item, index) => (
          <li
            key={itemKey(item)}
            id={`${id}-opt-${index}`}
            role="option"
            aria-selected={index === active}
            onMouseDown={(e) => {
              e.preventDefault();
              pick(item);
            }}
          >
            {itemLabel(item)}
          </li>
        ))}
      </ul>
      <span className="visually-hidden" aria-live="polite">
        {showList ? `${items.length} suggestions` : ""}
      </span>
    </div>
  );
}
