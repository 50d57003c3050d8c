import { useEffect, useId, useRef, useState } from "react";
import { NavLink, useLocation } from "react-router-dom";

/** A link of the navigation. */
export interface NavEntry {
  to: string;
  label: string;
}

/**
 * A group of navigation links behind one button (the disclosure pattern of the WAI-ARIA Authoring
 * Practices): the button says whether the group is open, Escape and a click elsewhere close it, and so
 * does following a link. The button shows as current when one of its links is.
 */
export function NavMenu({ label, entries }: { label: string; entries: readonly NavEntry[] }) {
  const id = useId();
  const { pathname } = useLocation();
  // Open on the page where it was opened: moving to another page (a link of the menu, Back) closes it.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === pathname;
  const setOpen = (next: boolean) => setOpenOn(next ? pathname : null);
  const root = useRef<HTMLLIElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const current = entries.some((entry) => pathname === entry.to || pathname.startsWith(`${entry.to}/`));

  useEffect(() => {
    if (!open) return;
    const outside = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpenOn(null);
    };
    document.addEventListener("pointerdown", outside);
    return () => document.removeEventListener("pointerdown", outside);
  }, [open]);

  return (
    <li
      ref={root}
      className="nav-menu"
      onKeyDown={(event) => {
        if (event.key === "Escape" && open) {
          setOpen(false);
          button.current?.focus();
        }
      }}
      onBlur={(event) => {
        if (!root.current?.contains(event.relatedTarget)) setOpen(false);
      }}
    >
      <button
        ref={button}
        type="button"
        className={`nav-menu-button${current ? " active" : ""}`}
        aria-expanded={open}
        aria-controls={`${id}-list`}
        onClick={() => setOpen(!open)}
      >
        {label}
        <span aria-hidden="true" className="nav-menu-caret">
          ▾
        </span>
      </button>
      <ul id={`${id}-list`} className="nav-menu-list" hidden={!open}>
        {entries.map((entry) => (
          <li key={entry.to}>
            <NavLink to={entry.to}>{entry.label}</NavLink>
          </li>
        ))}
      </ul>
    </li>
  );
}
