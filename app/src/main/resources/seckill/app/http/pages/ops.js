// The operations view: polls /api/v1/admin/overview once a second, turns running totals into rates,
// and draws the last two minutes as small charts. Halt and resume call the admin API.
(function () {
  'use strict';
  const $ = (id) => document.getElementById(id);
  const HISTORY = 120;
  const series = {};            // name -> [values], newest last
  let previous = null;          // the last overview and when it came
  let timer = null;

  const token = () => sessionStorage.getItem('seckill.admin') || '';

  async function admin(method, path) {
    const response = await fetch(path, {method, headers: {'Authorization': 'Bearer ' + token(), 'Accept': 'application/json'}});
    let json = {};
    try { json = await response.json(); } catch (e) { /* empty */ }
    return {status: response.status, json};
  }

  function message(text, kind) {
    $('message').textContent = text;
    $('message').className = 'status ' + (kind || '');
  }

  function push(name, value) {
    const values = series[name] || (series[name] = []);
    values.push(value);
    if (values.length > HISTORY) values.shift();
  }

  function chart(name, label) {
    let box = document.querySelector('[data-chart="' + name + '"]');
    if (!box) {
      box = document.createElement('div');
      box.className = 'chart';
      box.dataset.chart = name;
      box.innerHTML = '<div class="muted"></div><div class="value"></div><canvas width="540" height="160"></canvas>';
      box.firstChild.textContent = label;
      $('charts').appendChild(box);
    }
    const values = series[name] || [];
    const last = values.length ? values[values.length - 1] : 0;
    box.querySelector('.value').textContent = Number.isInteger(last) ? last : last.toFixed(1);
    const canvas = box.querySelector('canvas');
    const g = canvas.getContext('2d');
    g.clearRect(0, 0, canvas.width, canvas.height);
    const max = Math.max(1, ...values);
    g.strokeStyle = '#e4393c';
    g.lineWidth = 3;
    g.beginPath();
    values.forEach((v, i) => {
      const x = canvas.width * (i + HISTORY - values.length) / (HISTORY - 1);
      const y = canvas.height - 4 - (canvas.height - 8) * v / max;
      if (i === 0) g.moveTo(x, y); else g.lineTo(x, y);
    });
    g.stroke();
    g.fillStyle = '#999';
    g.font = '20px sans-serif';
    g.fillText('max ' + Math.round(max), 6, 22);
  }

  function cell(row, text, className) {
    const td = document.createElement('td');
    td.textContent = text;
    if (className) td.className = className;
    row.appendChild(td);
  }

  function render(now, at) {
    const state = now.sales.state;
    $('sales-state').textContent = state;
    $('sales-state').className = 'state-' + state;
    $('sales-reason').textContent = now.sales.reason ? '(' + now.sales.reason + ')' : '';
    $('updated').textContent = 'updated ' + new Date(now.serverTime).toLocaleTimeString();

    const seconds = previous ? Math.max(0.001, (at - previous.at) / 1000) : 1;
    const rate = (a, b) => previous ? Math.max(0, (a - b) / seconds) : 0;
    const purchases = now.totals.purchases;
    const before = previous ? previous.overview.totals.purchases : {};
    let all = 0;
    Object.keys(purchases).forEach((outcome) => {
      const r = rate(purchases[outcome], before[outcome] || 0);
      all += r;
      push('purchases.' + outcome, r);
    });
    push('purchases', all);
    push('orders', rate(now.totals.ordersCreated, previous ? previous.overview.totals.ordersCreated : 0));
    push('pending', now.streamPending);
    push('lag', now.streamLag);
    push('outbox', now.outboxBacklog);
    let left = 0;
    now.activities.forEach((a) => a.skus.forEach((s) => { left += s.remaining || 0; }));
    push('left', left);

    chart('left', 'stock left (all SKUs shown)');
    chart('purchases', 'purchase attempts / s');
    chart('purchases.reserved', 'reserved / s');
    chart('orders', 'orders created / s');
    chart('pending', 'stream pending (delivered, not yet acknowledged)');
    chart('lag', 'stream lag (not yet delivered)');
    chart('outbox', 'outbox backlog (refills not yet in Redis)');
    Object.keys(purchases).filter((o) => o !== 'reserved').sort()
        .forEach((outcome) => chart('purchases.' + outcome, outcome + ' / s'));

    const stock = $('stock');
    stock.textContent = '';
    now.activities.forEach((a) => a.skus.forEach((s) => {
      const row = document.createElement('tr');
      row.dataset.sku = a.activityId + ':' + s.skuId;
      cell(row, a.activityId + ' ' + a.name + ' (' + a.state + ')');
      cell(row, s.skuId);
      cell(row, s.stock);
      cell(row, s.remaining === undefined ? 'unknown' : s.remaining, 'left');
      cell(row, s.buckets ? s.buckets.join(' / ') : 'unknown');
      cell(row, s.soldOut ? 'sold out' : '');
      cell(row, s.reconciliation ? s.reconciliation.state : 'not yet', s.reconciliation ? 'state-' + s.reconciliation.state : '');
      stock.appendChild(row);
    }));
    const outcomes = $('outcomes');
    outcomes.textContent = '';
    Object.keys(purchases).sort().forEach((outcome) => {
      const row = document.createElement('tr');
      cell(row, outcome);
      cell(row, purchases[outcome]);
      outcomes.appendChild(row);
    });
  }

  async function poll() {
    const activity = $('activity').value.trim();
    let answer;
    try {
      answer = await admin('GET', '/api/v1/admin/overview' + (activity ? '?activity=' + encodeURIComponent(activity) : ''));
    } catch (e) {
      message('The service does not answer; still trying.', 'bad');
      return;
    }
    if (answer.status === 401 || answer.status === 403) {
      message('The admin token was refused.', 'bad');
      clearInterval(timer);
      timer = null;
      return;
    }
    if (answer.status !== 200) {
      message(answer.json.detail || ('overview answered ' + answer.status), 'bad');
      return;
    }
    const at = Date.now();
    render(answer.json, at);
    previous = {overview: answer.json, at};
  }

  function watch() {
    if (timer) clearInterval(timer);
    message('', '');
    previous = null;
    poll();
    timer = setInterval(poll, 1000);
  }

  async function act(path, done) {
    const answer = await admin('POST', path);
    if (answer.status === 200) {
      message(done, 'good');
    } else {
      message(answer.json.detail || ('answered ' + answer.status), 'bad');
    }
    poll();
  }

  $('token').value = token();
  $('activity').value = new URLSearchParams(location.search).get('activity') || '';
  $('login').addEventListener('submit', (e) => {
    e.preventDefault();
    sessionStorage.setItem('seckill.admin', $('token').value);
    watch();
  });
  $('halt').addEventListener('click', () => act('/api/v1/admin/sales/halt', 'Sales halted on this instance.'));
  $('resume').addEventListener('click', () => act('/api/v1/admin/sales/resume', 'Sales resumed.'));
  if (token()) watch();
})();
