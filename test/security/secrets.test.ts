import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqlite } from '../../src/platform/sqlite.js';
import { payctl, tempHome, type RunResult } from '../helpers/run.js';
import { providerError, recordingServer, type RecordingServer } from '../helpers/recording-server.js';

// A scan over everything payctl printed or wrote while it handled card data and a live key:
// stdout, stderr (including --debug and --dry-run) and every file under PAYCTL_HOME.
const PAN = '4111111111111111';
const CVV = '9173';
const KEY = 'zpk_live_TOPSECRETKEY42';
const card = ['--card-number', PAN, '--holder-name', 'Maria Silva', '--exp-month', '12', '--exp-year', '2031', '--cvv', CVV];

const outputs: { label: string; result: RunResult }[] = [];
let home: { home: string; cleanup: () => void };
let server: RecordingServer;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

function leaks(text: string): string[] {
  const found: string[] = [];
  if (text.includes(PAN)) found.push('card number');
  if (/\b4111[ -]?1111[ -]?1111[ -]?1111\b/.test(text)) found.push('spaced card number');
  if (new RegExp(`\\b${CVV}\\b`).test(text)) found.push('CVV');
  if (text.includes(KEY) || text.includes(Buffer.from(`${KEY}:`).toString('base64'))) found.push('API key');
  return found;
}

beforeAll(async () => {
  home = tempHome();
  const run = async (label: string, args: string[], opts: { stdin?: string; env?: Record<string, string> } = {}) => {
    outputs.push({ label, result: await payctl(args, { home: home.home, ...opts }) });
  };
  // Against the embedded sandbox (state files written under PAYCTL_HOME).
  await run('create', ['transactions', 'create', '--amount', '10', ...card, '--debug']);
  await run('create table', ['transactions', 'create', '--amount', '10', ...card, '-o', 'table']);
  await run('dry-run', ['transactions', 'create', '--amount', '10', ...card, '--dry-run']);
  await run('dry-run table', ['transactions', 'create', '--amount', '10', ...card, '--dry-run', '-o', 'table']);
  await run('tokenize', ['cards', 'tokenize', ...card, '--debug']);
  const cardFile = join(home.home, '..', `card-${process.pid}.json`);
  writeFileSync(cardFile, JSON.stringify({ card_number: PAN, holder_name: 'M S', expiration_month: '12', expiration_year: '2031', security_code: CVV }));
  await run('tokenize file', ['cards', 'tokenize', '--card-file', cardFile, '--debug']);
  await run('declined', ['transactions', 'create', '--amount', '10', ...card.slice(0, 0), '--card-number', '4000000000000002', '--holder-name', 'X', '--exp-month', '12', '--exp-year', '2031', '--cvv', CVV, '--debug']);
  await run('bad cvv', ['transactions', 'create', '--amount', '10', '--card-number', PAN, '--holder-name', 'X', '--exp-month', '12', '--exp-year', '2031', '--cvv', '91']);
  await run('bad luhn', ['transactions', 'create', '--amount', '10', '--card-number', '4111111111111112', '--holder-name', 'X', '--exp-month', '12', '--exp-year', '2031', '--cvv', CVV]);
  await run('list', ['transactions', 'list', '--debug', '-o', 'csv']);
  // Against a live-looking key on a server that echoes the body back in its error message.
  server = await recordingServer((req) => ({ status: 400, body: providerError(400, 'invalid_parameter', `bad request: ${req.body}`) }));
  const live = { PAYCTL_BASE_URL: server.url, PAYCTL_API_KEY: KEY };
  await run('live error', ['transactions', 'create', '--amount', '10', ...card, '--on-behalf-of', 'seller1', '--debug'], { env: live });
  await run('live dry-run', ['transactions', 'create', '--amount', '10', ...card, '--on-behalf-of', 'seller1', '--dry-run'], { env: live });
  await run('whoami', ['whoami', '--debug'], { env: live });
  await run('login', ['login', '--profile', 'live', '--base-url', server.url, '--api-key-stdin', '--insecure-storage', '--debug'], { stdin: KEY });
});

afterAll(async () => {
  await server.close();
  home.cleanup();
});

describe('card numbers, CVVs and the API key never leak', () => {
  it('the runs really handled the data (the scan is not vacuous)', () => {
    const byLabel = Object.fromEntries(outputs.map((o) => [o.label, o.result]));
    expect(byLabel.create!.code).toBe(0);
    expect(byLabel.create!.stderr).toContain('4111********1111'); // --debug showed the masked body
    expect(byLabel['dry-run']!.stdout).toContain('"security_code": "[redacted]"');
    expect(byLabel['live error']!.code).toBe(6);
    expect(server.requests.some((r) => r.body.includes(PAN))).toBe(true); // the real request did carry it
    expect(byLabel['bad cvv']!.code).toBe(2);
    expect(byLabel['bad luhn']!.code).toBe(2);
  });

  it('not on stdout or stderr of any run', () => {
    for (const { label, result } of outputs) {
      expect({ label, leaks: leaks(result.stdout) }).toEqual({ label, leaks: [] });
      expect({ label, leaks: leaks(result.stderr) }).toEqual({ label, leaks: [] });
    }
  });

  it('not in any file payctl wrote', async () => {
    const files = filesUnder(home.home);
    // The sandbox's database (with its log and index while one is open) is among them.
    expect(files.some((f) => f.endsWith('sandbox.db'))).toBe(true);
    for (const file of files) {
      // Byte for byte: a binary file is scanned as it is, freed pages and log frames included.
      const text = readFileSync(file).toString('latin1');
      // The login saved the key on purpose: the config file is the one place it may live (0600).
      const allowed = file.endsWith('config.json') ? leaks(text).filter((l) => l !== 'API key') : leaks(text);
      expect({ file, leaks: allowed }).toEqual({ file, leaks: [] });
    }
    // And value by value: a value spanning two database pages is whole only when read back.
    for (const file of files.filter((f) => f.endsWith('sandbox.db'))) {
      const db = await openSqlite(file);
      try {
        const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[];
        expect(tables.length).toBeGreaterThan(0);
        for (const { name } of tables) {
          for (const row of db.prepare(`SELECT * FROM "${name}"`).all() as Record<string, unknown>[]) {
            const text = Object.values(row).filter((v) => typeof v === 'string').join('\n');
            expect({ file, table: name, leaks: leaks(text) }).toEqual({ file, table: name, leaks: [] });
          }
        }
      } finally {
        db.close();
      }
    }
  });
});
