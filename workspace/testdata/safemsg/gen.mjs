// gen.mjs writes golden.jsonl: inputs for workspace.safeText and the output of
// the TypeScript original's safeErrorMessage, run by JavaScript itself.
//
// Regenerate (plain Node, no packages; from the repository root):
//
//	node workspace/testdata/safemsg/gen.mjs
//
// The output is a pure function of SEED and this file (a PRNG written here,
// no Math.random, no clock), and of the engine's Unicode tables, which the
// header line records. Go's TestSafeTextGolden reads the committed file, so CI
// needs no Node.
//
// Format: line 1 is {"meta":{...}}: the generator, the Node and Unicode
// versions, the case count, every BMP code point JavaScript's \s matches, and
// for each character of the patterns the BMP code points /i lets match it.
// Every other line is one case {"k":kind,"in":input,"out":output}, in
// printable ASCII (DEL and non-ASCII characters as \u escapes). Where
// JavaScript's .slice(0, 512) cut an astral character in half, its output ends
// in a lone high surrogate that a Go string cannot hold: "out" is JavaScript's
// output without that last unit and "jsLoneHigh" names the dropped unit (hex),
// so the Go test applies the documented deviation visibly rather than hiding it.
// Inputs never hold lone surrogates (a Go string cannot carry one).

import { writeFileSync } from "node:fs";

const SEED = 0x5afe3e55;
const OUT = new URL("./golden.jsonl", import.meta.url);

// The function under test, verbatim from packages/computer/src/observe.ts.
function safeErrorMessage(error) {
  const message = error instanceof Error ? error.message : String(error);
  return Array.from(message, (character) => character < " " || character.charCodeAt(0) === 127 ? " " : character)
    .join("")
    .replace(/\b(authorization|token|api[_-]?key|password|secret|cookie)=([^\s&]+)/gi, "$1=[REDACTED]")
    .replace(/\bBearer\s+[^\s,;]+/gi, "Bearer [REDACTED]")
    .slice(0, 512);
}

