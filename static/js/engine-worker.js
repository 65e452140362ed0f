/* The referee on the phone: a dedicated Web Worker running the rules library in Pyodide.

   static/js/engine.js starts it once the page has settled and sends it {type: "start",
   config} (config: what /engine.json says).  The first time, the worker fetches the engine's
   files itself, counting the bytes (a "progress" message now and then), and keeps each
   file in the service worker's engine cache (the browser's cache keeps them a year too: they
   are named after their content; the download goes on whatever the page does, see below), starts Pyodide with the trimmed standard library, unpacks thirteen.zip, imports
   referee.web.phone and answers one question of each kind (imports done, templates
   compiled).  Then it keeps a memory snapshot of that Python (Cache Storage, where there is
   one: a secure page), so that the next page starts from it in a fraction of the time; a
   snapshot of another engine, or one that fails to load, is ignored and made again.
   Each {type: "ask", id, request} is answered with {type: "answer", id, answer} (the JSON of
   referee.web.phone.answer: the fragment's HTML, its status, the rules to keep) or
   {type: "answer", id, error}: the page then asks the server as before.  Once ready, it fetches
   the pages of a game started on this phone (pages.zip: see pages() below). */
"use strict";

var SNAPSHOTS = "engine-snapshot";  /* not "thirteen-…": the service worker's release clean-up leaves it */
var answerPython = null;
var drawPython = null;
var failed = null;

function post(message) { self.postMessage(message); }

/* The download never stops for the page's own requests (a verdict the server answers, a
   write, a poll): cutting a file off and fetching the rest with a Range request made the
   browser ask for the rest uncompressed (a Range request is sent "Accept-Encoding: identity"),
   3.5 times the bytes of pyodide.asm.wasm, and a tap every few seconds kept it from ever
   ending.  A verdict's answer is a few kilobytes beside it.  A file whose download breaks (bad
   Wi-Fi, no network) is fetched again, on from where it broke when what is left to fetch is
   smaller uncompressed than the whole file compressed, else from the start; the download
   waits meanwhile (1 s, 2 s, 4 s… up to 30 s, sooner when the network is back) and never
   gives up.  Only a refusal (a 4xx: another release's engine) is a failure. */
var wake = null;
function backOff(attempt) {
  return new Promise(function (go) {
    var timer = setTimeout(done, Math.min(1000 * Math.pow(2, attempt), 30000));
    function done() { clearTimeout(timer); wake = null; go(); }
    wake = done;
  });
}
self.addEventListener("online", function () { if (wake) wake(); });
function refused(status) { return status >= 400 && status < 500 && status !== 408 && status !== 429; }

var ENGINE_CACHE = "thirteen-engine";  /* the service worker's cache of the engine's files */
async function cached(url) {
  try { return self.caches ? (await (await caches.open(ENGINE_CACHE)).match(url)) || null : null; } catch (err) { return null; }
}
async function keep(url, bytes, type) {
  try {
    if (!self.caches) return;
    await (await caches.open(ENGINE_CACHE)).put(url, new Response(bytes, { headers: { "Content-Type": type || "application/octet-stream" } }));
  } catch (err) { /* no room: Pyodide fetches it again */ }
}
function joined(parts, length) {
  var all = new Uint8Array(length);
  var at = 0;
  parts.forEach(function (part) { all.set(part, at); at += part.length; });
  return all;
}

/* Fetch the engine's files, saying how far it got.  A file the service worker keeps is read
   from its cache; any other is fetched straight from the network (past the service worker,
   so that cutting it off stops it) and then kept in that cache for Pyodide.  Only
   thirteen.zip is returned (Pyodide fetches the others again, from the cache). */
async function fetchAll(config, wanted) {
  var total = 0;
  var got = 0;
  var last = 0;
  var kept = null;
  wanted.forEach(function (url) { total += config.sizes[url] || 0; });
  function counted(n) {
    got += n;
    if (Date.now() - last > 150) {
      last = Date.now();
      post({ type: "progress", got: got, total: total });
    }
  }
  for (var i = 0; i < wanted.length; i++) {
    var url = wanted[i];
    var parts = [];
    var length = 0;
    var type = null;
    var found = await cached(url);
    if (found) {
      var bytes = new Uint8Array(await found.arrayBuffer());
      counted(bytes.length);
      if (url === config.app) kept = bytes;
      continue;
    }
    var packed = (config.packed && config.packed[url]) || Infinity;
    for (var attempt = 0; ; attempt++) {
      var from = length && (config.sizes[url] || 0) - length < packed ? length : 0;
      if (length && !from) { got -= length; parts = []; length = 0; }  /* cheaper from the start, compressed */
      var headers = { "X-Thirteen-Direct": "1" };
      if (from) headers.Range = "bytes=" + from + "-";
      try {
        var response = await fetch(url, { headers: headers, priority: "low" });
        if (from && response.status !== 206) { got -= length; parts = []; length = 0; }  /* no range: from the start */
        if (!response.ok) {
          var error = new Error(url + ": " + response.status);
          error.refused = refused(response.status);
          throw error;
        }
        type = type || response.headers.get("Content-Type");
        var reader = response.body.getReader();
        for (;;) {
          var step = await reader.read();
          if (step.done) break;
          parts.push(step.value);
          length += step.value.length;
          counted(step.value.length);
        }
        break;
      } catch (err) {
        if (err && err.refused) throw err;
        post({ type: "progress", got: got, total: total, waiting: true });
        await backOff(attempt);  /* no network, a broken connection, a 5xx: on when it can */
      }
    }
    var whole = joined(parts, length);
    await keep(url, whole, type);
    if (url === config.app) kept = whole;
  }
  post({ type: "progress", got: total, total: total });
  return kept;
}

