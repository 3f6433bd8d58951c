// The buyer's page: speaks the purchase protocol the way a flash sale asks. The countdown runs on the
// server's clock (offset measured from the activity's serverTime), a retry waits for Retry-After and
// re-sends the same requestId (so a retry never buys twice), 410 stops for good.
(function () {
  'use strict';
  const $ = (id) => document.getElementById(id);
  const params = new URLSearchParams(location.search);
  const activityId = params.get('activity');
  let activity = null;
  let offsetMillis = 0;        // server clock minus this browser's clock
  let challenge = null;        // {challengeId, image}
  let token = null;            // purchase token, once the captcha is solved
  let requestId = null;        // one per purchase intent, kept across retries
  let busy = false;            // an attempt or its retry is under way
  let done = false;            // reserved or sold out: the button stays off
  let retryTimer = null;
  let nextChallengeAt = 0;     // after a refused challenge, when to ask again
  let bearer = null;           // the signed-in buyer's token (dev sign-in); the service believes only it
  let signedInAs = '';         // the buyer id the token names
  let signInTimer = null;
  let pass = null;             // the waiting line's pass, on the buyer's turn (issue #33)
  let ticket = null;           // the line's signed ticket: gives the place back if Redis lost it
  let lineStream = null;       // the AbortController of the line's event stream
  let lastEventId = null;      // the last event of the line's stream, to resume from
  let firstPosition = 0;       // the position first shown: the progress bar's whole

  const serverNow = () => Date.now() + offsetMillis;
  // the buyer, once signed in: every call names them by the bearer token, never by a header of their own
  const buyer = () => (bearer ? signedInAs : '');

  // Dev mode's stand-in for a shop's sign-in: the service mints a token for the typed id with its dev
  // key (POST /api/v1/dev/sign-in, 404 outside dev mode). A real shop hands the page its own token.
  async function signIn() {
    const id = $('buyer-id').value.trim();
    bearer = null;
    signedInAs = '';
    if (!/^[1-9][0-9]{0,17}$/.test(id)) return;
    const response = await fetch('/api/v1/dev/sign-in', {method: 'POST',
      headers: {'Accept': 'application/json', 'Content-Type': 'application/json'},
      body: JSON.stringify({userId: Number(id)})});
    if (id !== $('buyer-id').value.trim()) return;   // typed on meanwhile: that sign-in is for another id
    if (response.status === 200) {
      bearer = (await response.json()).token;
      signedInAs = id;
      tick();
    } else {
      status('Signing in is only offered in dev mode; this shop signs you in elsewhere.', 'bad');
    }
  }

  function status(text, kind) {
    $('status').textContent = text;
    $('status').className = 'status ' + (kind || '');
  }

  async function call(method, path, body, extraHeaders) {
    const headers = Object.assign({'Accept': 'application/json'}, extraHeaders || {});
    if (bearer) headers['Authorization'] = 'Bearer ' + bearer;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const response = await fetch(path, {method, headers, body: body === undefined ? undefined : JSON.stringify(body)});
    let json = {};
    try { json = await response.json(); } catch (e) { /* an empty body */ }
    const retryAfter = parseInt(response.headers.get('Retry-After') || '0', 10);
    return {status: response.status, json, retryAfter: isNaN(retryAfter) ? 0 : retryAfter};
  }

  async function loadActivity() {
    const sentAt = Date.now();
    const answer = await call('GET', '/api/v1/activities/' + encodeURIComponent(activityId));
    const receivedAt = Date.now();
    if (answer.status !== 200) {
      $('name').textContent = 'No such sale';
      status(answer.json.detail || 'This sale does not exist.', 'bad');
      return;
    }
    activity = answer.json;
    if (activity.serverTime) {
      offsetMillis = Date.parse(activity.serverTime) - (sentAt + receivedAt) / 2;
    }
    $('name').textContent = activity.name;
    $('window').textContent = 'From ' + new Date(activity.startsAt).toLocaleString() + ' to '
        + new Date(activity.endsAt).toLocaleString();
    renderSkus();
  }

  function renderSkus() {
    const chosen = selectedSku();
    const box = $('skus');
    box.textContent = '';
    activity.skus.forEach((sku, i) => {
      const label = document.createElement('label');
      const radio = document.createElement('input');
      radio.type = 'radio';
      radio.name = 'sku';
      radio.value = sku.skuId;
      radio.checked = chosen ? chosen === sku.skuId : i === 0;
      label.appendChild(radio);
      label.className = 'sku' + (sku.soldOut ? ' soldout' : '');
      label.dataset.sku = sku.skuId;
      // the name is the operator's text: only ever set as text, never parsed as HTML
      if (sku.pictureUrl) {
        const picture = document.createElement('img');
        picture.className = 'sku-picture';
        picture.src = sku.pictureUrl;
        picture.alt = sku.name || ('SKU ' + sku.skuId);
        picture.width = 64;
        picture.height = 64;
        label.appendChild(picture);
      }
      const name = document.createElement('span');
      name.className = 'sku-name';
      name.textContent = sku.name || ('SKU ' + sku.skuId);
      label.appendChild(name);
      if (sku.price) {
        const price = document.createElement('span');
        price.className = 'sku-price';
        price.textContent = money(sku.price);
        label.appendChild(price);
      }
      const hint = document.createElement('span');
      hint.className = 'sku-stock';
      if (sku.soldOut) hint.textContent = 'sold out';
      else if (sku.remaining !== undefined) hint.textContent = 'about ' + sku.remaining + ' of ' + sku.stock + ' left';
      else hint.textContent = sku.stock + ' units';
      label.appendChild(hint);
      box.appendChild(label);
    });
  }

  // {amount: "19.90", currency: "EUR"} in the buyer's locale; the exact amount as sent if the
  // browser does not know the currency
  function money(price) {
    try {
      return new Intl.NumberFormat(undefined, {style: 'currency', currency: price.currency})
          .format(Number(price.amount));
    } catch (e) {
      return price.amount + ' ' + price.currency;
    }
  }

  function selectedSku() {
    const radio = document.querySelector('input[name=sku]:checked');
    return radio ? parseInt(radio.value, 10) : null;
  }

  function selectedLine() {
    return activity && activity.skus.find((s) => s.skuId === selectedSku());
  }

  function two(n) { return (n < 10 ? '0' : '') + n; }

  function tick() {
    if (!activity) return;
    const now = serverNow();
    const starts = Date.parse(activity.startsAt);
    const ends = Date.parse(activity.endsAt);
    const open = now >= starts && now < ends;
    if (now < starts) {
      const s = Math.ceil((starts - now) / 1000);
      $('countdown').textContent = 'Starts in ' + two(Math.floor(s / 3600)) + ':' + two(Math.floor(s / 60) % 60) + ':' + two(s % 60);
    } else if (now >= ends) {
      $('countdown').textContent = 'The sale has ended';
    } else {
      $('countdown').textContent = 'On sale now';
      if (!challenge && !token && !done && buyer() && Date.now() >= nextChallengeAt) newChallenge();
    }
    const line = selectedLine();
    $('buy').disabled = !open || busy || done || !buyer() || (line && line.soldOut);
  }

  // The proof of work the challenge asks for (issue #36): a nonce such that SHA-256(challengeId + ":" +
  // nonce) starts with leadingZeroBits zero bits, about 2^bits hashes. It runs while the person reads the
  // picture, so by the time they press Buy it is usually done. Stops when the challenge is replaced.
  async function proofOfWork(mine) {
    const bits = (mine.proofOfWork && mine.proofOfWork.leadingZeroBits) || 0;
    if (bits === 0) return '';
    if (!(window.crypto && crypto.subtle)) throw new Error('this page needs HTTPS (or localhost) for its check');
    const encoder = new TextEncoder();
    const zeroBits = (bytes) => {
      let n = 0;
      for (const b of bytes) {
        if (b === 0) { n += 8; continue; }
        return n + Math.clz32(b) - 24;
      }
      return n;
    };
    const batch = 256;  // digests in flight at once: the browser overlaps them
    for (let start = 0; challenge === mine; start += batch) {
      const nonces = [];
      for (let i = 0; i < batch; i++) nonces.push(String(start + i));
      const hashes = await Promise.all(nonces.map((n) =>
          crypto.subtle.digest('SHA-256', encoder.encode(mine.challengeId + ':' + n))));
      for (let i = 0; i < batch; i++) {
        if (zeroBits(new Uint8Array(hashes[i])) >= bits) return nonces[i];
      }
    }
    return null;  // replaced by another challenge
  }

  async function newChallenge() {
    challenge = {pending: true};
    const answer = await call('POST', '/api/v1/activities/' + activityId + '/challenges');
    if (answer.status === 201) {
      challenge = answer.json;
      challenge.work = proofOfWork(challenge);
      challenge.work.catch(() => {});  // reported when Buy awaits it
      $('captcha-image').src = challenge.image;
      $('captcha-image').dataset.challenge = challenge.challengeId;  // for support staff and the browser tests
      $('captcha-answer').value = '';
      $('captcha').hidden = false;
    } else {
      challenge = null;
      nextChallengeAt = Date.now() + Math.max(2, answer.retryAfter) * 1000;
      if (answer.status !== 401) status(answer.json.detail || 'Could not load the check; retrying.', 'queue');
    }
  }

  async function buy() {
    if (busy || done) return;
    busy = true;
    tick();
    if (!token) {
      if (!challenge || !challenge.challengeId) { busy = false; return newChallenge(); }
      const mine = challenge;
      let nonce;
      try {
        status('Checking…');
        nonce = await mine.work;
      } catch (e) {
        busy = false;
        status(e.message, 'bad');
        tick();
        return;
      }
      if (nonce === null || challenge !== mine) { busy = false; tick(); return; }
      const answer = await call('POST', '/api/v1/activities/' + activityId + '/tokens',
          {challengeId: mine.challengeId, answer: $('captcha-answer').value.trim(), nonce: nonce});
      if (answer.status !== 201) {
        busy = false;
        challenge = null;
        status(answer.json.code === 'CHALLENGE_FAILED' ? 'That was not it; here is a new one.'
            : (answer.json.detail || 'Please try again.'), 'bad');
        newChallenge();
        return;
      }
      token = answer.json.token;
      $('captcha').hidden = true;
    }
    requestId = requestId || ('web-' + Date.now().toString(36) + '-' + Math.random().toString(36).slice(2, 10));
    attempt();
  }

  function retryIn(seconds, text) {
    let left = Math.max(1, seconds);
    const show = () => status(text.replace('{s}', left), 'queue');
    show();
    clearInterval(retryTimer);
    retryTimer = setInterval(() => {
      left -= 1;
      if (left <= 0) { clearInterval(retryTimer); attempt(); } else { show(); }
    }, 1000);
  }

  async function attempt() {
    let answer;
    try {
      const headers = token ? {'X-Purchase-Token': token} : {};
      if (pass) headers['X-Queue-Pass'] = pass;
      answer = await call('POST', '/api/v1/activities/' + activityId + '/purchases',
          {skuId: selectedSku(), quantity: 1, requestId}, headers);
    } catch (e) {
      return retryIn(2, 'Connection trouble; retrying in {s} s. Your place is kept.');
    }
    const code = answer.json.code;
    if (answer.status === 202 || answer.status === 200) {
      done = true;
      busy = false;
      status('You got one! Reserving your order…', 'good');
      follow(answer.json.reservationId);
    } else if (answer.status === 429 || code === 'BUSY' || code === 'NOT_READY' || code === 'PURCHASE_IN_PROGRESS') {
      // never "system busy": that makes people hammer refresh. Tell them they are queued and retry for them.
      retryIn(answer.retryAfter || 1, 'You are in the queue — retrying in {s} s. Please keep this page open.');
    } else if (code === 'QUEUE_PASS_REQUIRED') {
      // the sale is behind the waiting line: join it, wait for the turn, then this purchase goes again
      pass = null;
      joinLine();
    } else if (answer.status === 410) {
      done = true;
      stopLine();
      busy = false;
      const line = selectedLine();
      if (line) line.soldOut = true;
      renderSkus();
      status('Sold out. Every unit has been taken.', 'bad');
    } else if (code === 'HALTED') {
      retryIn(answer.retryAfter || 2, 'The sale is paused for a moment — retrying in {s} s. Nothing is lost.');
    } else if (code === 'NOT_STARTED') {
      retryIn(answer.retryAfter || 1, 'Not open yet — trying again in {s} s.');
    } else if (code === 'TOKEN_INVALID') {
      token = null;
      challenge = null;
      busy = false;
      status('Your check has expired; please solve the new one and press Buy again.', 'queue');
      newChallenge();
    } else {
      busy = false;
      status(answer.json.detail || ('Something went wrong (' + answer.status + ').'), 'bad');
    }
    tick();
  }

  let shownOrder = null;       // the order number on the page, once ordered
  let payTimer = null;

  // Shows where a reservation ended, from the polling below or from the line's pushed events; true when
  // it is final (ORDERED or FAILED).
  function showReservation(r) {
    if (r.status === 'ORDERED') {
      if (shownOrder === r.orderNo) return true;
      shownOrder = r.orderNo;
      status('Ordered. Pay before the deadline to keep it.', 'good');
      $('order').hidden = false;
      $('order-no').textContent = r.orderNo;
      $('order-price-row').hidden = !r.amountDue;
      if (r.amountDue) $('order-price').textContent = money(r.amountDue);
      const deadline = Date.parse(r.expiresAt);
      $('pay-by').textContent = new Date(deadline).toLocaleTimeString();
      const left = () => {
        const s = Math.max(0, Math.floor((deadline - serverNow()) / 1000));
        $('pay-left').textContent = '(' + Math.floor(s / 60) + ':' + two(s % 60) + ' left)';
      };
      left();
      clearInterval(payTimer);
      payTimer = setInterval(left, 1000);
      return true;
    }
    if (r.status === 'FAILED') {
      status('Your reservation could not become an order: ' + (r.reason || 'unknown reason') + '.', 'bad');
      return true;
    }
    return false;
  }

  // The fallback to the pushed result: asks once a second until the reservation is final.
  async function follow(reservationId) {
    if (shownOrder) return;
    const answer = await call('GET', '/api/v1/reservations/' + encodeURIComponent(reservationId));
    if (!(answer.status === 200 && showReservation(answer.json))) {
      setTimeout(() => follow(reservationId), 1000);
    }
  }

  // --- The waiting line (issue #33): join, show the place as it is pushed, buy on the turn.

  // Joins and follows in one request (POST …/queue/events): its first event is the place joined, ticket included.
  function joinLine() {
    followLine('/api/v1/activities/' + activityId + '/queue/events', true);
  }

  // A join refused before any stream: what POST …/queue answered before, the same codes.
  function joinRefused(code, problem, retryAfter) {
    if (code === 410) {
      done = true;
      busy = false;
      status('Sold out. Every unit has been taken.', 'bad');
      tick();
    } else if (code === 503 || code === 429) {
      retryIn(retryAfter || 2, 'Joining the line — trying again in {s} s. Nothing is lost.');
    } else {
      busy = false;
      status(problem.detail || ('Could not join the line (' + code + ').'), 'bad');
      tick();
    }
  }

  function showPlace(place) {
    $('line').hidden = false;
    if (place.state === 'WAITING') {
      firstPosition = Math.max(firstPosition, place.position);
      $('line-state').textContent = 'Your place in line:';
      $('line-position').textContent = String(place.position);
      $('line-progress').value = firstPosition > 0 ? (firstPosition - place.position + 1) / (firstPosition + 1) : 0;
      $('line-wait').textContent = place.estimatedWaitSeconds >= 0
          ? 'About ' + place.estimatedWaitSeconds + ' s to wait. Keep this page open; it buys for you when your turn comes.'
          : 'Keep this page open; it buys for you when your turn comes.';
      status('You are in line.', 'queue');
    } else if (place.state === 'PRE_QUEUE') {
      $('line-state').textContent = 'In line for the start:';
      $('line-position').textContent = '';
      $('line-wait').textContent = 'The order is drawn when the sale starts; arriving earlier gains nothing.';
      status('You are in line.', 'queue');
    } else if (place.state === 'YOUR_TURN' && place.pass) {
      $('line-state').textContent = 'Your turn!';
      $('line-position').textContent = '';
      $('line-progress').value = 1;
      $('line-wait').textContent = '';
      if (pass !== place.pass) {
        pass = place.pass;
        status('Your turn — buying…', 'good');
        attempt();
      }
    } else if (place.state === 'SOLD_OUT') {
      $('line-state').textContent = 'Sold out';
      $('line-wait').textContent = 'Every unit is taken for now; if one comes back, the line moves again.';
      status('Sold out for now. Keep this page open: units that come back go to the line in order.', 'bad');
    } else if (place.state === 'EXPIRED' || place.state === 'NOT_IN_LINE') {
      // the turn passed unused (or Redis lost the place): join again
      if (!done) { stopLine(); setTimeout(joinLine, 1000); }
    } else if (place.state === 'USED') {
      $('line').hidden = true;
    }
  }

  // The operator switched the line off (409 QUEUE_OFF): purchases need no pass now, so this one goes on directly
  // (the same requestId: a retry never buys twice). If the line is switched on again, its 403 joins it again.
  function queueOff() {
    stopLine();
    pass = null;
    $('line').hidden = true;
    if (!done) attempt();
  }

  function stopLine() {
    if (lineStream) lineStream.abort();
    lineStream = null;
  }

  // The line's events over fetch (EventSource cannot send the Authorization header): 'place' while
  // waiting, 'reservation' after the purchase. Reconnects with Last-Event-ID; falls back to asking.
  // joining: POST, which joins first (a refusal comes before any stream); after it, GET with the ticket and the
  // last event's id.
  async function followLine(path, joining) {
    stopLine();
    const mine = new AbortController();
    lineStream = mine;
    const headers = {'Accept': 'text/event-stream'};
    if (bearer) headers['Authorization'] = 'Bearer ' + bearer;
    if (joining) {
      if (token) headers['X-Purchase-Token'] = token;
    } else {
      if (ticket) headers['X-Queue-Ticket'] = ticket;
      if (lastEventId) headers['Last-Event-ID'] = lastEventId;
    }
    let finished = false;
    try {
      const response = await fetch(path, {method: joining ? 'POST' : 'GET', headers, signal: mine.signal});
      if (response.status !== 200) {
        let problem = {};
        try { problem = await response.json(); } catch (e) { /* no body */ }
        if (lineStream !== mine) return;
        if (problem.code === 'QUEUE_OFF') {
          queueOff();
          return;
        }
        if (joining) {
          lineStream = null;
          const retryAfter = parseInt(response.headers.get('Retry-After') || '0', 10);
          joinRefused(response.status, problem, isNaN(retryAfter) ? 0 : retryAfter);
          return;
        }
      }
      if (response.status !== 200 || !response.body) throw new Error('no stream');
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      let buffer = '';
      for (;;) {
        const {value, done: ended} = await reader.read();
        if (ended) break;
        buffer += decoder.decode(value, {stream: true});
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = {};
          block.split('\n').forEach((line) => {
            const colon = line.indexOf(':');
            if (colon > 0) event[line.slice(0, colon)] = line.slice(colon + 1).replace(/^ /, '');
          });
          if (!event.data) continue;
          if (event.id) lastEventId = event.id;
          const data = JSON.parse(event.data);
          if (event.event === 'place') {
            if (data.ticket) ticket = data.ticket;
            joining = false;
            showPlace(data);
          }
          if (event.event === 'reservation') {
            finished = data.reservations.length > 0 && data.reservations.every(showReservation);
          }
        }
      }
    } catch (e) {
      if (mine.signal.aborted) return;
    }
    if (lineStream !== mine || finished || shownOrder) return;
    // the stream ended (a proxy, a restart, its time limit): ask once and go on following
    setTimeout(() => { if (lineStream === mine && !shownOrder) followLine(path, joining); }, 1000);
  }

  function start() {
    $('buyer-id').value = localStorage.getItem('seckill.buyer') || '';
    if ($('buyer-id').value.trim()) signIn();
    $('buyer-id').addEventListener('input', () => {
      localStorage.setItem('seckill.buyer', $('buyer-id').value.trim());
      bearer = null;
      clearTimeout(signInTimer);
      signInTimer = setTimeout(signIn, 300);
      // a challenge and a token belong to one buyer: a new id needs its own, once typing has paused
      challenge = null;
      token = null;
      $('captcha').hidden = true;
      nextChallengeAt = Date.now() + 800;
      tick();
    });
    $('buy').addEventListener('click', buy);
    $('captcha-new').addEventListener('click', () => { challenge = null; newChallenge(); });
    $('captcha-answer').addEventListener('keydown', (e) => { if (e.key === 'Enter') buy(); });
    if (!activityId) {
      $('pick').hidden = false;
      $('pick').addEventListener('submit', (e) => {
        e.preventDefault();
        location.search = '?activity=' + encodeURIComponent($('activity-input').value.trim());
      });
      return;
    }
    loadActivity().then(() => {
      setInterval(tick, 200);
      // the stock hint and the clock offset, refreshed while nothing is decided yet
      setInterval(() => { if (!done) loadActivity(); }, 5000);
    });
  }

  start();
})();
