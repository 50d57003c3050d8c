import { useTranslation } from "react-i18next";
import { TabletShell } from "./tablet-shell";

/**
 * Shown while the server that unlocks the stored answers cannot be reached (a /tablet page loaded
 * without the network): nothing of the patient, and no staff screen. The page goes on by itself once
 * the connection returns (`useHandover` asks again).
 */
export function WaitingForConnection() {
  const { t } = useTranslation();
  return (
    <TabletShell>
      <main className="tablet-main tablet-message">
        <h1>{t("tablet.waitingTitle")}</h1>
        <p role="status">{t("tablet.waitingText")}</p>
      </main>
    </TabletShell>
  );
}
