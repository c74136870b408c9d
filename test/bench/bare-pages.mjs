// Baseline for the export figures: fetches the pages of a list one after another with node:http
// (keep-alive, Basic auth) and writes each item as one NDJSON line: the least any exporter must do.
// Usage: node bare-pages.mjs <list URL> [max items]
import http from 'node:http';

const [url, max] = process.argv.slice(2);
let left = max === undefined ? Number.POSITIVE_INFINITY : Number(max);
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const auth = `Basic ${Buffer.from(`${process.env.PAYCTL_API_KEY ?? ''}:`).toString('base64')}`;

function get(pageUrl) {
  return new Promise((resolve, reject) => {
    http
      .get(pageUrl, { agent, headers: { Authorization: auth, Accept: 'application/json' } }, (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => (res.statusCode === 200 ? resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))) : reject(new Error(`HTTP ${res.statusCode}`))));
      })
      .on('error', reject);
  });
}

for (let offset = 0; left > 0; offset += 100) {
  const page = await get(`${url}${url.includes('?') ? '&' : '?'}limit=${Math.min(100, left)}&offset=${offset}`);
  let out = '';
  for (const item of page.items) out += `${JSON.stringify(item)}\n`;
  left -= page.items.length;
  if (!process.stdout.write(out)) await new Promise((r) => process.stdout.once('drain', r));
  if (!page.has_more) break;
}
agent.destroy();
