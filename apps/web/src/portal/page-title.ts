import { useEffect } from "react";

/** Sets the document title of a portal screen. */
export function usePageTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · Core Care`;
  }, [title]);
}
