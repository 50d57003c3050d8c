import { StrictMode } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { TABLET_BOOT_ID, TABLET_DRAWN_ATTRIBUTE } from "@core-care/schema/paths";
import { setPatientLanguage } from "../i18n/i18n";
import { primeHandover, primedStart } from "./handover";
import TabletRoutes from "./routes";

/** The tablet page's React tree, the same on the server and in the browser (so the two can meet). */
export function TabletApp() {
  return (
    <StrictMode>
      <TabletRoutes />
    </StrictMode>
  );
}

/**
 * Starts the tablet's page in `container`. On a page load with a patient credential the hand-over and the
 * survey come in the page (./boot.ts) and the server has drawn the first page in `container`, inert so
 * that no tap meets a page that cannot answer it yet: the page waits for the hand-over's local work (its
 * key, the stored copy), then takes over the server's markup when its first state is the one the server
 * drew (a new session), or renders afresh (a resumed session, whose page and answers only the browser
 * knows). Without a hand-over in the page it renders at once and shows its loading state while the
 * hand-over is asked of the server. Settles once React has the page.
 */
export async function mountTablet(container: HTMLElement, doc: Document = document): Promise<void> {
  const carried = doc.getElementById(TABLET_BOOT_ID) !== null;
  const handover = primeHandover();
  if (carried) {
    // Local work only, but a page never stays blank on it: after a second the loading state shows.
    await Promise.race([handover, new Promise((done) => setTimeout(done, 1000))]).catch(() => undefined);
  }
  const drawn = container.hasAttribute(TABLET_DRAWN_ATTRIBUTE);
  const start = primedStart();
  // The first render is in the session's language, drawn afresh or over the server's markup.
  if (start !== null) setPatientLanguage(start.language);
  if (drawn && start?.asDrawn === true) {
    hydrateRoot(container, <TabletApp />, {
      onRecoverableError: (error) => console.warn("the tablet page was drawn again in the browser", error),
    });
    return;
  }
  // The root stays inert until the first render has the page (pageRendered in ./handover).
  if (drawn) container.replaceChildren();
  createRoot(container).render(<TabletApp />);
}
