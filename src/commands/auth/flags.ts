import { defineVerb, flag, groupHelp } from '../verb.js';

// Top-level verbs, and built at every start-up: `payctl login` is no group's.

export const loginVerb = defineVerb({
  name: 'login',
  description: 'Save an API key (checked with one read-only request) in the OS keyring and a profile, and make it current',
  flags: {
    baseUrl: flag('--base-url <url>', 'the API base URL, e.g. https://api.example.com'),
    marketplaceId: flag('--marketplace-id <id>', 'marketplace id: requests go under /v1/marketplaces/<id>/'),
    sellerId: flag('--seller-id <id>', 'default seller (on_behalf_of) for new transactions'),
    apiKeyStdin: flag('--api-key-stdin', 'read the API key from standard input instead of a hidden prompt'),
    insecureStorage: flag('--insecure-storage', 'save the API key in plain text in the config file (mode 0600) instead of the OS keyring: for machines without one'),
  },
  examples: [
    'payctl login --profile live --base-url https://api.example.com --marketplace-id <id> --seller-id <id>',
    'payctl login --profile live --api-key-stdin < ~/.secrets/payctl-key',
    'payctl login --profile ci --insecure-storage --api-key-stdin < key   # a server with no keyring',
  ],
});

export const logoutVerb = defineVerb({
  name: 'logout',
  description: "Remove a profile's API key, from the OS keyring or the config file (the profile's other settings stay)",
  examples: ['payctl logout --profile live', 'payctl logout --dry-run                # says which profile it would remove'],
});

export const whoamiVerb = defineVerb({
  name: 'whoami',
  description: 'Show the profile in use, where it points, its masked API key and where that key is kept, and who acts (user@host, operator_name; a person, a script or an agent)',
  examples: ['payctl whoami', 'payctl whoami -o json --fields profile,base_url'],
});

export const profiles = groupHelp('profiles', 'List, switch and remove profiles', ['payctl profiles list', 'payctl profiles use live']);

export const profilesList = defineVerb({
  name: 'list',
  description: 'List profiles (the current one is marked)',
  examples: ['payctl profiles list', "payctl profiles list -o json | jq -r '.[] | select(.current) | .name'"],
});

export const profilesUse = defineVerb({
  name: 'use <name>',
  asks: { name: { noun: 'profile' } },
  description: 'Make a profile the current one',
  examples: ['payctl profiles use live', 'payctl profiles use sandbox'],
});

export const profilesRemove = defineVerb({
  name: 'remove <name>',
  asks: { name: { noun: 'profile' } },
  description: 'Remove a profile and its API key; asks for confirmation',
  examples: ['payctl profiles remove staging --yes', 'payctl profiles remove staging --dry-run'],
});
