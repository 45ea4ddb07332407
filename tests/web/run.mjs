// run.mjs -- the browser test of the samples: serves build/web/site on
// 127.0.0.1, opens every sample in headless Chromium (puppeteer-core
// driving Debian's chromium), runs a fixed number of frames, and fails on a
// console error, a blank canvas, or an inspector that disagrees with what
// the sample's own log says. Saves a screenshot of each sample.
//   node tests/web/run.mjs SITE_DIR SHOTS_DIR
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import puppeteer from 'puppeteer-core';

const site = path.resolve(process.argv[2] || 'build/web/site');
const shots = path.resolve(process.argv[3] || 'build/web/shots');
fs.mkdirSync(shots, { recursive: true });
const types = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm', '.txt': 'text/plain' };
const server = http.createServer((req, res) => {
  const file = path.join(site, decodeURIComponent(new URL(req.url, 'http://x').pathname));
  if (!file.startsWith(site) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) { res.writeHead(404); res.end(); return; }
  res.writeHead(200, { 'Content-Type': types[path.extname(file)] || 'application/octet-stream' });
  fs.createReadStream(file).pipe(res);
});
await new Promise(r => server.listen(0, '127.0.0.1', r));
const base = 'http://127.0.0.1:' + server.address().port + '/';

// what each sample's log and inspector must say after its frames
const defaultCheck = { frames: 300, check(t) {
  // a sample logs "live N" when it draws; the inspector, read right after, must count the same
  const last = [...t.log].reverse().find(l => l.startsWith('live '));
  if (last && parseInt(last.slice(5), 10) !== t.inspect.arena.live) return 'the sample says ' + last + ', the inspector ' + t.inspect.arena.live;
  if (!t.inspect.types.length) return 'the inspector shows no type';
  return null;
} };
const checks = {
  foo_bar: { frames: 400, check(t) {
    const want = ['0', '1', 'Bar finished!', '2', '3', '4', 'Foo2 finished!', 'Foo finished!'];
    if (JSON.stringify(t.log) !== JSON.stringify(want)) return 'the lines Unity prints, in order: got ' + JSON.stringify(t.log);
    const type = n => t.inspect.types.find(x => x.name === n);
    if (!type('foo2') || type('foo2').started !== 1 || type('foo').live !== 0 || type('bar').live !== 0)
      return 'the inspector disagrees with the log: ' + JSON.stringify(t.inspect.types);
    return null;
  } },
  cutscene: { frames: 300, actionAt: 120, check(t) {
    if (!t.log.includes('skipped') || t.log.includes('the cutscene played to its end')) return 'the skip was not taken: ' + t.log.join('|');
    return t.inspect.arena.live === 0 ? null : 'the scene is still running after the skip';
  } },
  rollback: { frames: 300, actionAt: 150, check(t) {
    if (!t.log.includes('rewound 60 frames')) return 'no rewind';
    if (t.log.includes('desync at a replayed frame')) return 'a replayed frame differs from its first run';
    if (!t.log.includes('replayed 60 frames: every one matched')) return 'the replay did not finish';
    return defaultCheck.check(t);
  } },
};

const browser = await puppeteer.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
});
let failed = 0;
const samples = fs.readdirSync(site).filter(f => f.endsWith('.html') && f !== 'index.html').map(f => f.slice(0, -5)).sort();
for (const name of samples) {
  const spec = checks[name] || defaultCheck;
  const page = await browser.newPage();
  await page.setViewport({ width: 1240, height: 720 });
  const errors = [];
  page.on('console', m => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', e => errors.push(String(e)));
  const t0 = Date.now();
  await page.goto(base + name + '.html?test=1&frames=' + spec.frames + (spec.actionAt ? '&action_at=' + spec.actionAt : ''));
  await page.waitForFunction(() => window.corralTest && window.corralTest.done, { timeout: 60000 });
  const t = await page.evaluate(() => window.corralTest);
  const blank = await page.evaluate(() => {
    const c = document.getElementById('canvas'), d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    for (let i = 0; i < d.length; i += 4) if (d[i] !== d[0] || d[i + 1] !== d[1] || d[i + 2] !== d[2]) return false;
    return true;
  });
  await page.screenshot({ path: path.join(shots, name + '.png') });
  const why = errors.concat(t.errors).length ? 'console errors: ' + errors.concat(t.errors).join(' | ')
    : blank ? 'the canvas is blank' : spec.check(t);
  console.log((why ? 'FAIL ' : 'ok   ') + name + ': ' + t.frames + ' frames in ' + (Date.now() - t0) + ' ms' +
    (why ? ': ' + why : ', ' + t.inspect.arena.live + ' live, ' + t.log.length + ' log lines'));
  if (why) failed++;
  await page.close();
}
await browser.close();
server.close();
console.log(`${samples.length - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