// mulberry32: a small 32-bit PRNG, enough to spread inputs deterministically.
let state = SEED >>> 0;
function next() {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const rnd = (n) => Math.floor(next() * n);
const pick = (a) => a[rnd(a.length)];
const chance = (p) => next() < p;
const range = (lo, hi) => Array.from({ length: hi - lo + 1 }, (_, i) => lo + i);
const ch = (cp) => String.fromCodePoint(cp);
const units = (s) => s.length;

// Character pools, as code points.
const JS_WS = [0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0xa0, 0x1680, ...range(0x2000, 0x200a), 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff];
const NEAR_WS = [0x85, 0x180e, 0x200b, 0xfffe, 0xffff, 0x200c, 0x200d, 0x2060, 0xad, 0x1c, 0x1f];
const CTRL = [...range(0x00, 0x1f), 0x7f];
const C1 = range(0x80, 0x9f); // not control characters to the original
const ASTRAL = [0x1f600, 0x1f64f, 0x1f389, 0x1f4a9, 0x10000, 0x10ffff, 0x1d400, 0x1d42d, 0x20000, 0xe0041, 0x1f1fa];
const WORD = [...range(0x41, 0x5a), ...range(0x61, 0x7a), ...range(0x30, 0x39), 0x5f];
const PUNCT = [..."=&,;:/?#.-\"'()[]{}<>@!%+*|\\~`$^"].map((c) => c.codePointAt(0));
// Non-ASCII characters that fold or look like ASCII letters of the keywords.
const TRAPS = {
  k: [0x212a, 0x43a, 0xff4b], s: [0x17f, 0x455, 0xff53], i: [0x131, 0x130, 0x456, 0xff49],
  o: [0x43e, 0x3bf, 0xff4f], e: [0x435, 0xff45], a: [0x430, 0xff41], p: [0x440, 0xff50],
  c: [0x441, 0xff43], y: [0x443, 0xff59], t: [0xff54, 0x1d42d], r: [0xff52], n: [0xff4e],
  b: [0xff42], h: [0x4bb, 0xff48], u: [0xff55], w: [0xff57], d: [0xff44], z: [0xff5a],
};
const KEYWORDS = ["authorization", "token", "api_key", "api-key", "apikey", "password", "secret", "cookie"];
const NEAR_KEYWORDS = ["tokens", "toke", "api key", "api__key", "api=key", "passwd", "secrets", "cookies", "autorization", "auth", "Bearers", "Beare", "bearer_", "xBearer"];

function randomCodePoint() {
  for (;;) {
    const r = next();
    const cp = r < 0.5 ? 0x20 + rnd(0x60) : r < 0.8 ? rnd(0x10000) : rnd(0x110000);
    if (cp < 0xd800 || cp > 0xdfff) return cp;
  }
}

function randCase(word, trapP = 0) {
  let out = "";
  for (const c of word) {
    const lower = c.toLowerCase();
    if (trapP > 0 && TRAPS[lower] && chance(trapP)) out += ch(pick(TRAPS[lower]));
    else out += chance(0.5) ? c.toUpperCase() : lower;
  }
  return out;
}

function charFrom(pools) {
  return ch(pick(pick(pools)));
}

function text(n, pools) {
  let s = "";
  for (let i = 0; i < n; i++) s += charFrom(pools);
  return s;
}

const valuePools = [WORD, WORD, WORD, PUNCT, JS_WS, NEAR_WS, ASTRAL, C1];
const fillerPools = [WORD, WORD, PUNCT, JS_WS, NEAR_WS, ASTRAL, CTRL, [0x20, 0x20]];
const wsRun = () => text(1 + rnd(3), chance(0.8) ? [JS_WS] : [JS_WS, NEAR_WS, CTRL]);

// prefix ends right before a keyword: a word character (no \b), or not.
function prefix() {
  const r = rnd(6);
  if (r === 0) return "";
  if (r === 1) return charFrom([WORD]);
  if (r === 2) return charFrom([TRAPS.k, TRAPS.s, ASTRAL, C1]);
  return text(rnd(12), fillerPools) + charFrom([JS_WS, PUNCT, [0x20]]);
}

function assignment() {
  const kw = chance(0.9) ? randCase(pick(KEYWORDS), chance(0.2) ? 0.15 : 0) : randCase(pick(NEAR_KEYWORDS));
  const eq = chance(0.92) ? "=" : pick([" =", ":", "= ", "==", "\u2028=", "\uff1d"]);
  return prefix() + kw + eq + text(rnd(10), valuePools) + charFrom([JS_WS, PUNCT, [0x26], NEAR_WS]) + text(rnd(8), fillerPools);
}

function bearer() {
  const word = chance(0.9) ? randCase("Bearer", chance(0.2) ? 0.15 : 0) : randCase(pick(NEAR_KEYWORDS));
  const sep = chance(0.85) ? wsRun() : pick(["", ":", "\u200b", "\u0085", "=", "\u180e"]);
  return prefix() + word + sep + text(rnd(10), valuePools) + charFrom([JS_WS, [0x2c, 0x3b, 0x26], NEAR_WS]) + text(rnd(8), fillerPools);
}

function multi() {
  const n = 2 + rnd(4);
  const parts = [];
  for (let i = 0; i < n; i++) parts.push(pick([assignment, bearer, () => text(rnd(6), fillerPools)])());
  return parts.join(pick(["", " ", "&", ";", ",", "\u00a0", "\n", "\u3000"]));
}

function controls() {
  const pools = [CTRL, CTRL, C1, WORD, JS_WS, [0x7f]];
  const parts = [];
  for (let i = 0, n = 1 + rnd(4); i < n; i++) {
    parts.push(text(rnd(6), pools));
    // A control character where a space would make a match: "Bearer\ttok".
    parts.push(pick([randCase("Bearer"), randCase(pick(KEYWORDS)) + "="]) + text(1 + rnd(2), [CTRL]) + text(1 + rnd(6), [WORD, CTRL]));
  }
  return parts.join("");
}

// longText reaches past the 512-unit cut, often putting an astral character,
// a secret, or both right at it. Far from the cut the filler is plain ASCII,
// which keeps the golden file small; near it, any pool.
function longText() {
  const target = chance(0.92) ? 495 + rnd(40) : 535 + rnd(500);
  const plain = [WORD, WORD, WORD, PUNCT, [0x20]];
  const near = chance(0.5) ? plain : fillerPools;
  let s = "";
  const fill = (until, pools, astralP) => {
    while (units(s) < until) s += chance(astralP) ? ch(pick(ASTRAL)) : charFrom(pools);
  };
  fill(470 + rnd(30), plain, 0.01);
  switch (rnd(4)) {
    case 0: // An astral character starting at unit 510, 511 or 512.
      fill(509 + rnd(4), near.filter((p) => p !== ASTRAL), 0);
      s += ch(pick(ASTRAL));
      break;
    case 1: // A secret at the cut: redaction moves what the cut falls on.
      fill(490 + rnd(30), near, 0.05);
      s += pick([assignment, bearer])();
      break;
    case 2: // Secrets before the cut change the length the cut sees.
      while (units(s) < 530) s += chance(0.1) ? pick([assignment, bearer])() : charFrom(near);
      break;
    default: // Astral characters dense around the cut.
      fill(525, near, 0.4);
  }
  fill(target, plain, 0.02);
  return s;
}

function unicodeSoup() {
  let s = "";
  for (let i = 0, n = rnd(40); i < n; i++) s += ch(randomCodePoint());
  return s;
}

function mixed() {
  const parts = [];
  for (let i = 0, n = 1 + rnd(8); i < n; i++) {
    parts.push(pick([
      () => randCase(pick(KEYWORDS), 0.1),
      () => randCase("Bearer", 0.1),
      () => "=",
      () => wsRun(),
      () => text(1 + rnd(5), [WORD, PUNCT, ASTRAL, NEAR_WS, C1]),
      () => ch(randomCodePoint()),
    ])());
  }
  return parts.join("");
}

// Deterministic edges: every whitespace, near miss and control character in
// the places that decide a match; every fold trap in every keyword.
function edges() {
  const out = [
    ["required", "Bearer\u00a0x"], ["required", "token=abc\u00a0tail"], ["required", "coo\u212aie=v"],
    ["required", ""], ["required", "Bearer"], ["required", "token="], ["required", "token=&"], ["required", "Bearer ,x"],
  ];
  for (const c of [...JS_WS, ...NEAR_WS, ...CTRL, ...C1.slice(0, 8)].map(ch)) {
    for (const s of [
      `Bearer${c}x`, `Bearer${c}${c}tok,rest`, `token=abc${c}tail`, `cookie=${c}v`, `${c}password=p`,
      `secret=a${c}b&c=d`, `x${c}Bearer${c}y;z`, `api${c}key=v`, `Bearer${c}`, `${c}Bearer x`,
    ]) out.push(["edge-ws", s]);
  }
  for (const kw of [...KEYWORDS, "Bearer"]) {
    const tail = kw === "Bearer" ? " tok" : "=v";
    for (let i = 0; i < kw.length; i++) {
      for (const t of TRAPS[kw[i].toLowerCase()] || []) out.push(["edge-fold", kw.slice(0, i) + ch(t) + kw.slice(i + 1) + tail]);
    }
    for (const p of ["a", "Z", "0", "_", "-", ".", "\u00e9", " ", "\u212a", "\u{1f600}", "\u00a0", "\u0000"]) {
      out.push(["edge-boundary", p + kw + tail]);
      out.push(["edge-boundary", kw.toUpperCase() + tail + p]);
    }
  }
  return out;
}

const generators = [
  ["assign", assignment, 3000], ["bearer", bearer, 2500], ["multi", multi, 1600], ["control", controls, 1000],
  ["long", longText, 1000], ["unicode", unicodeSoup, 1000], ["mixed", mixed, 1200],
];

// asciiJSON is JSON.stringify with DEL and every non-ASCII character as a
// \u escape (astral ones as a surrogate pair), so that no-break spaces, format
// characters and look-alike letters stay visible in a review of the file.
function asciiJSON(v) {
  return JSON.stringify(v).replace(/[^\x00-\x7e]/g, (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0"));
}

// loneSurrogates lists the indexes of unpaired surrogate units in s.
function loneSurrogates(s) {
  const bad = [];
  for (let i = 0; i < s.length; i++) {
    const u = s.charCodeAt(i);
    if (u >= 0xd800 && u <= 0xdbff) {
      const v = s.charCodeAt(i + 1);
      if (v >= 0xdc00 && v <= 0xdfff) i++;
      else bad.push(i);
    } else if (u >= 0xdc00 && u <= 0xdfff) bad.push(i);
  }
  return bad;
}

const cases = edges();
for (const [kind, gen, n] of generators) for (let i = 0; i < n; i++) cases.push([kind, gen()]);

const seen = new Set();
const lines = [];
let loneHigh = 0;
for (const [kind, input] of cases) {
  if (seen.has(input)) continue;
  seen.add(input);
  if (loneSurrogates(input).length) throw new Error(`input with a lone surrogate: ${JSON.stringify(input)}`);
  let out = safeErrorMessage(new Error(input));
  const rec = { k: kind, in: input, out };
  const bad = loneSurrogates(out);
  if (bad.length) {
    const last = out.length - 1;
    const u = out.charCodeAt(last);
    if (bad.length !== 1 || bad[0] !== last || out.length !== 512 || u > 0xdbff) {
      throw new Error(`unexpected lone surrogate in output of ${JSON.stringify(input)}`);
    }
    rec.out = out.slice(0, last);
    rec.jsLoneHigh = u.toString(16);
    loneHigh++;
  }
  lines.push(asciiJSON(rec));
}

// What this engine's \s and /i match, for the Go test to hold its classes to.
const bmp = range(0, 0xffff).map((u) => String.fromCharCode(u));
const whitespace = range(0, 0xffff).filter((u) => /^\s$/.test(bmp[u]));
const fold = {};
for (const c of [...new Set([...KEYWORDS.join(""), ..."Bearer"])].sort()) {
  const re = new RegExp(`^[${c === "-" ? "\\-" : c}]$`, "i");
  fold[c] = range(0, 0xffff).filter((u) => re.test(bmp[u]));
}

const meta = {
  generator: "workspace/testdata/safemsg/gen.mjs", seed: SEED, node: process.version, unicode: process.versions.unicode,
  cases: lines.length, jsLoneHigh: loneHigh, whitespace, fold,
};
writeFileSync(OUT, [JSON.stringify({ meta }), ...lines, ""].join("\n"));
console.error(`wrote ${lines.length} cases (${loneHigh} ending in a lone high surrogate) to ${OUT.pathname}`);
