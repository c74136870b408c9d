import { describe, expect, it } from 'vitest';
import { flatten, getPath, pickFields } from '../../src/output/fields.js';

const tx = {
  id: 'tx_1',
  amount: '10.50',
  payment_method: { card_brand: 'Visa', last4_digits: '1111', address: { city: 'São Paulo' } },
  history: [
    { id: 'h1', amount: '10.50', status: 'succeeded' },
    { id: 'h2', amount: '2.00', status: 'refunded' },
  ],
  metadata: { 'order.id': '42', plain: 'x' },
  empty: {},
  nothing: null,
  flag: false,
};

describe('getPath', () => {
  it.each([
    ['id', 'tx_1'],
    ['payment_method.card_brand', 'Visa'],
    ['payment_method.address.city', 'São Paulo'],
    ['history.0.id', 'h1'],
    ['history.1.status', 'refunded'],
    ['history.status', ['succeeded', 'refunded']],
    ['metadata.order.id', '42'],
    ['metadata.plain', 'x'],
    ['nothing', null],
    ['flag', false],
    ['empty', {}],
    ['missing', undefined],
    ['payment_method.missing', undefined],
    ['history.5.id', undefined],
    ['history.missing', undefined],
    ['id.length', undefined],
    ['nothing.x', undefined],
    ['constructor', undefined],
    ['__proto__', undefined],
    ['payment_method.toString', undefined],
  ])('%s → %j', (path, value) => {
    expect(getPath(tx, path)).toEqual(value);
  });

  it('returns the whole value for an empty path and undefined inside non-objects', () => {
    expect(getPath('x', '')).toBe('x');
    expect(getPath('x', 'length')).toBeUndefined();
    expect(getPath(null, 'a')).toBeUndefined();
  });
});

describe('flatten', () => {
  it('turns nested objects into dotted keys and keeps arrays whole', () => {
    expect(flatten(tx)).toEqual({
      id: 'tx_1',
      amount: '10.50',
      'payment_method.card_brand': 'Visa',
      'payment_method.last4_digits': '1111',
      'payment_method.address.city': 'São Paulo',
      history: tx.history,
      'metadata.order.id': '42',
      'metadata.plain': 'x',
      empty: {},
      nothing: null,
      flag: false,
    });
  });

  it('keeps key order', () => {
    expect(Object.keys(flatten({ b: 1, a: { d: 1, c: 2 }, e: 3 }))).toEqual(['b', 'a.d', 'a.c', 'e']);
  });

  it('expands arrays on request', () => {
    expect(flatten({ h: [{ a: 1 }, 2], e: [] }, { expandArrays: true })).toEqual({ 'h.0.a': 1, 'h.1': 2, e: [] });
  });

  it.each([null, undefined, 'x', 3, []])('gives {} for %j', (value) => {
    expect(flatten(value)).toEqual({});
  });

  it('keeps a "__proto__" key as data', () => {
    const flat = flatten(JSON.parse('{"__proto__": {"x": 1}, "a": 1}'));
    expect(Object.keys(flat)).toEqual(['__proto__.x', 'a']);
    expect(Object.getPrototypeOf(flat)).toBe(Object.prototype);
  });
});

describe('pickFields', () => {
  it.each([
    [['id'], { id: 'tx_1' }],
    [['amount', 'id'], { amount: '10.50', id: 'tx_1' }],
    [['id', 'payment_method.card_brand'], { id: 'tx_1', payment_method: { card_brand: 'Visa' } }],
    [
      ['payment_method.card_brand', 'payment_method.last4_digits'],
      { payment_method: { card_brand: 'Visa', last4_digits: '1111' } },
    ],
    [['history.1.status'], { history: [{ status: 'refunded' }] }],
    [['history.status'], { history: [{ status: 'succeeded' }, { status: 'refunded' }] }],
    [['history.0.id', 'history.0.amount'], { history: [{ id: 'h1', amount: '10.50' }] }],
    [['metadata.order.id'], { metadata: { 'order.id': '42' } }],
    [['missing', 'id', 'payment_method.nope'], { id: 'tx_1' }],
    [['nothing', 'flag'], { nothing: null, flag: false }],
    [['constructor'], {}],
    [[], {}],
  ] as Array<[string[], unknown]>)('%j → %j', (paths, expected) => {
    expect(pickFields(tx, paths)).toEqual(expected);
  });

  it('orders top-level keys as the paths are given', () => {
    expect(Object.keys(pickFields(tx, ['history.0.id', 'id', 'amount']) as object)).toEqual(['history', 'id', 'amount']);
  });

  it('never modifies the object it picks from', () => {
    const copy = structuredClone(tx);
    pickFields(tx, ['payment_method', 'payment_method.card_brand', 'history', 'history.1.id']);
    expect(tx).toEqual(copy);
  });

  it('returns non-objects unchanged and picks from each item of an array', () => {
    expect(pickFields('x', ['id'])).toBe('x');
    expect(pickFields([{ id: 1, a: 2 }, { id: 3 }], ['id'])).toEqual([{ id: 1 }, { id: 3 }]);
  });
});
