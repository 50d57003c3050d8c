// The tablet's service worker (served as /tablet-sw.js, scope /tablet): a /tablet page reloaded while
// the network is down still loads, and resumes from the session kept in browser storage (issue 5).
// It stores the tablet page as the server sends it to no one in particular (no cookie, so no user in
// it) and this build's files; it never stores an answer of /api/ or a page as served to a user.
import { answerFor, CACHE_PREFIX, cacheName, carriesUser } from "./offline-rules";

// The files the tablet page loads in this build; the build writes them in (tablet-build.ts).
declare const __TABLET_FILES__: readonly string[];

interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}

interface FetchEvent extends ExtendableEvent {
  readonly request: Request;
  readonly preloadResponse: Promise<Response | undefined>;
  respondWith(response: Promise<Response>): void;
}

interface WorkerGlobal {
  readonly registration: {
    readonly scope: string;
    readonly navigationPreload?: { enable(): Promise<void> };
  };
  readonly clients: { claim(): Promise<void> };
  skipWaiting(): Promise<void>;
  addEventListener(type: "install" | "activate", listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: "fetch", listener: (event: FetchEvent) => void): void;
}

// The app's TypeScript program is typed for the page (the DOM library); this is the worker's global.
const worker = self as unknown as WorkerGlobal;
const files = new Set(__TABLET_FILES__);
const cache = cacheName(__TABLET_FILES__);
const pageUrl = new URL(worker.registration.scope).pathname;

async function install(): Promise<void> {
  const page = await fetch(pageUrl, { credentials: "omit", cache: "no-store" });
  if (!page.ok) throw new Error(`${pageUrl} answered ${page.status}`);
  if (carriesUser(await page.clone().text())) throw new Error(`${pageUrl} carried a signed-in user`);
  const store = await caches.open(cache);
  await store.addAll([...files].map((file) => new Request(file, { credentials: "omit" })));
  await store.put(pageUrl, page);
}

async function activate(): Promise<void> {
  for (const name of await caches.keys()) {
    if (name.startsWith(CACHE_PREFIX) && name !== cache) await caches.delete(name);
  }
  await worker.registration.navigationPreload?.enable();
  await worker.clients.claim();
}

async function answerPage(event: FetchEvent): Promise<Response> {
  try {
    return (await event.preloadResponse) ?? (await fetch(event.request));
  } catch {
    return (await caches.match(pageUrl, { cacheName: cache })) ?? Response.error();
  }
}

async function answerFile(request: Request): Promise<Response> {
  return (await caches.match(request, { cacheName: cache })) ?? fetch(request);
}

worker.addEventListener("install", (event) => {
  event.waitUntil(install().then(() => worker.skipWaiting()));
});

worker.addEventListener("activate", (event) => {
  event.waitUntil(activate());
});

worker.addEventListener("fetch", (event) => {
  const answer = answerFor(event.request, worker.registration.scope, files);
  switch (answer) {
    case "page":
      event.respondWith(answerPage(event));
      return;
    case "file":
      event.respondWith(answerFile(event.request));
      return;
    case "network":
      return;
  }
});
