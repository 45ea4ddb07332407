// app.js -- the page around a sample: runs its frames, draws its shapes,
// shows its log and a live inspector read from the scheduler (web_inspect).
// ?test=1&frames=N runs N frames as fast as it can and stops (the browser
// test; &action_at=K presses the sample's button before frame K);
// window.corralTest exposes what the test checks.
(function () {
  'use strict';
  const params = new URLSearchParams(location.search);
  const testing = params.get('test') === '1';
  const target = parseInt(params.get('frames') || '0', 10);
  const actionAt = parseInt(params.get('action_at') || '0', 10); /* the test presses the button then */
  const state = { frames: 0, log: [], inspect: null, errors: [], done: false, paused: false, scale: 1 };
  window.corralTest = state;
  let api = null, canvas, ctx2d, frameMs = 0;

  function call(name, ret, types, args) { return Module.ccall(name, ret, types, args); }
  function text(name) { return Module.UTF8ToString(call(name, 'number', [], [])); }
  function lines(name) { return text(name).split('\n').filter(l => l.length); }

  function draw() {
    ctx2d.fillStyle = '#111';
    ctx2d.fillRect(0, 0, canvas.width, canvas.height);
    for (const l of lines('web_draw')) { /* "c x y r color", "r x y w h color", "t x y color text" */
      const p = l.split(' '), n = i => parseFloat(p[i]);
      if (p[0] === 'c') { ctx2d.fillStyle = p[4]; ctx2d.beginPath(); ctx2d.arc(n(1), n(2), n(3), 0, 6.2832); ctx2d.fill(); }
      else if (p[0] === 'r') { ctx2d.fillStyle = p[5]; ctx2d.fillRect(n(1), n(2), n(3), n(4)); }
      else { ctx2d.fillStyle = p[3]; ctx2d.font = '13px monospace'; ctx2d.fillText(p.slice(4).join(' '), n(1), n(2)); }
    }
  }

  function logLines() {
    const logged = lines('web_log');
    if (!logged.length) return;
    const el = document.getElementById('log');
    for (const l of logged) {
      state.log.push(l);
      if (/^live \d+$/.test(l)) continue; /* the sample's count, for the test */
      const d = document.createElement('div');
      d.textContent = '[frame ' + state.frames + '] ' + l;
      el.appendChild(d);
    }
    el.scrollTop = el.scrollHeight;
  }

  function table(id, head, rows) {
    let h = '<tr>' + head.map(x => '<th>' + x + '</th>').join('') + '</tr>';
    for (const r of rows) h += '<tr>' + r.map(x => '<td>' + x + '</td>').join('') + '</tr>';
    document.getElementById(id).innerHTML = h;
  }
  const esc = s => String(s).replace(/[&<>]/g, c => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' }[c]));

  function inspect() {
    const j = JSON.parse(text('web_inspect')); /* corral_report_json: docs/PROFILING.md */
    state.inspect = j;
    const a = j.arena;
    document.getElementById('summary').textContent =
      'frame ' + j.frame + ' · ' + j.time.toFixed(2) + ' s · ' + a.live + ' live (peak ' + a.live_peak + ') · ' +
      (a.slot_bytes / 1024).toFixed(1) + ' KiB in slots of ' + (a.total_bytes / 1024).toFixed(1) + ' KiB · step ' + frameMs.toFixed(2) + ' ms';
    table('types', ['type', 'live', 'peak', 'started', 'failed', 'slot B'],
      j.types.map(t => [esc(t.name), t.live, t.peak, t.started, t.failed, t.slot_size]));
    table('classes', ['slot B', 'used', 'peak', 'capacity'], j.classes.map(c => [c.slot_size, c.used, c.peak, c.capacity]));
    const chart = document.getElementById('chart'), g = chart.getContext('2d');
    g.fillStyle = '#181818'; g.fillRect(0, 0, chart.width, chart.height);
    const hist = j.history.map(f => f.slot_bytes), max = Math.max(1, ...hist);
    g.fillStyle = '#3a7';
    hist.forEach((v, i) => { const h = chart.height * v / max; g.fillRect(i * chart.width / 120, chart.height - h, chart.width / 120, h); });
    const list = document.getElementById('coroutines');
    list.innerHTML = '';
    for (const c of j.coroutines.slice(0, 40)) {
      const [index, gen] = c.handle.split(':').map(x => parseInt(x)); /* "0x000001:3" */
      const d = document.createElement('div');
      d.className = 'co';
      const fields = Object.entries(c.fields).map(([k, v]) => esc(k) + '=' + esc(v)).join(' ');
      d.innerHTML = '<b>' + esc(c.type) + '</b> ' + esc(c.state) + (c.waits && c.waits !== c.state ? ' · ' + esc(c.waits) : '') +
        (c.line ? ' · <i>' + esc(c.file.split('/').pop()) + ':' + c.line + '</i>' : '') +
        '<br><span class="f">' + fields + '</span> ';
      for (const [label, what] of [['pause', 0], ['resume', 1], ['step', 2]]) {
        const b = document.createElement('button');
        b.textContent = label;
        b.onclick = () => { call('web_pause', 'number', ['number', 'number', 'number'], [index, gen, what]); inspect(); };
        d.appendChild(b);
      }
      list.appendChild(d);
    }
  }

  function frame() {
    if (actionAt && state.frames === actionAt) call('web_action', null, ['number'], [0]);
    const t0 = performance.now();
    call('web_frame', 'number', ['number'], [1 / 60]);
    frameMs = performance.now() - t0;
    state.frames++;
    logLines();
  }

  function loop() {
    if (state.done) return;
    if (!state.paused) {
      const n = testing ? 20 : 1;
      for (let k = 0; k < n && !(target && state.frames >= target); k++) frame();
      draw();
      logLines(); /* what the drawing logged, at the same state as the inspector below */
      if (testing || state.frames % 6 === 0) inspect();
    }
    if (target && state.frames >= target) { state.done = true; return; }
    requestAnimationFrame(loop);
  }

  window.addEventListener('error', e => state.errors.push(String(e.message)));
  window.Module = {
    print: t => console.log(t),
    printErr: t => { console.error(t); state.errors.push(t); },
    onRuntimeInitialized: function () {
      canvas = document.getElementById('canvas');
      ctx2d = canvas.getContext('2d');
      document.getElementById('title').textContent = Module.UTF8ToString(call('web_title', 'number', [], []));
      if (!call('web_start', 'number', [], [])) state.errors.push('web_start failed');
      document.getElementById('action').onclick = () => call('web_action', null, ['number'], [0]);
      document.getElementById('pause').onclick = () => { state.paused = !state.paused; };
      document.getElementById('scale').oninput = e => {
        state.scale = parseFloat(e.target.value);
        call('web_time_scale', null, ['number'], [state.scale]);
        document.getElementById('scalev').textContent = state.scale.toFixed(2);
      };
      requestAnimationFrame(loop);
    }
  };
})();
