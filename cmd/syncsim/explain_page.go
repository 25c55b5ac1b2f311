package main

// explainHTML is the page template. Everything is inline: no fonts, styles,
// scripts or images are fetched. The script only draws explainData (laid out
// in Go) with DOM calls and textContent, never innerHTML; the SVG namespace
// is read from the page's own <svg> element.
const explainHTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>
:root { --fg:#1d2430; --muted:#637083; --line:#d9dee6; --bg:#ffffff; --lane:#f6f8fb; --lane2:#eef2f7;
  --ok:#2f9e5b; --pend:#e09b20; --bad:#d63b36; --exh:#8e44ad; --idle:#8a97a8; --pull:#1f8f8a; --alarm:#2f6fd0; --restart:#7b3fa0; }
* { box-sizing: border-box; }
body { margin: 0; font: 13px/1.4 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif; color: var(--fg); background: var(--bg); }
header { padding: 12px 18px 6px; border-bottom: 1px solid var(--line); }
h1 { font-size: 18px; margin: 0 0 8px; }
h2 { font-size: 15px; margin: 14px 18px 6px; }
code, pre, .mono { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 12px; }
.banner { padding: 8px 12px; border-radius: 6px; margin: 0 0 10px; }
.banner.bad { background: #fde8e7; border: 2px solid var(--bad); }
.banner.bad b { color: var(--bad); }
.banner.ok { background: #e6f5ec; border: 1px solid var(--ok); }
.banner pre { margin: 6px 0 0; white-space: pre-wrap; max-height: 10em; overflow: auto; }
dl.facts { font-size: 12px; display: grid; grid-template-columns: max-content 1fr; gap: 2px 14px; margin: 0; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; }
dl.facts dd span { display: inline-block; margin-right: 12px; }
details { margin: 6px 0; }
ol.ops { margin: 0 18px; padding: 6px 8px 6px 44px; columns: 6 210px; column-gap: 28px; background: var(--lane); border-radius: 4px;
  font: 11px/1.5 "DejaVu Sans Mono", Menlo, Consolas, monospace; }
ol.ops li { white-space: pre; break-inside: avoid; }
.legend { display: flex; flex-wrap: wrap; gap: 4px 16px; padding: 8px 18px; color: var(--muted); align-items: center; }
.legend svg { vertical-align: middle; margin-right: 4px; }
.controls { padding: 2px 18px 6px; color: var(--muted); }
.controls button { font: inherit; padding: 1px 8px; }
.timeline { display: flex; border-top: 1px solid var(--line); border-bottom: 1px solid var(--line); }
#labels { flex: none; background: var(--bg); border-right: 1px solid var(--line); }
.scroll { overflow-x: auto; overflow-y: hidden; flex: 1; }
svg text { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 10px; }
.lane { fill: var(--lane); }
.lane.odd { fill: var(--lane2); }
.lane-host { fill: #f3f0f8; }
.rowline { stroke: #e3e7ee; stroke-width: 1; }
.lanename { font-size: 13px; font-weight: bold; fill: var(--fg); }
.rowname { fill: var(--muted); }
.tick { stroke: #dfe3ea; stroke-width: 1; }
.tick.extra { stroke: #efc46a; stroke-dasharray: 2 3; }
.ticklabel.extra { fill: #b07500; }
.ticklabel { fill: var(--muted); }
.item { cursor: pointer; }
.item text { pointer-events: none; }
.lbl { fill: var(--fg); }
.lbl.in { fill: #fff; }
.op rect { stroke: rgba(0,0,0,.25); stroke-width: 1; }
.out-complete rect { fill: var(--ok); }
.out-pending rect { fill: var(--pend); }
.out-pending .lbl.in, .out-cut .lbl.in, .out-done .lbl.in, .out-idle .lbl.in { fill: var(--fg); }
.out-error rect, .out-rejected rect, .out-lost rect { fill: var(--bad); }
.out-exhausted rect { fill: var(--exh); }
.out-idle rect, .out-none rect, .out-done rect { fill: #b9c3d1; }
.out-cut rect { fill: #d5d9e0; stroke: var(--restart); stroke-dasharray: 3 2; }
.op-write rect { fill: #7d9cc7; }
.op-tail rect { fill: #a7b4c4; }
.pull rect { stroke: rgba(0,0,0,.2); }
.pull-eof rect { fill: var(--pull); }
.pull-failed rect { fill: #e4837f; }
.pull-closed rect, .pull-open rect { fill: #c5ccd6; }
.pull-closed .lbl.in, .pull-open .lbl.in, .pull-failed .lbl.in { fill: var(--fg); }
.intent.backoff rect { fill: url(#hatch); stroke: var(--pend); }
.intent.backoff .lbl.in { fill: #6b4a00; }
.intent.due rect { fill: var(--pend); }
.intent.due.open rect { stroke: var(--bad); stroke-width: 2; stroke-dasharray: 4 2; }
.store-clear rect { fill: var(--fg); }
.fault path { fill: #f06a28; stroke: #8f2a00; stroke-width: 1; }
.fault .lbl { fill: #a23b00; }
.alarm-fire circle { fill: var(--alarm); }
.alarm-armed rect { fill: #c9dcf7; stroke: var(--alarm); }
.alarm-armed .lbl.in { fill: #123e7c; }
.alarm-target path { fill: #fff; stroke: var(--alarm); stroke-width: 2; }
.alarm-cancel path { stroke: var(--muted); stroke-width: 2; }
.host-start rect { fill: var(--restart); }
.advance line { stroke: var(--muted); stroke-width: 2; }
.liveness circle { fill: var(--ok); }
.host-other circle { fill: var(--idle); }
.violation-dot circle { fill: var(--bad); stroke: #600; }
.vline line.v { stroke-width: 2; }
.vline line.hit { stroke: transparent; stroke-width: 9; }
.restart line.v { stroke: var(--restart); stroke-dasharray: 6 4; }
.restart text { fill: var(--restart); font-weight: bold; }
.violation line.v { stroke: var(--bad); stroke-width: 3; }
.violation text { fill: var(--bad); font-weight: bold; font-size: 11px; }
.violation rect.vbg { fill: #fde8e7; stroke: var(--bad); }
.item.sel rect, .item.sel path, .item.sel circle { stroke: #000; stroke-width: 2.5; }
#tip { position: fixed; z-index: 10; max-width: 760px; background: #1d2430; color: #f2f4f7; padding: 8px 10px; border-radius: 6px;
  font: 11px/1.35 "DejaVu Sans Mono", Menlo, Consolas, monospace; white-space: pre-wrap; pointer-events: none; box-shadow: 0 4px 14px rgba(0,0,0,.25); }
ol.trace { margin: 0 18px 24px; padding: 4px 0 4px 64px; max-height: 42vh; overflow: auto; position: relative; border: 1px solid var(--line); border-radius: 4px;
  font: 11px/1.5 "DejaVu Sans Mono", Menlo, Consolas, monospace; }
ol.trace li { white-space: pre; cursor: pointer; padding-right: 8px; }
ol.trace li::marker { color: var(--muted); }
ol.trace li.hdr { color: var(--muted); cursor: default; }
ol.trace li.ev-host { color: #4a3a66; }
ol.trace li.ev-faulted { background: #fff0e6; }
ol.trace li.ev-violation { background: #fde8e7; color: var(--bad); font-weight: bold; }
ol.trace li.hl { background: #fff3b0; outline: 1px solid #e0c200; }
.note { color: var(--muted); }
</style>
</head>
<body>
<header>
<h1>syncsim explain &mdash; seed {{.Seed}}</h1>
{{if .Violation}}<div class="banner bad" id="violation"><b>VIOLATION: {{.Violation.Property}}</b> at {{.Violation.At}}{{if .Violation.Line}} (trace line <a href="#L{{.Violation.Line}}" data-line="{{.Violation.Line}}">{{.Violation.Line}}</a>){{end}}<pre>{{.Violation.Detail}}</pre></div>
{{else}}<div class="banner ok" id="passed">Every property held.</div>
{{end}}<dl class="facts">
<dt>seed</dt><dd class="mono">{{.Seed}}</dd>
<dt>profile</dt><dd class="mono">{{.Profile}}</dd>
<dt>config</dt><dd class="mono">{{range .Config}}<span>{{.}}</span>{{end}}</dd>
<dt>trace hash</dt><dd class="mono" id="hash">{{.Hash}}</dd>
<dt>stats</dt><dd class="mono">{{range .Stats}}<span>{{.}}</span>{{end}}</dd>
</dl>
</header>
<div class="legend">
<span><svg width="26" height="12"><rect x="1" y="1" width="24" height="10" rx="2" fill="#2f9e5b"/></svg>exec / retry &rarr; complete</span>
<span><svg width="26" height="12"><rect x="1" y="1" width="24" height="10" rx="2" fill="#e09b20"/></svg>&rarr; pending</span>
<span><svg width="26" height="12"><rect x="1" y="1" width="24" height="10" rx="2" fill="#d63b36"/></svg>&rarr; error / rejected / lost</span>
<span><svg width="26" height="12"><rect x="1" y="1" width="24" height="10" rx="2" fill="#8e44ad"/></svg>&rarr; exhausted</span>
<span><svg width="26" height="12"><rect x="1" y="1" width="24" height="10" rx="2" fill="#1f8f8a"/></svg>pull (fetch &rarr; eof)</span>
<span><svg width="26" height="12"><rect x="1" y="1" width="24" height="10" rx="2" fill="#fbeccc" stroke="#e09b20"/></svg>intent backoff (scheduled &rarr; notBefore)</span>
<span><svg width="26" height="12"><rect x="1" y="1" width="24" height="10" rx="2" fill="#e09b20"/></svg>intent due (notBefore &rarr; cleared / replaced)</span>
<span><b class="mono">a1</b>, <b class="mono">a2</b>, &hellip; the intent&rsquo;s attempt (a bar label: <span class="mono">a2 backoff</span>, <span class="mono">a2 due</span>; after a retry: its new attempt)</span>
<span><b class="mono">exec wait w2 &rarr; pending</b> an op bar&rsquo;s label: the op (<span class="mono">w2</span>: its command writes two files), then how it ended (a short bar&rsquo;s label follows it, cut with &hellip;)</span>
<span><b class="mono">+0000012.345</b> virtual time: seconds from the start, as the trace prints it</span>
<span><svg width="16" height="14"><path d="M8 1 L14 13 L2 13 Z" fill="#f06a28" stroke="#8f2a00"/></svg>injected fault</span>
<span><svg width="14" height="14"><circle cx="7" cy="7" r="5" fill="#2f6fd0"/></svg>alarm fires</span>
<span><svg width="26" height="12"><rect x="1" y="1" width="24" height="10" rx="2" fill="#c9dcf7" stroke="#2f6fd0"/></svg>alarm armed</span>
<span><svg width="14" height="30"><line x1="7" y1="0" x2="7" y2="30" stroke="#7b3fa0" stroke-width="2" stroke-dasharray="6 4"/></svg>host restart</span>
<span><svg width="14" height="30"><line x1="7" y1="0" x2="7" y2="30" stroke="#d63b36" stroke-width="3"/></svg>violation</span>
</div>
<div class="controls">zoom <button type="button" id="zout">&minus;</button> <span id="zoomv">100%</span> <button type="button" id="zin">+</button> <button type="button" id="zfit">fit</button>
<span class="note">&nbsp; Time runs left to right on a compressed scale (gaps grow with the log of elapsed virtual time); events at one instant are spread out in trace order. Hover a mark for its trace lines, click to find them below.</span></div>
<div class="timeline" id="timeline"><svg id="labels" width="150" height="10"></svg><div class="scroll" id="scroll"><svg id="tl" width="10" height="10"></svg></div></div>
<div id="tip" hidden></div>
<h2>ops <span class="note">({{.Steps}} steps, as the scenario file lists them)</span></h2>
<ol class="ops" id="ops">{{range .Ops}}<li>{{.}}</li>{{end}}</ol>
<h2>trace{{if .Dropped}} <span class="note">({{.Dropped}} earlier lines not kept)</span>{{end}}</h2>
<ol class="trace" id="trace">
{{range $i, $h := .Headers}}<li class="hdr" value="{{$i | inc}}">{{$h}}</li>
{{end}}{{range .Lines}}<li id="L{{.No}}" value="{{.No}}" class="{{.Class}}">{{.Raw}}</li>
{{end}}</ol>
<script>
(function () {
  'use strict';
  window.onerror = function (msg, src, line, col) {
    document.body.dataset.error = String(msg) + ' (' + line + ':' + col + ')';
  };
  var D = {{.Data}};
  var tl = document.getElementById('tl');
  var labels = document.getElementById('labels');
  var scroll = document.getElementById('scroll');
  var tip = document.getElementById('tip');
  var trace = document.getElementById('trace');
  var NS = tl.namespaceURI;
  var CHAR = 6.02; // 10px monospace
  var zoom = 1;
  var selected = -1;

  function el(parent, name, attrs, text) {
    var e = document.createElementNS(NS, name);
    for (var k in attrs) { if (Object.prototype.hasOwnProperty.call(attrs, k)) e.setAttribute(k, attrs[k]); }
    if (text !== undefined) e.textContent = text;
    parent.appendChild(e);
    return e;
  }
  function X(x) { return Math.round(x * zoom); }
  function textW(s) { return Math.ceil(s.length * CHAR); }

  function drawLabels() {
    labels.textContent = '';
    labels.setAttribute('height', D.height);
    el(labels, 'text', { x: 142, y: 12, 'class': 'rowname', 'text-anchor': 'end' }, 'virtual time');
    el(labels, 'text', { x: 142, y: 24, 'class': 'ticklabel extra', 'text-anchor': 'end' }, 'due / alarm times');
    D.lanes.forEach(function (ln, i) {
      el(labels, 'rect', { x: 0, y: ln.y, width: 150, height: ln.h, 'class': 'lane' + (ln.host ? ' lane-host' : '') + (i % 2 ? ' odd' : '') });
      el(labels, 'text', { x: 8, y: ln.y + 18, 'class': 'lanename', 'data-lane': ln.name }, ln.host ? 'host' : 'backend ' + ln.name);
      ln.rows.forEach(function (r) {
        el(labels, 'text', { x: 142, y: r.y + 13, 'class': 'rowname', 'text-anchor': 'end' }, r.name);
      });
    });
  }

  function draw() {
    tl.textContent = '';
    var W = X(D.width), H = D.height;
    tl.setAttribute('width', W);
    tl.setAttribute('height', H);
    var defs = el(tl, 'defs', {});
    var pat = el(defs, 'pattern', { id: 'hatch', width: 6, height: 6, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' });
    el(pat, 'rect', { width: 6, height: 6, fill: '#fbeccc' });
    el(pat, 'line', { x1: 0, y1: 0, x2: 0, y2: 6, stroke: '#e09b20', 'stroke-width': 2 });
    var lanesG = el(tl, 'g', { 'class': 'lanes' });
    D.lanes.forEach(function (ln, i) {
      el(lanesG, 'rect', { x: 0, y: ln.y, width: W, height: ln.h, 'class': 'lane' + (ln.host ? ' lane-host' : '') + (i % 2 ? ' odd' : ''), 'data-lane': ln.name });
      ln.rows.forEach(function (r, j) { if (j > 0) el(lanesG, 'line', { x1: 0, x2: W, y1: r.y, y2: r.y, 'class': 'rowline' }); });
    });
    var ticks = el(tl, 'g', { 'class': 'ticks' });
    var lastEnd = [-1e9, -1e9];
    D.ticks.forEach(function (t) {
      var x = X(t.x), row = t.extra ? 1 : 0;
      var labelled = x >= lastEnd[row];
      el(ticks, 'line', { x1: x, x2: x, y1: labelled ? 4 + row * 12 : 28, y2: H, 'class': t.extra ? 'tick extra' : 'tick' });
      if (labelled) {
        el(ticks, 'text', { x: x + 3, y: 12 + row * 12, 'class': t.extra ? 'ticklabel extra' : 'ticklabel' }, t.label);
        lastEnd[row] = x + textW(t.label) + 10;
      }
    });
    var items = el(tl, 'g', { 'class': 'items' });
    var vlevels = [-1e9, -1e9];
    D.items.forEach(function (it, i) {
      var g = el(items, 'g', { 'class': 'item ' + it.k + (i === selected ? ' sel' : ''), 'data-i': i });
      var x = X(it.x), y = it.y, l = it.l || '';
      var room = it.nx ? X(it.nx) - x - 11 : W - x;
      switch (it.s) {
        case 'bar':
          var w = Math.max(X(it.x2) - x, 3);
          el(g, 'rect', { x: x, y: y + 3, width: w, height: 12, rx: 2 });
          if (!l) return;
          if (textW(l) + 6 <= w) { el(g, 'text', { x: x + 3, y: y + 12, 'class': 'lbl in' }, l); return; }
          // A short bar: its label goes after it, cut to the room before
          // the next mark on its row (at least a word's start and "…").
          var after = (it.nx ? X(it.nx) : W) - (x + w) - 6;
          var fit = textW(l) <= after ? l : l.slice(0, Math.max(2, Math.floor(after / CHAR) - 1)) + '\u2026';
          el(g, 'text', { x: x + w + 3, y: y + 12, 'class': 'lbl out' }, fit);
          return;
        case 'tri':
          el(g, 'path', { d: 'M' + x + ' ' + (y + 2) + 'L' + (x + 6) + ' ' + (y + 15) + 'L' + (x - 6) + ' ' + (y + 15) + 'Z' });
          break;
        case 'dot':
          el(g, 'circle', { cx: x, cy: y + 9, r: 5 });
          break;
        case 'sq':
          el(g, 'rect', { x: x - 4, y: y + 5, width: 8, height: 8 });
          break;
        case 'dia':
          el(g, 'path', { d: 'M' + x + ' ' + (y + 2) + 'L' + (x + 6) + ' ' + (y + 9) + 'L' + x + ' ' + (y + 16) + 'L' + (x - 6) + ' ' + (y + 9) + 'Z' });
          break;
        case 'cross':
          el(g, 'path', { d: 'M' + (x - 4) + ' ' + (y + 5) + 'L' + (x + 4) + ' ' + (y + 13) + 'M' + (x + 4) + ' ' + (y + 5) + 'L' + (x - 4) + ' ' + (y + 13) });
          break;
        case 'tick':
          el(g, 'line', { x1: x, x2: x, y1: y + 4, y2: y + 14 });
          el(g, 'rect', { x: x - 3, y: y + 2, width: 6, height: 14, fill: 'transparent' });
          break;
        case 'vline':
          el(g, 'line', { x1: x, x2: x, y1: 30, y2: H, 'class': 'v' });
          el(g, 'line', { x1: x, x2: x, y1: 30, y2: H, 'class': 'hit' });
          var tw = textW(l) + 8, lv = x - 4 > vlevels[0] ? 0 : (x - 4 > vlevels[1] ? 1 : -1);
          if (l && lv >= 0) {
            var ty = 31 + lv * 14;
            var tx = x + tw + 4 > W ? x - tw - 2 : x + 3;
            if (it.k.indexOf('violation') >= 0) el(g, 'rect', { x: tx - 1, y: ty - 1, width: tw, height: 13, rx: 2, 'class': 'vbg' });
            el(g, 'text', { x: tx + 3, y: ty + 9 }, l);
            vlevels[lv] = tx + tw;
          }
          return;
      }
      if (l && textW(l) <= room) el(g, 'text', { x: x + 8, y: y + 13, 'class': 'lbl' }, l);
    });
  }

  function rawLines(it) {
    return (it.n || []).map(function (n) {
      var li = document.getElementById('L' + n);
      return li ? n + ': ' + li.textContent : n + ': (not kept)';
    }).join('\n');
  }
  function itemOf(ev) {
    var g = ev.target.closest ? ev.target.closest('[data-i]') : null;
    return g ? Number(g.getAttribute('data-i')) : -1;
  }
  tl.addEventListener('mousemove', function (ev) {
    var i = itemOf(ev);
    if (i < 0) { tip.hidden = true; return; }
    var it = D.items[i];
    tip.textContent = it.t + (it.n ? '\n\n' + rawLines(it) : '');
    tip.hidden = false;
    var tx = ev.clientX + 14, ty = ev.clientY + 14;
    var r = tip.getBoundingClientRect();
    if (tx + r.width > window.innerWidth - 8) tx = Math.max(8, ev.clientX - r.width - 14);
    if (ty + r.height > window.innerHeight - 8) ty = Math.max(8, ev.clientY - r.height - 14);
    tip.style.left = tx + 'px';
    tip.style.top = ty + 'px';
  });
  tl.addEventListener('mouseleave', function () { tip.hidden = true; });

  function highlight(nums) {
    Array.prototype.forEach.call(trace.querySelectorAll('li.hl'), function (li) { li.classList.remove('hl'); });
    var first = null;
    nums.forEach(function (n) {
      var li = document.getElementById('L' + n);
      if (li) { li.classList.add('hl'); first = first || li; }
    });
    if (first) trace.scrollTop = first.offsetTop - trace.clientHeight / 3;
  }
  function select(i) {
    selected = i;
    var prev = tl.querySelector('.item.sel');
    if (prev) prev.classList.remove('sel');
    var g = tl.querySelector('[data-i="' + i + '"]');
    if (g) g.classList.add('sel');
  }
  tl.addEventListener('click', function (ev) {
    var i = itemOf(ev);
    if (i < 0) return;
    select(i);
    highlight(D.items[i].n || []);
  });
  var byLine = {};
  D.items.forEach(function (it, i) {
    (it.n || []).forEach(function (n) { if (!(n in byLine)) byLine[n] = i; });
  });
  function reveal(n) {
    var i = byLine[n];
    highlight([n]);
    if (i === undefined) return;
    select(i);
    scroll.scrollLeft = Math.max(0, X(D.items[i].x) - scroll.clientWidth / 2);
  }
  trace.addEventListener('click', function (ev) {
    var li = ev.target.closest ? ev.target.closest('li[id]') : null;
    if (li) reveal(Number(li.id.slice(1)));
  });
  var vlink = document.querySelector('#violation a[data-line]');
  if (vlink) vlink.addEventListener('click', function (ev) { ev.preventDefault(); reveal(Number(vlink.getAttribute('data-line'))); });

  function setZoom(z, keepCentre) {
    var centre = (scroll.scrollLeft + scroll.clientWidth / 2) / zoom;
    zoom = Math.min(4, Math.max(0.05, z));
    document.getElementById('zoomv').textContent = Math.round(zoom * 100) + '%';
    draw();
    if (keepCentre) scroll.scrollLeft = Math.max(0, centre * zoom - scroll.clientWidth / 2);
  }
  document.getElementById('zin').addEventListener('click', function () { setZoom(zoom * 1.5, true); });
  document.getElementById('zout').addEventListener('click', function () { setZoom(zoom / 1.5, true); });
  document.getElementById('zfit').addEventListener('click', function () { setZoom(scroll.clientWidth / D.width, false); });

  drawLabels();
  var fit = scroll.clientWidth / D.width;
  setZoom(fit >= 0.6 ? Math.min(fit, 1.5) : 1, false);
  // Open where the run went wrong: the violation, else the start.
  D.items.forEach(function (it) {
    if (it.s === 'vline' && it.k.indexOf('violation') >= 0) {
      scroll.scrollLeft = Math.max(0, X(it.x) - scroll.clientWidth * 0.75);
    }
  });
  document.body.dataset.lanes = D.lanes.map(function (l) { return l.name; }).join(' ');
  document.body.dataset.items = String(tl.querySelectorAll('.item').length);
  document.body.dataset.ready = 'ok';
})();
</script>
</body>
</html>
`
