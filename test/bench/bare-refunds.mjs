// Baseline for the bulk refund figure: refunds every id of a file against a sandbox server with
// node:http (keep-alive, Basic auth), 8 at a time, and nothing else: no ledger, no checks. Next
// to `payctl transactions refund --file` in the same run it shows whether the server or payctl
// is the limit. Usage: node bare-refunds.mjs <base URL> <seller id> <file of `id,amount in cents` lines>
import { readFileSync } from 'node:fs';
import http from 'node:http';

const [base, seller, file] = process.argv.slice(2);
const ids = readFileSync(file, 'utf8').split('\n').filter(Boolean).map((line) => line.split(','));
const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
const auth = `Basic ${Buffer.from(`${process.env.PAYCTL_API_KEY ?? ''}:`).toString('base64')}`;

function refund([id, cents]) {
  const body = JSON.stringify({ on_behalf_of: seller, amount: Number(cents) });
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}/v1/transactions/${id}/void`, { method: 'POST', agent, headers: { Authorization: auth, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) } }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`${id}: HTTP ${res.statusCode}`))));
    });
    req.on('error', reject);
    req.end(body);
  });
}

let next = 0;
await Promise.all(
  Array.from({ length: 8 }, async () => {
    while (next < ids.length) await refund(ids[next++]);
  }),
);
console.log(ids.length);
