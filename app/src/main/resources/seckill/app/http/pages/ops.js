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
    let waiting = 0;
    let calledPerSecond = 0;
    let passesOut = 0;
    const lines = now.activities.filter((a) => a.queue);
    lines.forEach((a) => { waiting += a.queue.waiting; calledPerSecond += a.queue.calledPerSecond; passesOut += a.queue.passesOut; });
    if (lines.length) {
      push('line.waiting', waiting);
      push('line.called', calledPerSecond);
      push('line.passes', passesOut);
      push('line.expired', rate(now.totals.queuePassesExpired || 0,
          previous ? previous.overview.totals.queuePassesExpired || 0 : 0));
    }

    chart('left', 'stock left (all SKUs shown)');
    chart('purchases', 'purchase attempts / s');
    chart('purchases.reserved', 'reserved / s');
    chart('orders', 'orders created / s');
    chart('pending', 'stream pending (delivered, not yet acknowledged)');
    chart('lag', 'stream lag (not yet delivered)');
    chart('outbox', 'outbox backlog (refills not yet in Redis)');
    if (lines.length) {
      chart('line.waiting', 'waiting in line');
      chart('line.called', 'admitted from the line / s');
      chart('line.passes', 'passes out (called, not yet used)');
      chart('line.expired', 'passes expired unused / s (this instance)');
    }
    Object.keys(purchases).filter((o) => o !== 'reserved').sort()
        .forEach((outcome) => chart('purchases.' + outcome, outcome + ' / s'));
    // a rehearsal's figures (issue #34), apart and labelled: never in the real charts above
    const rehearsal = now.rehearsalTotals;
    if (rehearsal) {
      const was = previous && previous.overview.rehearsalTotals;
      const attempts = (totals) => Object.values(totals.purchases).reduce((a, b) => a + b, 0);
      push('rehearsal.purchases', was ? rate(attempts(rehearsal), attempts(was)) : 0);
      push('rehearsal.orders', was ? rate(rehearsal.ordersCreated, was.ordersCreated) : 0);
      chart('rehearsal.purchases', 'rehearsal: purchase attempts / s');
      chart('rehearsal.orders', 'rehearsal: orders created / s');
      // each answer apart, as the ramp's report draws its steps: the layer that sheds shows as its own chart
      Object.keys(rehearsal.purchases).sort().forEach((outcome) => {
        const before = was && was.purchases[outcome] !== undefined ? was.purchases[outcome] : rehearsal.purchases[outcome];
        push('rehearsal.purchases.' + outcome, was ? rate(rehearsal.purchases[outcome], before) : 0);
        chart('rehearsal.purchases.' + outcome, 'rehearsal: ' + outcome + ' / s');
      });
    }

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
    if (lines.length) {
      const table = $('lines');
      table.textContent = '';
      lines.forEach((a) => {
        const row = document.createElement('tr');
        row.dataset.activity = a.activityId;
        cell(row, a.activityId + ' ' + a.name);
        cell(row, a.queue.waiting, 'waiting');
        cell(row, a.queue.calledPerSecond.toFixed(1));
        cell(row, a.queue.called);
        cell(row, a.queue.passesOut);
        cell(row, a.queue.waitEstimateSeconds < 0 ? 'unknown' : a.queue.waitEstimateSeconds);
        cell(row, a.queue.closed ? 'closed: sold out' : 'moving', a.queue.closed ? 'soldout' : '');
        table.appendChild(row);
      });
    }
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

  // ---- support's trace: one reservation (or a buyer's in an activity) through every layer

  function line(table, label, text, className) {
    const row = document.createElement('tr');
    const th = document.createElement('th');
    th.textContent = label;
    row.appendChild(th);
    cell(row, text, className);
    table.appendChild(row);
  }

  function describeEntry(e) {
    let text = e.state + (e.id ? ' ' + e.id : '') + ' in ' + e.stream;
    if (e.state === 'PENDING') text += ', held by ' + e.consumer + ', ' + e.deliveries + ' deliveries, idle ' + Math.round(e.idleMillis / 1000) + ' s';
    return text;
  }

  function showTrace(t) {
    const box = document.createElement('div');
    box.className = 'trace';
    box.dataset.reservation = t.reservationId;
    const head = document.createElement('p');
    const code = document.createElement('strong');
    code.className = 'trace-verdict state-' + t.verdict.code;
    code.textContent = t.verdict.code;
    head.appendChild(code);
    const words = document.createElement('span');
    words.className = 'trace-words';
    words.textContent = ' ' + t.verdict.words;
    head.appendChild(words);
    box.appendChild(head);
    const table = document.createElement('table');
    line(table, 'reservation', t.reservationId + ' (activity ' + t.activityId + ', SKU ' + t.skuId + ', bucket ' + t.bucket
        + ' of ' + t.buckets + ', minted ' + t.mintedAt + ')');
    line(table, 'buyer', t.buyerId === undefined ? 'unknown' : String(t.buyerId));
    const r = t.redis;
    const record = r.buyerRecord;
    line(table, 'Redis: buyer record', record ? record.key + ' → ' + (record.value === undefined ? '(none)' : record.value)
        + (record.holdsThis ? ' (holds this reservation)' : '') : 'buyer unknown');
    line(table, 'Redis: stream entry', describeEntry(r.streamEntry), 'trace-entry');
    line(table, 'Redis: unit refilled', r.refilled ? 'yes' : 'no');
    const l = t.ledger;
    line(table, 'ledger: order', l.order ? l.order.orderNo + ' ' + l.order.status + (l.order.paidAt ? ', paid ' + l.order.paidAt
        : ', pay by ' + l.order.expiresAt) : 'none', 'trace-order');
    line(table, 'ledger: failure', l.failure ? l.failure.reason : 'none');
    if (l.refusals) line(table, 'ledger: refusals', l.refusals.attempts + ', last: ' + l.refusals.lastReason);
    line(table, 'ledger: refill', l.refill ? (l.refill.applied ? 'applied to Redis ' + (l.refill.appliedAt || '')
        : 'waiting in the outbox (' + l.refill.attempts + ' attempts)') : 'none');
    line(table, 'reconciliation', t.reconciliation ? t.reconciliation.state + ' at ' + t.reconciliation.checkedAt
        + (t.reconciliation.detail ? ' (' + t.reconciliation.detail + ')' : '') : 'not yet');
    box.appendChild(table);
    $('trace').appendChild(box);
  }

  async function trace() {
    const id = $('trace-id').value.trim();
    const activity = $('trace-activity').value.trim();
    const buyer = $('trace-buyer').value.trim();
    $('trace').textContent = '';
    $('trace-message').textContent = '';
    $('trace-message').className = 'status';
    let answer;
    if (id) {
      answer = await admin('GET', '/api/v1/admin/reservations/' + encodeURIComponent(id));
    } else if (activity && buyer) {
      answer = await admin('GET', '/api/v1/admin/reservations?activityId=' + encodeURIComponent(activity)
          + '&buyerId=' + encodeURIComponent(buyer));
    } else {
      $('trace-message').textContent = 'Give a reservation id, or an activity and a buyer.';
      $('trace-message').className = 'status bad';
      return;
    }
    if (answer.status !== 200) {
      $('trace-message').textContent = answer.json.detail || ('answered ' + answer.status);
      $('trace-message').className = 'status bad';
      return;
    }
    const traces = answer.json.reservations || [answer.json];
    if (!traces.length) {
      $('trace-message').textContent = 'The buyer holds no reservation in that activity.';
      return;
    }
    traces.forEach(showTrace);
    $('trace-form').scrollIntoView();
  }

  $('trace-form').addEventListener('submit', (e) => {
    e.preventDefault();
    if ($('token').value && $('token').value !== token()) sessionStorage.setItem('seckill.admin', $('token').value);
    trace().catch(() => {
      $('trace-message').textContent = 'The service does not answer.';
      $('trace-message').className = 'status bad';
    });
  });

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
