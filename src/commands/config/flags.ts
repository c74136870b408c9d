import { defineVerb, flag, groupHelp } from '../verb.js';

export const config = groupHelp('config', 'Read and change the settings of a profile (base_url, marketplace_id, seller_id, currency, output, timeout)', ['payctl config list', 'payctl config set output json']);

export const get = defineVerb({
  name: 'get <key>',
  asks: { key: { noun: 'setting' } },
  description: 'Print one setting of the profile (the API key is shown masked)',
  examples: ['payctl config get base_url', 'payctl --profile live config get seller_id'],
});

export const set = defineVerb({
  name: 'set <key> <value>',
  asks: { key: { noun: 'setting' } },
  description: 'Change one setting of the profile (creates the profile if needed); a ledger_url with a password is kept in the OS keyring',
  flags: {
    insecureStorage: flag('--insecure-storage', 'ledger_url: save its password in plain text in the config file (mode 0600) instead of the OS keyring: for machines without one'),
  },
  examples: [
    'payctl config set output json',
    'payctl --profile live config set timeout 60',
    'payctl --profile live config set ledger_url postgres://payctl:secret@db.internal:5432/payctl',
    'payctl config set operator_name "Ana Souza"   # recorded beside user@host on every money move',
  ],
});

export const unset = defineVerb({
  name: 'unset <key>',
  asks: { key: { noun: 'setting' } },
  description: 'Remove one setting of the profile',
  examples: ['payctl config unset output', 'payctl config unset timeout --profile live'],
});

export const list = defineVerb({
  name: 'list',
  description: 'Show every setting of the profile',
  examples: ['payctl config list', 'payctl --profile live config list -o json'],
});
