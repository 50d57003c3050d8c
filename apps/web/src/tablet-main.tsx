import "./first-path";
import { mountTablet } from "./tablet/mount";
import "./ui/theme.css";
// One stylesheet for the whole tablet, loaded with the page: the runner never waits for a second one.
import "./survey-ui/survey-ui.css";

// The tablet's own page. Every file it needs is named in the page (module preloads), so they load in
// parallel; the first question needs no request after them (./tablet/mount.tsx).
const container = document.getElementById("root");
if (container) void mountTablet(container);

// Lets /tablet pages load without the network and resume from the stored session.
if (import.meta.env.PROD && "serviceWorker" in navigator) {
  window.addEventListener("load", () => {
    navigator.serviceWorker.register("/tablet-sw.js", { scope: "/tablet" }).catch((error: unknown) => {
      console.warn("the tablet's service worker could not be registered", error);
    });
  });
}
