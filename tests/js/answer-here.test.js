/* Unit tests of static/js/answer-here.js, run by Node's own test runner (`node --test tests/js`,
   which tests/test_js_units.py runs in the suite): the one seam through which the phone answers
   one of htmx's requests itself. */
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const { answer } = require("../../static/js/answer-here.js");

/* An XMLHttpRequest as the browser makes it: its fields and methods on the prototype. */
class FakeXhr {
  constructor() { this.sent = []; this.onload = null; }
  get status() { return 0; }
  get readyState() { return 1; }
  get responseText() { return ""; }
  get responseURL() { return ""; }
  getResponseHeader() { return null; }
  getAllResponseHeaders() { return ""; }
  send(body) { this.sent.push(body); }
}
function loaded(xhr) { return new Promise((resolve) => { xhr.onload = () => resolve(xhr); }); }

test("a request answered here is never sent and ends as the answer says", async () => {
  const xhr = new FakeXhr();
  let done = null;
  answer(xhr, () => Promise.resolve({ status: 422, body: "<p>no</p>", headers: { "HX-Trigger": "judged" } }),
         "/trece/check?x=1", (reply) => { done = reply; });
  const ended = loaded(xhr);
  xhr.send("cards=Kh");
  await ended;
  assert.deepEqual(xhr.sent, []);
  assert.equal(xhr.status, 422);
  assert.equal(xhr.readyState, 4);
  assert.equal(xhr.responseText, "<p>no</p>");
  assert.equal(xhr.response, "<p>no</p>");
  assert.equal(xhr.responseURL, "/trece/check?x=1");
  assert.equal(xhr.getResponseHeader("hx-trigger"), "judged");  /* any case, as a browser's */
  assert.equal(xhr.getResponseHeader("HX-Push-Url"), null);
  assert.match(xhr.getAllResponseHeaders(), /^hx-trigger: judged\r\n/m);  /* htmx reads HX-* headers here */
  assert.match(xhr.getAllResponseHeaders(), /content-type: text\/html/);
  assert.equal(xhr.answeredHere, true);
  await new Promise((r) => setImmediate(r));
  assert.equal(done.status, 422);
});

test("produce is given what htmx sends, and a status defaults to 200", async () => {
  const xhr = new FakeXhr();
  let given = null;
  answer(xhr, (body) => { given = body; return { body: "ok" }; }, "/x");
  const ended = loaded(xhr);
  xhr.send("a=1&b=2");
  await ended;
  assert.equal(given, "a=1&b=2");
  assert.equal(xhr.status, 200);
});

test("when produce fails the request goes to the server, unchanged", async () => {
  for (const produce of [() => Promise.reject(new Error("engine gone")), () => { throw new Error("sync"); }, () => null]) {
    const xhr = new FakeXhr();
    answer(xhr, produce, "/x");
    xhr.onload = () => assert.fail("not answered here");
    xhr.send("a=1");
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(xhr.sent, ["a=1"]);  /* the prototype's send, with the same body */
    assert.equal(xhr.status, 0);
    assert.equal(xhr.answeredHere, undefined);
    assert.equal(Object.prototype.hasOwnProperty.call(xhr, "send"), false);
  }
});

test("only the request it was given is answered here", async () => {
  const mine = new FakeXhr();
  const other = new FakeXhr();
  answer(mine, () => ({ body: "here" }), "/x");
  other.send("b=2");
  assert.deepEqual(other.sent, ["b=2"]);
  const ended = loaded(mine);
  mine.send("a=1");
  await ended;
  assert.deepEqual(mine.sent, []);
});
