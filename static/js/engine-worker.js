/* The referee on the phone: a dedicated Web Worker running the rules library in Pyodide.

   static/js/engine.js starts it once the page has settled and sends it {type: "start",
   config} (config: what /engine.json says).  The worker fetches the engine's files itself,
   counting the bytes (a "progress" message now and then; the service worker keeps each file,
   and the browser's cache keeps them a year: they are named after their content), starts
   Pyodide with the trimmed standard library, unpacks thirteen.zip and imports
   referee.web.phone, answers one question of each kind to warm up, then says "ready".
   Each {type: "ask", id, request} is answered with {type: "answer", id, answer} (the JSON of
   referee.web.phone.answer: the fragment's HTML, its status, the rules to keep) or
   {type: "answer", id, error}: the page then asks the server as before. */
"use strict";

var answerPython = null;
var failed = null;
var queue = [];

function post(message) { self.postMessage(message); }

async function fetchAll(config) {
  var total = 0;
  var got = 0;
  config.files.forEach(function (url) { total += config.sizes[url] || 0; });
  var buffers = {};
  var last = 0;
  for (var i = 0; i < config.files.length; i++) {
    var url = config.files[i];
    var response = await fetch(url);
    if (!response.ok) throw new Error(url + ": " + response.status);
    var reader = response.body.getReader();
    var parts = [];
    var length = 0;
    for (;;) {
      var step = await reader.read();
      if (step.done) break;
      if (url === config.app) parts.push(step.value);  /* the others are fetched again from the cache */
      length += step.value.length;
      got += step.value.length;
      if (Date.now() - last > 150) {
        last = Date.now();
        post({ type: "progress", got: got, total: total });
      }
    }
    if (url !== config.app) continue;
    var all = new Uint8Array(length);
    var at = 0;
    parts.forEach(function (part) { all.set(part, at); at += part.length; });
    buffers[url] = all;
  }
  post({ type: "progress", got: total, total: total });
  return buffers;
}

async function start(config) {
  var t0 = Date.now();
  var buffers = await fetchAll(config);
  var fetched = Date.now();
  post({ type: "starting" });
  self.importScripts(config.runtime + "pyodide.js");
  var py = await self.loadPyodide({
    indexURL: config.runtime,
    stdLibURL: config.stdlib,
    lockFileURL: config.runtime + "pyodide-lock.json",
    packages: []
  });
  var loaded = Date.now();
  py.unpackArchive(buffers[config.app], "zip", { extractDir: "/thirteen" });
  py.runPython("import sys\nsys.path.insert(0, '/thirteen')\nimport referee.web.phone");
  answerPython = py.pyimport("referee.web.phone").answer;
  var imported = Date.now();
  /* Warm up: the first answer of a kind compiles its templates. */
  [["tienlen-check", [["table", "2h"], ["play", "2s"]]], ["trece-check", [["top_rank", "K"], ["top_suit", "h"], ["play", "Kd"]]],
   ["three-thirteen-score", [["hand", "3s 4s 5s"]]]].forEach(function (w) {
    answerPython(JSON.stringify({ kind: w[0], language: config.language, form: w[1], remembered: {} }));
  });
  post({ type: "ready", ms: { fetch: fetched - t0, pyodide: loaded - fetched, imports: imported - loaded,
                              warm: Date.now() - imported } });
}

self.onmessage = function (event) {
  var message = event.data || {};
  if (message.type === "start") {
    start(message.config).catch(function (err) {
      failed = String(err && err.message || err);
      post({ type: "failed", error: failed });
    });
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
