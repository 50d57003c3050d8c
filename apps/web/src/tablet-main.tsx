import "./first-path";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { TABLET_BOOT_ID } from "@core-care/schema/paths";
import { primeHandover } from "./tablet/handover";
import TabletRoutes from "./tablet/routes";
import "./ui/theme.css";
// One stylesheet for the whole tablet, loaded with the page: the runner never waits for a second one.
import "./survey-ui/survey-ui.css";

// The tablet's own page. Every file it needs is named in the page (module preloads), so they load in
// parallel. On a page load with a patient credential the hand-over and the survey come in the page too
// (./tablet/boot.ts): the page then waits for the hand-over's local work (its key, the stored copy) and
// renders the first question as its first frame; otherwise it renders at once and shows its loading
// state while the hand-over is asked of the server.
const container = document.getElementById("root");
if (container) {
  const carried = document.getElementById(TABLET_BOOT_ID) !== null;
  const handover = primeHandover();
  const render = () =>
    createRoot(container).render(
      <StrictMode>
        <TabletRoutes />
      </StrictMode>,
    );
  if (carried) {
    // Local work only, but a page never stays blank on it: after a second the loading state shows.
    void Promise.race([handover, new Promise((done) => setTimeout(done, 1000))]).then(render, render);
  } else {
    render();
  }
}

// Lets /tablet pages load without the network and resume from the stored session.
if (import.meta.env.PROD && "serviceWorker" in navigator) {
  window.addEventListener("load", () => {
    navigator.serviceWorker.register("/tablet-sw.js", { scope: "/tablet" }).catch((error: unknown) => {
      console.warn("the tablet's service worker could not be registered", error);
    });
  });
}
