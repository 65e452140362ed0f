/* The phone's engine under Node.js, for the parity test (tests/test_phone_parity.py).
   node run_engine.cjs <engine folder> <runtime dir> <app dir> <requests.json> [<full stdlib zip>]

   Loads Pyodide from the built engine exactly as the phone's worker does (the runtime, the
   trimmed standard library, thirteen.zip), answers every request of requests.json with
   referee.web.phone.render, then (with the full standard library added, for doctest and its
   helpers, which the phone never needs) runs the doctests of the modules listed in the file.
   Prints one JSON object: {"answers": [...], "doctests": {...}, "python": "...", "ms": {...}}. */
"use strict";
const fs = require("fs");
const path = require("path");
const [folder, runtime, app, requestsFile, fullStdlib] = process.argv.slice(2);
const { loadPyodide } = require(path.join(folder, runtime, "pyodide.js"));

(async function main() {
  const t0 = Date.now();
  const py = await loadPyodide({
    indexURL: path.join(folder, runtime) + "/",
    stdLibURL: path.join(folder, app, "python_stdlib.zip"),
    lockFileURL: path.join(folder, runtime, "pyodide-lock.json"),
    packages: [],
  });
  py.unpackArchive(new Uint8Array(fs.readFileSync(path.join(folder, app, "thirteen.zip"))), "zip", { extractDir: "/thirteen" });
  py.runPython("import sys; sys.path.insert(0, '/thirteen'); import referee.web.phone");
  const t1 = Date.now();
  const job = JSON.parse(fs.readFileSync(requestsFile, "utf8"));
  const answer = py.globals.get("__import__")("referee.web.phone").web.phone.answer;
  const answers = [];
  const started = Date.now();
  for (const request of job.requests) {
    try {
      answers.push(JSON.parse(answer(JSON.stringify(request))));
    } catch (err) {
      answers.push({ error: String(err).slice(-2000) });
    }
  }
  const t2 = Date.now();
  let doctests = {};
  if (fullStdlib && job.doctest_modules && job.doctest_modules.length) {
    py.FS.writeFile("/full_stdlib.zip", new Uint8Array(fs.readFileSync(fullStdlib)));
    py.globals.set("MODULES", py.toPy(job.doctest_modules));
    doctests = py.runPython(`
import sys
sys.path.append("/full_stdlib.zip")
import doctest, importlib, json
results = {}
for name in MODULES:
    module = importlib.import_module(name)
    r = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    results[name] = [r.failed, r.attempted]
json.dumps(results)`);
    doctests = JSON.parse(doctests);
  }
  const python = py.runPython("import sys; sys.version.split()[0]");
  process.stdout.write(JSON.stringify({ answers, doctests, python,
    ms: { start: t1 - t0, answers: t2 - started } }));
})().catch(function (err) { process.stderr.write(String(err && err.stack || err)); process.exit(1); });
