/* Thirteen's service worker, release {{ release }}: Workbox, served by this app.
   - The app shell (what every page loads) is precached at install; any other static file
     of this release is kept the first time a page asks for it.
   - Each page the phone opens is kept (network first): without a network the kept copy is
     shown, marked data-from-cache so the page says how old it is.  A page never opened on
     this phone shows the offline page instead.
   - htmx requests (verdicts, polls, writes) always go to the network: a write that cannot
     be sent is kept by app.js on the phone, never by this worker.
   - A new release installs at once and deletes every cache of the releases before it. */
importScripts({% for url in workbox %}{{ url | tojson }}{% if not loop.last %}, {% endif %}{% endfor %});

const RELEASE = {{ release | tojson }};
const PAGES = "thirteen-pages-" + RELEASE;
const OFFLINE = {{ offline_page | tojson }};

workbox.core.setCacheNameDetails({ prefix: "thirteen", suffix: RELEASE });
workbox.core.skipWaiting();
workbox.core.clientsClaim();
workbox.precaching.precacheAndRoute(
  {{ shell | tojson }}.map(function (url) { return { url: url, revision: null }; })
    .concat([{ url: OFFLINE, revision: RELEASE }]),
  { ignoreURLParametersMatching: [/.*/] }
);

self.addEventListener("install", function (event) {
  // The start page opens offline too (the installed app starts there).
  event.waitUntil(caches.open(PAGES).then(function (cache) { return cache.add("/"); }).catch(function () {}));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) {
      return name.indexOf("thirteen-") === 0 && name.slice(-RELEASE.length) !== RELEASE;
    }).map(function (name) { return caches.delete(name); }));
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

workbox.routing.setCatchHandler(async function ({ request }) {
  if (request.mode === "navigate") {
    const page = await workbox.precaching.matchPrecache(OFFLINE);
    if (page) return page;
  }
  return Response.error();
});
