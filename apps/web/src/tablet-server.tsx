import { renderToString } from "react-dom/server";
import { Router } from "wouter";
import type { PatientLanguage } from "@core-care/schema";
import { i18n } from "./i18n/i18n";
import type { TabletBoot } from "./tablet/boot";
import { primeDrawn } from "./tablet/handover";
import { TabletApp } from "./tablet/mount";
import { TabletStore } from "./tablet/tablet-session";

// The tablet's first page drawn on the server (issue 17): the API puts it in the page it sends with the
// hand-over, so an old tablet shows the first question as soon as the page and its stylesheet arrive,
// before any script has run. The page's scripts then take the markup over (./tablet/mount.tsx).

/** The first page of a survey, as the API draws it for the patient credential. */
export interface DrawnTabletPage {
  /** The markup of the page's root. */
  html: string;
  /** The language it is in, for `<html lang>`. */
  language: PatientLanguage;
}

/** The survey runner's address, the one page the server draws. */
const SURVEY_PAGE = /^\/tablet\/patient-survey\/[^/?#]+\/pg\/[1-9]\d*$/;

/** Storage that keeps nothing: the server holds no copy of the patient's session. */
const NOTHING_KEPT: Storage = {
  length: 0,
  clear: () => undefined,
  getItem: () => null,
  key: () => null,
  removeItem: () => undefined,
  setItem: () => undefined,
};

/**
 * Draws the tablet page at `url` for the hand-over and survey it carries (`boot`): the page a new session
 * shows first, in the patient's language. Null for any other page of the tablet, or a survey that is not
 * the hand-over's: the page then renders in the browser alone.
 */
export async function drawTabletPage(url: string, boot: TabletBoot): Promise<DrawnTabletPage | null> {
  const [path = "", search = ""] = url.split("?", 2);
  if (!SURVEY_PAGE.test(path) || boot.survey.id !== boot.handover.surveyId) return null;
  const store = await TabletStore.open(NOTHING_KEPT, boot.handover.handoverId, "", null);
  const { language } = boot.handover;
  // From here to the markup all runs at once, so no other page's render comes between: the language
  // and the primed state are this page's. The catalogues are bundled, so the language changes at once.
  void i18n.changeLanguage(language);
  if (i18n.language !== language) throw new Error(`the tablet page could not be drawn in ${language}`);
  primeDrawn(boot, store, Date.now());
  const html = renderToString(
    <Router ssrPath={path} ssrSearch={search}>
      <TabletApp />
    </Router>,
  );
  return { html, language };
}
