import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { BrowserRouter, Route, Routes } from "react-router-dom";
import TabletRoutes from "../../src/tablet/routes";
import { ErrorBanner, ProcessingIndicator } from "../../src/ui/global-status";
import "../../src/ui/theme.css";

// The tablet area as its own page: the same routes, with no lazy chunk to fetch after the entry runs.
const root = document.getElementById("root");
if (root)
  createRoot(root).render(
    <StrictMode>
      <BrowserRouter>
        <ProcessingIndicator />
        <ErrorBanner />
        <Routes>
          <Route path="/tablet/*" element={<TabletRoutes />} />
        </Routes>
      </BrowserRouter>
    </StrictMode>,
  );
