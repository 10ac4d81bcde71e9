// The page's one script (allowed by its sha256): sorting by any column and a text filter for every
// table marked `sortable`. Without it the tables are complete and filter by change type with plain
// radio buttons; with it, a reader also sorts and searches. It reads the DOM the page already holds and
// only ever sets textContent, never markup.
export const SCRIPT = `
(function () {
  'use strict';
  var collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });
  var CHUNK = 500;
  function rowsOf(table) {
    var rows = [];
    for (var b = 0; b < table.tBodies.length; b++) for (var r = 0; r < table.tBodies[b].rows.length; r++) rows.push(table.tBodies[b].rows[r]);
    return rows;
  }
  function setUp(table) {
    var rows = rowsOf(table);
    var texts = null;
    var count = document.createElement('span');
    count.className = 'count';
    var input = document.createElement('input');
    input.type = 'search';
    input.className = 'filter';
    input.placeholder = 'Filter ' + (table.getAttribute('data-noun') || 'rows') + '…';
    input.setAttribute('aria-label', input.placeholder);
    var wrap = table.closest('.wrap') || table;
    wrap.parentNode.insertBefore(input, wrap);
    wrap.parentNode.insertBefore(count, wrap);
    function showCount(shown) { count.textContent = shown === rows.length ? rows.length + ' rows' : shown + ' of ' + rows.length + ' rows'; }
    var timer = 0;
    input.addEventListener('input', function () {
      clearTimeout(timer);
      timer = setTimeout(function () {
        var q = input.value.trim().toLowerCase();
        if (!texts) texts = rows.map(function (r) { return r.textContent.toLowerCase(); });
        var shown = 0;
        for (var i = 0; i < rows.length; i++) {
          var hit = !q || texts[i].indexOf(q) >= 0;
          rows[i].classList.toggle('filtered', !hit);
          if (hit) shown++;
        }
        showCount(shown);
      }, rows.length > 5000 ? 250 : 60);
    });
    showCount(rows.length);
    var heads = table.tHead.rows[0].cells;
    Array.prototype.forEach.call(heads, function (th, col) {
      var button = document.createElement('button');
      button.type = 'button';
      button.textContent = th.textContent;
      th.textContent = '';
      th.appendChild(button);
      button.addEventListener('click', function () {
        var dir = th.getAttribute('aria-sort') === 'ascending' ? -1 : 1;
        Array.prototype.forEach.call(heads, function (h) { h.removeAttribute('aria-sort'); });
        th.setAttribute('aria-sort', dir === 1 ? 'ascending' : 'descending');
        var keyed = rows.map(function (r, i) { var c = r.cells[col]; return { r: r, i: i, k: c ? (c.getAttribute('data-sort') || c.textContent) : '' }; });
        keyed.sort(function (a, b) { return dir * collator.compare(a.k, b.k) || a.i - b.i; });
        rows = keyed.map(function (x) { return x.r; });
        texts = null;
        var bodies = table.tBodies;
        for (var i = 0; i < rows.length; i++) bodies[Math.min(Math.floor(i / CHUNK), bodies.length - 1)].appendChild(rows[i]);
      });
    });
  }
  var tables = document.querySelectorAll('table.sortable');
  for (var t = 0; t < tables.length; t++) setUp(tables[t]);
  document.documentElement.className += ' js';
})();
`;
