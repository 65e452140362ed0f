/* Thirteen's service worker, release {{ release }}: Workbox, served by this app.
   - The app shell (what every page loads) is precached at install; any other static file
     of this release is kept the first time a page asks for it.
   - Once a page has settled, every game's home, check screen and new-game forms and every
     other stylesheet and script of this release are kept too, in the background: a game can
     be started offline on a phone that opened one page.
   - Each page the phone opens is kept (network first): without a network the kept copy is
     shown, marked data-from-cache so the page says how old it is.  The page of a first visit
     (opened before this worker ran) and the screens each page links to are kept too, once the
     page has settled (the "keep" message below).  A page never opened on this phone, nor
     linked from one it opened, shows the offline page instead.
   - htmx requests (verdicts, polls, writes) always go to the network: a write that cannot
     be sent is kept by app.js on the phone, never by this worker.
   - The referee on the phone (static/js/engine.js): its files, fetched by its Web Worker once
     the page has settled, are kept in their own cache, which outlives releases; a release
     whose engine is new drops the files of the old one.  /engine.json (where the engine is,
     in the page's words) is asked from the network first, else the kept answer.
   - A new release installs at once and deletes every cache of the releases before it. */
importScripts({% for url in workbox %}{{ url | tojson }}{% if not loop.last %}, {% endif %}{% endfor %});

const RELEASE = {{ release | tojson }};
const PAGES = "thirteen-pages-" + RELEASE;
const OFFLINE = {{ offline_page | tojson }};
const START_PAGES = {{ start_pages | tojson }};
const OTHER_FILES = {{ other_files | tojson }};
const ENGINE = "thirteen-engine";
const ENGINE_FILES = {{ engine_files | tojson }};

workbox.core.setCacheNameDetails({ prefix: "thirteen", suffix: RELEASE });
workbox.core.skipWaiting();
workbox.core.clientsClaim();
workbox.precaching.precacheAndRoute(
  {{ shell | tojson }}.map(function (url) { return { url: url, revision: null }; })
    .concat([{ url: OFFLINE, revision: RELEASE }]),
  { ignoreURLParametersMatching: [/.*/] }
);

self.addEventListener("install", function (event) {
  /* Writes (every POST) never come through this worker: they go straight to the network, as
     from a page with no worker (app.js keeps what cannot be sent).  Where the browser has
     static routes. */
  try {
    if (event.addRoutes) event.addRoutes([{ condition: { requestMethod: "POST" }, source: "network" }]).catch(function () {});
  } catch (err) { /* no static routes: the worker lets writes pass */ }
  // The start page opens offline too (the installed app starts there).
  event.waitUntil(caches.open(PAGES).then(function (cache) { return cache.add("/"); }).catch(function () {}));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) {
      return name.indexOf("thirteen-") === 0 && name !== ENGINE && name.slice(-RELEASE.length) !== RELEASE;
    }).map(function (name) { return caches.delete(name); }));
  }).then(function () {
    /* The engine's cache: gone with a server that has no engine; else only the current files. */
    return caches.has(ENGINE).then(function (has) {
      if (!has) return null;
      if (!ENGINE_FILES.length) return caches.delete(ENGINE);
      return caches.open(ENGINE).then(function (cache) {
        return cache.keys().then(function (requests) {
          return Promise.all(requests.filter(function (request) {
            var path = new URL(request.url).pathname;
            return path !== "/engine.json" && ENGINE_FILES.indexOf(path) < 0;
          }).map(function (request) { return cache.delete(request); }));
        });
      });
    });
  }));
});

/* A kept page, marked as such: the page then says "offline: showing … as of 21:14". */
const markKept = {
  cachedResponseWillBeUsed: async function ({ cachedResponse }) {
    if (!cachedResponse) return null;
    const html = await cachedResponse.text();
    const headers = new Headers(cachedResponse.headers);
    headers.delete("Content-Length");
    headers.delete("Content-Encoding");
    return new Response(html.replace("<body", "<body data-from-cache"), {
      status: cachedResponse.status, statusText: cachedResponse.statusText, headers: headers
    });
  }
};

/* The engine's files: named after their content, kept until an engine replaces them. */
/* The engine's Web Worker downloads a file it lacks itself, straight from the network (marked
   X-Thirteen-Direct, left alone here: it can then cut the download off while the page's own
   requests go, and go on with a Range request), and keeps it in this cache. */
