// The page's one script (allowed by its sha256). Without it every table is there and the changes
// filter by type with plain radio buttons. With it, a reader sorts by any column and filters by text:
// small tables (`sortable`) in place; the changes table from the page's JSON data, a page of rows at a
// time, so a 100,000-record upload opens quickly. It only ever sets textContent, never markup.
export const SCRIPT = `
(function () {
  'use strict';
  var collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });
  var PAGE = 500;
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function controls(table) {
    var wrap = table.closest('.wrap') || table;
    var input = el('input', 'filter');
    input.type = 'search';
    input.placeholder = 'Filter ' + (table.getAttribute('data-noun') || 'rows') + '…';
    input.setAttribute('aria-label', input.placeholder);
    var count = el('span', 'count');
    count.setAttribute('aria-live', 'polite');
    wrap.parentNode.insertBefore(input, wrap);
    wrap.parentNode.insertBefore(count, wrap);
    return { input: input, count: count, wrap: wrap };
  }
  function onInput(input, size, run) {
    var timer = 0;
    input.addEventListener('input', function () { clearTimeout(timer); timer = setTimeout(run, size > 5000 ? 250 : 60); });
  }
  function sortButtons(table, sort) {
    var heads = table.tHead.rows[0].cells;
    Array.prototype.forEach.call(heads, function (th, col) {
      var button = el('button', '', th.textContent);
      button.type = 'button';
      th.textContent = '';
      th.appendChild(button);
      button.addEventListener('click', function () {
        var dir = th.getAttribute('aria-sort') === 'ascending' ? -1 : 1;
        Array.prototype.forEach.call(heads, function (h) { h.removeAttribute('aria-sort'); });
        th.setAttribute('aria-sort', dir === 1 ? 'ascending' : 'descending');
        sort(col, dir);
      });
    });
  }
  function domTable(table) {
    var rows = [];
    for (var b = 0; b < table.tBodies.length; b++) for (var r = 0; r < table.tBodies[b].rows.length; r++) rows.push(table.tBodies[b].rows[r]);
    var texts = null;
    var c = controls(table);
    function show(n) { c.count.textContent = n === rows.length ? rows.length + ' rows' : n + ' of ' + rows.length + ' rows'; }
    onInput(c.input, rows.length, function () {
      var q = c.input.value.trim().toLowerCase();
      if (!texts) texts = rows.map(function (r) { return r.textContent.toLowerCase(); });
      var n = 0;
      for (var i = 0; i < rows.length; i++) { var hit = !q || texts[i].indexOf(q) >= 0; rows[i].classList.toggle('filtered', !hit); if (hit) n++; }
      show(n);
    });
    show(rows.length);
    sortButtons(table, function (col, dir) {
      var keyed = rows.map(function (r, i) { var cell = r.cells[col]; return { r: r, i: i, k: cell ? (cell.getAttribute('data-sort') || cell.textContent) : '' }; });
      keyed.sort(function (a, b) { return dir * collator.compare(a.k, b.k) || a.i - b.i; });
      rows = keyed.map(function (x) { return x.r; });
      texts = null;
      var body = table.tBodies[0];
      for (var i = 0; i < rows.length; i++) body.appendChild(rows[i]);
    });
  }
  function lines(pairs) {
    var ul = el('ul', 'lines');
    pairs.forEach(function (p) {
      var li = el('li');
      if (p[0]) { li.appendChild(el('code', '', p[0])); li.appendChild(document.createTextNode(': ')); }
      li.appendChild(document.createTextNode(p[1]));
      ul.appendChild(li);
    });
    return ul;
  }
  function dataTable(table, data) {
    var section = table.closest('section');
    var c = controls(table);
    var pager = el('div', 'pager');
    var prev = el('button', '', '‹ previous'); prev.type = 'button';
    var next = el('button', '', 'next ›'); next.type = 'button';
    var where = el('span', 'count');
    pager.appendChild(prev); pager.appendChild(where); pager.appendChild(next);
    c.wrap.parentNode.insertBefore(pager, c.wrap.nextSibling);
    Array.prototype.forEach.call(section.querySelectorAll('.static-only'), function (n) { n.hidden = true; });
    var order = data.map(function (_, i) { return i; });
    var texts = null, shown = order, page = 0, type = 'all', q = '';
    var body = el('tbody');
    while (table.tBodies.length) table.removeChild(table.tBodies[0]);
    table.appendChild(body);
    function text(i) { var d = data[i]; return (d[1] + ' ' + d[2] + ' ' + d[3] + ' ' + d[4].join(' ') + ' ' + d[5].join(' ')).toLowerCase(); }
    function select() {
      if (q && !texts) texts = data.map(function (_, i) { return text(i); });
      shown = order.filter(function (i) { return (type === 'all' || data[i][0] === type) && (!q || texts[i].indexOf(q) >= 0); });
      page = 0;
      render();
    }
    function render() {
      var pages = Math.max(1, Math.ceil(shown.length / PAGE));
      page = Math.min(page, pages - 1);
      var from = page * PAGE, to = Math.min(shown.length, from + PAGE);
      var rows = document.createDocumentFragment();
      for (var k = from; k < to; k++) {
        var d = data[shown[k]];
        var tr = el('tr');
        tr.setAttribute('data-change', d[0]);
        tr.setAttribute('data-key', d[1]);
        tr.appendChild(el('td', '', d[0]));
        tr.appendChild(el('td', 'key', d[1]));
        tr.appendChild(el('td', '', d[2]));
        tr.appendChild(el('td', '', d[3]));
        var before = el('td'); before.appendChild(lines(d[4])); tr.appendChild(before);
        var after = el('td'); after.appendChild(lines(d[5])); tr.appendChild(after);
        rows.appendChild(tr);
      }
      body.textContent = '';
      body.appendChild(rows);
      c.count.textContent = (shown.length === data.length ? data.length : shown.length + ' of ' + data.length) + ' changes';
      where.textContent = shown.length ? ' rows ' + (from + 1) + '–' + to + ' of ' + shown.length + ' · page ' + (page + 1) + ' of ' + pages + ' ' : ' no rows ';
      prev.disabled = page === 0;
      next.disabled = page >= pages - 1;
      pager.hidden = pages === 1;
    }
    prev.addEventListener('click', function () { page--; render(); });
    next.addEventListener('click', function () { page++; render(); });
    onInput(c.input, data.length, function () { q = c.input.value.trim().toLowerCase(); select(); });
    Array.prototype.forEach.call(section.querySelectorAll('input[name=show]'), function (radio) {
      radio.addEventListener('change', function () { if (radio.checked) { type = radio.value; select(); } });
    });
    sortButtons(table, function (col, dir) {
      var key = function (i) { var d = data[i]; var v = d[col]; return Array.isArray(v) ? v.map(function (p) { return p.join(': '); }).join(' ') : v; };
      var keys = data.map(function (_, i) { return key(i); });
      order = order.slice().sort(function (a, b) { return dir * collator.compare(keys[a], keys[b]) || a - b; });
      select();
    });
    select();
  }
  var tables = document.querySelectorAll('table.sortable, table[data-rows]');
  for (var t = 0; t < tables.length; t++) {
    var source = tables[t].getAttribute('data-rows');
    if (source) dataTable(tables[t], JSON.parse(document.getElementById(source).textContent));
    else domTable(tables[t]);
  }
  document.documentElement.className += ' js';
})();
`;
