import "./first-path";
import { StrictMode } from "react";
import { flushSync } from "react-dom";
import { createRoot, type Root } from "react-dom/client";
import { TabletShell } from "./tablet/tablet-shell";
import "./ui/theme.css";
// One stylesheet for the whole tablet, loaded with the page: the runner never waits for a second one.
import "./survey-ui/survey-ui.css";

function Frame({ failed = false }: { failed?: boolean }) {
  return (
    <TabletShell>
      <main className="tablet-main">
        {failed ? (
          <div className="tablet-message" role="alert">
            <h1>The page could not be loaded</h1>
            <p>Please check the connection and reload the page.</p>
          </div>
        ) : (
          <p className="tablet-loading" aria-busy="true">
            Loading…
          </p>
        )}
      </main>
    </TabletShell>
  );
}

async function showRoutes(root: Root): Promise<void> {
  try {
    const { default: TabletRoutes } = await import("./tablet/routes");
    root.render(
      <StrictMode>
        <TabletRoutes />
      </StrictMode>,
    );
  } catch {
    root.render(<Frame failed />);
  }
}

// The tablet's own page (issue 5: first content on an old tablet). Its frame is painted before
// anything else is loaded; the routes, the runner and the HTTP client follow and replace it.
const container = document.getElementById("root");
if (container) {
  const root = createRoot(container);
  flushSync(() => root.render(<Frame />));
  // A task queued from an animation frame runs once that frame is painted.
  if (document.hidden) void showRoutes(root);
  else requestAnimationFrame(() => setTimeout(() => void showRoutes(root), 0));
}

// Lets /tablet pages load without the network and resume from the stored session (issue 5).
if (import.meta.env.PROD && "serviceWorker" in navigator) {
  window.addEventListener("load", () => {
    navigator.serviceWorker.register("/tablet-sw.js", { scope: "/tablet" }).catch((error: unknown) => {
      console.warn("the tablet's service worker could not be registered", error);
    });
  });
}
