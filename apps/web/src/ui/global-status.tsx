import { useEffect, useState } from "react";
import { dismissErrorBanner, useErrorBanner, useProcessing } from "../api/client";

/** The 'Processing...' indicator: fades in while any request runs, out when all finish (SPEC 2). */
export function ProcessingIndicator() {
  const processing = useProcessing();
  return (
    <div className={`processing${processing ? " is-visible" : ""}`} role="status" aria-live="polite">
      {processing ? "Processing..." : ""}
    </div>
  );
}

/** The transient error banner (SPEC 8): fades in, stays 10 seconds, fades out. */
export function ErrorBanner() {
  const banner = useErrorBanner();
  const [entered, setEntered] = useState<number | undefined>(undefined);
  const id = banner?.id;
  useEffect(() => {
    if (id === undefined) return;
    const frame = requestAnimationFrame(() => setEntered(id));
    return () => cancelAnimationFrame(frame);
  }, [id]);
  return (
    <div className="error-banner-region" role="alert" aria-live="assertive">
      {banner && (
        <div
          className={`error-banner${entered === banner.id && !banner.leaving ? " is-visible" : ""}`}
          data-testid="error-banner"
        >
          <span>{banner.message}</span>
          <button
            type="button"
            className="error-banner-close"
            aria-label="Dismiss"
            onClick={dismissErrorBanner}
          >
            ×
          </button>
        </div>
      )}
    </div>
  );
}
