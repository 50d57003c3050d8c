import type { TabletHandover } from "@core-care/schema";
import { TABLET_BOOT_ID } from "@core-care/schema/paths";
import type { Survey } from "@core-care/survey-engine";

/** What the server put in the tablet's page for its patient credential (docs/api.md, "Pages of the web app"). */
export interface TabletBoot {
  handover: TabletHandover;
  survey: Survey;
}

function isBoot(value: unknown): value is TabletBoot {
  if (typeof value !== "object" || value === null) return false;
  const { handover, survey } = value as Partial<Record<keyof TabletBoot, unknown>>;
  return (
    typeof handover === "object" &&
    handover !== null &&
    typeof (handover as Partial<TabletHandover>).handoverId === "string" &&
    typeof (handover as Partial<TabletHandover>).dataKey === "string" &&
    typeof survey === "object" &&
    survey !== null &&
    typeof (survey as Partial<Survey>).id === "string" &&
    Array.isArray((survey as Partial<Survey>).pages)
  );
}

/**
 * The hand-over and survey the page was served with, once: the block is removed from the page as it is
 * read (it holds the key of the stored copy), so a later call, or a page that had none, answers null and
 * the caller asks the API.
 */
export function takeTabletBoot(doc: Document = document): TabletBoot | null {
  const block = doc.getElementById(TABLET_BOOT_ID);
  if (block === null) return null;
  block.remove();
  try {
    const value = JSON.parse(block.textContent ?? "") as unknown;
    return isBoot(value) ? value : null;
  } catch {
    return null;
  }
}