workbox.routing.registerRoute(
  function ({ url, request }) {
    return url.origin === self.location.origin && url.pathname.indexOf("/static/engine/") === 0 &&
      request.headers.get("X-Thirteen-Direct") !== "1" && !request.headers.has("Range");
  },
  new workbox.strategies.CacheFirst({ cacheName: ENGINE })
);
workbox.routing.registerRoute(
  function ({ url }) { return url.origin === self.location.origin && url.pathname === "/engine.json"; },
  new workbox.strategies.NetworkFirst({ cacheName: ENGINE, networkTimeoutSeconds: 3 })
);

/* Any other file of this release (a game's stylesheet, the icons, a share QR code):
   kept the first time. */
workbox.routing.registerRoute(
  function ({ url }) {
    return url.origin === self.location.origin && (url.pathname.indexOf("/static/") === 0 || url.pathname === "/qr.svg");
  },
  new workbox.strategies.CacheFirst({ cacheName: "thirteen-static-" + RELEASE })
);

workbox.routing.registerRoute(
  function ({ request, url }) {
    return request.mode === "navigate" && url.origin === self.location.origin && !/\.csv$/.test(url.pathname);
  },
  new workbox.strategies.NetworkFirst({
    cacheName: PAGES,
    networkTimeoutSeconds: 10,
    matchOptions: { ignoreVary: true },
    plugins: [markKept]
  })
);

/* A page opened before this worker ran (the first visit: the worker starts only after it) and
   the screens it leads to (a sheet's rounds, the check and rules pages) are kept too, so they
   open offline from the first visit on.  The page asks once it has settled (phone-games.js:
   {type: "keep", page, links}); each one not kept yet is fetched here, one at a time, at low
   priority, and kept as if it had been opened (its data-rendered time says "as of" offline). */
function keepable(url) {
  return url.origin === self.location.origin && !/\.(csv|svg|json|js|png|webmanifest)$/.test(url.pathname) &&
    !/^\/(static|lang|api|engine|healthz)(\/|$)/.test(url.pathname.slice(0)) && !url.searchParams.has("since") &&
    !/\/live$/.test(url.pathname);  /* an event stream never ends: nothing to keep */
}
async function keepPages(urls) {
  const cache = await caches.open(PAGES);
  for (const raw of urls) {
    let url;
    try { url = new URL(raw, self.location.origin); } catch (err) { continue; }
    url.hash = "";
    if (!keepable(url)) continue;
    if (await cache.match(url.href, { ignoreVary: true })) continue;
    try {
      const response = await fetch(url.href, { credentials: "same-origin", priority: "low" });
      const type = response.headers.get("Content-Type") || "";
      if (response.ok && !response.redirected && type.indexOf("text/html") === 0) await cache.put(url.href, response);
    } catch (err) { return; }  /* the network is gone: the rest waits for another visit */
  }
}
/* The other stylesheets and scripts of this release, kept as the static route keeps them. */
async function keepFiles(urls) {
  const cache = await caches.open("thirteen-static-" + RELEASE);
  for (const url of urls) {
    if (await cache.match(url)) continue;
    try {
      const response = await fetch(url, { credentials: "same-origin", priority: "low" });
      if (response.ok) await cache.put(url, response);
    } catch (err) { return; }  /* the network is gone: the rest waits for another visit */
  }
}
let keeping = Promise.resolve();
self.addEventListener("message", function (event) {
  const m = event.data || {};
  if (m.type !== "keep" || !Array.isArray(m.links)) return;
  const urls = [String(m.page || "")].concat(m.links.slice(0, 40).map(String));
  const source = event.source;
  keeping = keeping.then(function () { return keepPages(urls); })
    .then(function () { return keepPages(START_PAGES); })  /* a game can be started offline */
    .then(function () { return keepFiles(OTHER_FILES); }).catch(function () {}).then(function () {
    if (source) source.postMessage({ type: "kept" });  /* the page may say so (data-kept) */
  });
  if (event.waitUntil) event.waitUntil(keeping);
});

workbox.routing.setCatchHandler(async function ({ request }) {
  if (request.mode === "navigate") {
    const page = await workbox.precaching.matchPrecache(OFFLINE);
    if (page) return page;
  }
  return Response.error();
});