function snapshotRequest(config) { return new Request(config.runtime + "memory-snapshot"); }

async function loadSnapshot(config) {
  try {
    if (!self.caches) return null;
    var cache = await caches.open(SNAPSHOTS);
    var found = await cache.match(snapshotRequest(config));
    if (!found || found.headers.get("X-Engine") !== config.id) return null;
    return new Uint8Array(await found.arrayBuffer());
  } catch (err) { return null; }
}

async function saveSnapshot(config, bytes) {
  try {
    if (!self.caches) return;
    var cache = await caches.open(SNAPSHOTS);
    await cache.put(snapshotRequest(config), new Response(bytes, {
      headers: { "X-Engine": config.id, "Content-Type": "application/octet-stream" }
    }));
  } catch (err) { /* no room: the next page starts the long way */ }
}

function options(config, extra) {
  var o = { indexURL: config.runtime, stdLibURL: config.stdlib, lockFileURL: config.runtime + "pyodide-lock.json",
            packages: [] };
  Object.keys(extra).forEach(function (k) { o[k] = extra[k]; });
  return o;
}

async function start(config) {
  var t0 = Date.now();
  var ms = {};
  var snapshot = await loadSnapshot(config);
  var app = await fetchAll(config, snapshot ? [config.app] : config.files);
  ms.fetch = Date.now() - t0;
  post({ type: "starting" });
  self.importScripts(config.runtime + "pyodide.js");
  var py = null;
  var t1 = Date.now();
  if (snapshot) {
    try {
      py = await self.loadPyodide(options(config, { _loadSnapshot: snapshot }));
      py.unpackArchive(app, "zip", { extractDir: "/thirteen" });
      ms.snapshot = Date.now() - t1;
    } catch (err) {
      py = null;
    }
  }
  if (!py) {
    var making = !!self.caches;
    py = await self.loadPyodide(options(config, making ? { _makeSnapshot: true } : {}));
    ms.pyodide = Date.now() - t1;
    var t2 = Date.now();
    py.unpackArchive(app, "zip", { extractDir: "/thirteen" });
    py.runPython("import sys\nsys.path.insert(0, '/thirteen')\nimport referee.web.phone\n" +
                 "referee.web.phone.warm_up(" + JSON.stringify(config.language) + ")");
    ms.imports = Date.now() - t2;
    if (making) {
      try { saveSnapshot(config, py.makeMemorySnapshot()); } catch (err) { /* started anyway */ }
    }
  }
  answerPython = py.pyimport("referee.web.phone").answer;
  ms.from = snapshot && ms.snapshot !== undefined ? "snapshot" : "start";
  post({ type: "ready", ms: ms });
  if (config.pages) pages(py, config);
}

/* The pages of a game started on this phone (referee.web.phone_pages): pages.zip, fetched only
   once the engine is ready (kept in the engine's cache like its other files), unpacked beside
   thirteen.zip; then {type: "draw", id, request} is answered with the JSON of
   referee.web.phone_pages.draw.  A download that breaks waits and goes on, as the engine's. */
async function pages(py, config) {
  var t0 = Date.now();
  var found = await cached(config.pages);
  var bytes = found ? new Uint8Array(await found.arrayBuffer()) : null;
  for (var attempt = 0; !bytes; attempt++) {
    try {
      var response = await fetch(config.pages, { headers: { "X-Thirteen-Direct": "1" }, priority: "low" });
      if (!response.ok) {
        if (refused(response.status)) return;
        throw new Error(String(response.status));
      }
      bytes = new Uint8Array(await response.arrayBuffer());
      await keep(config.pages, bytes, response.headers.get("Content-Type"));
    } catch (err) {
      await backOff(attempt);
    }
  }
  /* Step by step, each step a task of its own: a verdict asked meanwhile (a message queued behind
     the step) is answered before the next one, not after the whole warm-up (seconds on a busy
     phone). */
  await breath();
  py.unpackArchive(bytes, "zip", { extractDir: "/thirteen" });
  await breath();
  var drawing = py.pyimport("referee.web.phone_pages");
  var names = drawing.modules().toJs();
  for (var i = 0; i < names.length; i++) {
    await breath();
    try { drawing.warm_up(config.language, names[i]); } catch (err) { /* drawn at the first tap instead */ }
  }
  drawPython = drawing.draw;
  post({ type: "pages", ms: Date.now() - t0 });
}

function breath() {
  return new Promise(function (resolve) { setTimeout(resolve, 0); });
}

self.onmessage = function (event) {
  var message = event.data || {};
  if (message.type === "start") {
    start(message.config).catch(function (err) {
      failed = String(err && err.message || err);
      post({ type: "failed", error: failed });
    });
  } else if (message.type === "draw") {
    try {
      if (!drawPython) throw new Error("no pages yet");
      var t0 = performance.now();
      var drawn = JSON.parse(drawPython(JSON.stringify(message.request)));
      drawn.ms = performance.now() - t0;  /* Python's time, measured in the worker */
      post({ type: "answer", id: message.id, answer: drawn });
    } catch (err) {
      post({ type: "answer", id: message.id, error: String(err && err.message || err).slice(-500) });
    }
  } else if (message.type === "ask") {
    if (!answerPython) {
      post({ type: "answer", id: message.id, error: failed || "not ready" });
      return;
    }
    try {
      post({ type: "answer", id: message.id, answer: JSON.parse(answerPython(JSON.stringify(message.request))) });
    } catch (err) {
      post({ type: "answer", id: message.id, error: String(err && err.message || err).slice(-500) });
    }
  }
};
