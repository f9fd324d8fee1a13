/**
 * Hostile IPC payloads, generated from a channel's valid input by a seeded PRNG. Only what can cross Electron's
 * IPC is generated: structured-clone values (primitives incl. NaN, Infinity, -0, bigint, undefined; arrays, plain
 * objects, Date, RegExp, Map, Set, typed arrays, ArrayBuffer, Error). Functions and symbols cannot cross and are
 * left out. Prototype-pollution keys are own properties, made with JSON.parse exactly as a deserializer would.
 *
 * The generator does not decide validity: the invalid-input fuzz keeps a payload only when the channel's schema
 * rejects it; the schema-valid fuzz (`schemaValidCandidate`) only when the schema accepts it.
 */
import type { Rng } from './support';

/** The key a pollution payload tries to plant on Object.prototype; checked for after every run. */
export const POLLUTION_MARKER = 'pcSecuritySuitePolluted';

export interface Payload {
  kind: string;
  value: unknown;
}

type Path = readonly string[];
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const POLLUTION_KEYS = ['__proto__', 'constructor', 'prototype'] as const;
const EXTRA_KEYS = [
  ...POLLUTION_KEYS,
  '__defineGetter__',
  'toString',
  'valueOf',
  'hasOwnProperty',
  'isAdmin',
  'builtIn',
  'secret',
  'id',
  'then',
  '',
  ' ',
  '\u0000',
  '\u202eevil',
  'profileId\u200b',
  '𝔭𝔯𝔬𝔣𝔦𝔩𝔢',
  'k'.repeat(1000),
];

const POLLUTION_VALUES: Json[] = [
  { [POLLUTION_MARKER]: true },
  { prototype: { [POLLUTION_MARKER]: true } },
  { isAdmin: true, builtIn: true, hashScheme: 'md5' },
  { toString: 'not a function', valueOf: 1 },
  { constructor: { prototype: { [POLLUTION_MARKER]: 'deep' } } },
];

const STRINGS = [
  '',
  ' ',
  '\t\n\r',
  '\u0000',
  '\u0001\u001f\u007f',
  '\u202eexe.txt',
  '\u200b',
  '\ud800',
  '\udfff\ud800',
  '😀'.repeat(40),
  'e\u0301'.repeat(40),
  'sаndbox', // Cyrillic а
  'SANDBOX',
  'Custom',
  'staging',
  'sha1',
  'md5',
  'SHA512',
  'javascript:alert(1)',
  'file:///etc/passwd',
  'data:text/html,<script>alert(1)</script>',
  'http://evil.example',
  'http://169.254.169.254/latest/meta-data/',
  'http://localhost.evil.example',
  'http://0x7f000001/',
  'https://user:pw@evil.example',
  'https://evil.example/?token=1',
  'https://evil.example/#frag',
  '//evil.example',
  'https:evil.example',
  'ftp://evil.example',
  'ws://127.0.0.1:1',
  'https://exa mple.com',
  'https://\u0000.example',
  "'; DROP TABLE profiles; --",
  '../../../../etc/passwd',
  '..\\..\\windows\\system32',
  '%00',
  '${process.env.HOME}',
  '{{7*7}}',
  '<img src=x onerror=alert(1)>',
  '{"profileId":"sandbox"}',
  'true',
  '0',
  'NaN',
  'undefined',
  'null',
];

const NUMBERS = [0, -0, 1, -1, 1.5, NaN, Infinity, -Infinity, Number.MAX_VALUE, Number.MIN_VALUE, 2 ** 53 + 1, 1e308];

/** A string of 1–5 MB; long strings are cheap to make and fully real to the validator. */
function hugeString(rng: Rng): string {
  const size = (1 + rng.int(5)) * 1024 * 1024 - rng.int(1000);
  return rng
    .pick(['x', 'é', '\u0000', 'a/', '😀'])
    .repeat(Math.ceil(size / 2))
    .slice(0, size);
}

/** 10,000 levels of objects or arrays, built with a loop so nothing here recurses. */
export function deepNest(rng: Rng, depth = 10_000): unknown {
  const asArray = rng.chance(0.5);
  let value: unknown = rng.chance(0.5) ? 'bottom' : { [POLLUTION_MARKER]: true };
  for (let i = 0; i < depth; i++) value = asArray ? [value] : { a: value };
  return value;
}

/** Own property `key` on a fresh object built by JSON.parse, so `__proto__` is data, not the prototype. */
function jsonObject(entries: readonly (readonly [string, Json])[]): Record<string, unknown> {
  return JSON.parse(`{${entries.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(',')}}`) as Record<
    string,
    unknown
  >;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

/** Paths to the values inside a valid input (`['id']`, `['fields']`, `['fields', 'name']`), descending only into plain
 * objects and only a few levels, so a mutated payload holding 10,000 levels is never walked. */
function pathsOf(value: unknown, prefix: Path = []): Path[] {
  if (!isPlainObject(value) || prefix.length >= 3) return [];
  return Object.keys(value).flatMap((k) => [[...prefix, k], ...pathsOf(value[k], [...prefix, k])]);
}

/** A copy of `root` with the object at `path` replaced by `update(old)`. Only the objects along the path are copied
 * (spread keeps own `__proto__` keys as data), so the hostile values elsewhere are shared, never walked. */
function updateAt(root: unknown, path: Path, update: (old: unknown) => unknown): unknown {
  if (path.length === 0) return update(root);
  const node = isPlainObject(root) ? { ...root } : {};
  const [head, ...rest] = path as [string, ...string[]];
  const next = updateAt(node[head], rest, update);
  if (next === REMOVE) delete node[head];
  else Object.defineProperty(node, head, { value: next, enumerable: true, writable: true, configurable: true });
  return node;
}
const REMOVE = Symbol('remove');

const setAt = (base: unknown, path: Path, value: unknown) => updateAt(base, path, () => value);
const dropAt = (base: unknown, path: Path) => updateAt(base, path, () => REMOVE);

function isJsonFaithful(value: unknown): value is Json {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value) && !Object.is(value, -0);
  return POLLUTION_VALUES.includes(value as Json);
}

/** Adds an own property `key` to the object at `path` (the root for `[]`): through JSON.parse, as a deserializer
 * would make it, when the value survives JSON; by defineProperty (also an own property) when it does not. */
function addKeyAt(base: unknown, path: Path, key: string, value: unknown): unknown {
  return updateAt(base, path, (old) => {
    const target = isPlainObject(old) ? old : {};
    if (isJsonFaithful(value) && Object.values(target).every((v) => isJsonFaithfulDeep(v))) {
      return jsonObject([...Object.entries(target).map(([k, v]) => [k, v as Json] as const), [key, value]]);
    }
    const copy = { ...target };
    Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
    return copy;
  });
}

/** Valid inputs hold only strings and small objects of strings; anything deeper is treated as not JSON. */
function isJsonFaithfulDeep(value: unknown, depth = 0): boolean {
  if (!isPlainObject(value)) return isJsonFaithful(value);
  return depth < 4 && Object.values(value).every((v) => isJsonFaithfulDeep(v, depth + 1));
}

/**
 * One payload of each family every channel must meet: the fuzz starts with these, so a channel's random draws
 * cannot skip one however many channels there are.
 */
export function notablePayloads(rng: Rng): Payload[] {
  return [
    { kind: 'whole payload: huge string', value: hugeString(rng) },
    { kind: 'whole payload: deep nesting', value: deepNest(rng) },
    { kind: 'whole payload: big array', value: new Array(100_000).fill(rng.pick([0, 'x', null])) },
    {
      kind: 'whole payload: object with own __proto__',
      value: jsonObject([['__proto__', rng.pick(POLLUTION_VALUES)]]),
    },
  ];
}

/** One value of any structured-clone type, hostile where it can be. */
export function hostileValue(rng: Rng, base: unknown): Payload {
  const roll = rng.int(100);
  if (roll < 3) return { kind: 'huge string', value: hugeString(rng) };
  if (roll < 6) return { kind: 'deep nesting', value: deepNest(rng) };
  if (roll < 8) return { kind: 'big array', value: new Array(100_000).fill(rng.pick([0, 'x', null])) };
  if (roll < 24) return { kind: 'number', value: rng.pick(NUMBERS) };
  if (roll < 44) return { kind: 'string', value: rng.pick(STRINGS) };
  if (roll < 50) return { kind: 'long string', value: 'x'.repeat(rng.pick([61, 65, 201, 513, 2048, 65_536])) };
  if (roll < 54) return { kind: 'null', value: null };
  if (roll < 57) return { kind: 'undefined', value: undefined };
  if (roll < 61) return { kind: 'boolean', value: rng.chance(0.5) };
  if (roll < 64) return { kind: 'bigint', value: BigInt(rng.int(1_000_000)) * 10n ** 30n };
  if (roll < 72) {
    const options = [[], [1, 2, 3], ['sandbox'], [null], [base], new Array(5), [[[['nested']]]]];
    return { kind: 'array', value: rng.pick(options) };
  }
  if (roll < 82) {
    const key = rng.pick(POLLUTION_KEYS);
    return { kind: `object with own ${key}`, value: jsonObject([[key, rng.pick(POLLUTION_VALUES)]]) };
  }
  if (roll < 86) return { kind: 'empty object', value: {} };
  const builtIns: [string, () => unknown][] = [
    ['Date', () => new Date(0)],
    ['invalid Date', () => new Date(NaN)],
    ['RegExp', () => /.*/g],
    ['Map', () => new Map([['profileId', 'sandbox']])],
    ['Set', () => new Set(['sandbox'])],
    ['Uint8Array', () => new Uint8Array([0x73, 0x6b])],
    ['ArrayBuffer', () => new ArrayBuffer(16)],
    ['Error', () => new Error('sandbox')],
  ];
  const [name, make] = rng.pick(builtIns);
  return { kind: name, value: make() };
}

/** One generated payload for a channel whose valid input is `base` (undefined for input-less channels). */
export function hostilePayload(rng: Rng, base: unknown): Payload {
  const paths = pathsOf(base);
  const objectBase = isPlainObject(base);
  const strategy = rng.int(12);
  switch (strategy) {
    case 0:
    case 1: {
      const v = hostileValue(rng, base);
      return { kind: `whole payload: ${v.kind}`, value: v.value };
    }
    case 2: {
      // Pollution keys next to the valid fields, or inside a nested object.
      const at = rng.pick([[] as Path, ...paths.filter((p) => isPlainObject(valueAt(base, p)))]);
      const key = rng.pick(POLLUTION_KEYS);
      return {
        kind: `own ${key} at ${at.join('.') || 'top'}`,
        value: addKeyAt(base, at, key, rng.pick(POLLUTION_VALUES)),
      };
    }
    case 3: {
      const at = rng.pick([[] as Path, ...paths.filter((p) => isPlainObject(valueAt(base, p)))]);
      const key = rng.pick(EXTRA_KEYS);
      const v = hostileValue(rng, base);
      return {
        kind: `extra key ${JSON.stringify(key.slice(0, 12))} at ${at.join('.') || 'top'} = ${v.kind}`,
        value: addKeyAt(base, at, key, v.value),
      };
    }
    case 4:
    case 5:
    case 6: {
      if (!paths.length) break;
      const at = rng.pick(paths);
      const v = hostileValue(rng, base);
      return { kind: `${at.join('.')} = ${v.kind}`, value: setAt(base, at, v.value) };
    }
    case 7: {
      if (!paths.length) break;
      const at = rng.pick(paths);
      return { kind: `missing ${at.join('.')}`, value: dropAt(base, at) };
    }
    case 8: {
      if (!paths.length) break;
      // Several fields broken at once.
      let value = base;
      const broken: string[] = [];
      for (let i = 0; i < 2 + rng.int(3); i++) {
        const at = rng.pick(pathsOf(value));
        if (!at) break;
        const v = hostileValue(rng, base);
        value = rng.chance(0.3) ? dropAt(value, at) : setAt(value, at, v.value);
        broken.push(at.join('.'));
      }
      return { kind: `several fields: ${broken.join(', ')}`, value };
    }
    case 9: {
      if (!objectBase || Object.keys(base as object).length === 0) break;
      // Key names that look right and are not: case, whitespace, invisible characters.
      const root = base as Record<string, unknown>;
      const key = rng.pick(Object.keys(root));
      const twisted = rng.pick([key.toUpperCase(), key.toLowerCase() + 'x', ` ${key}`, `${key}\u200b`, `${key}\u0000`]);
      const entries = Object.entries(root).map(([k, v]) => [k === key ? twisted : k, v as Json] as const);
      return { kind: `key ${JSON.stringify(key)} spelled ${JSON.stringify(twisted)}`, value: jsonObject(entries) };
    }
    case 10: {
      const wrappers: [string, () => unknown][] = [
        ['in an array', () => [base]],
        ['as JSON text', () => JSON.stringify(base ?? null)],
        ['under "input"', () => ({ input: base })],
        ['twice in an array', () => [base, base]],
        ['with a prototype-key wrapper', () => jsonObject([['__proto__', (base ?? null) as Json]])],
      ];
      const [name, make] = rng.pick(wrappers);
      return { kind: `valid input ${name}`, value: make() };
    }
    default:
      break;
  }
  const v = hostileValue(rng, base);
  return { kind: `whole payload: ${v.kind}`, value: v.value };
}

function valueAt(root: unknown, path: Path): unknown {
  let node = root;
  for (const key of path) node = (node as Record<string, unknown>)[key];
  return node;
}

/** Text at the edges a schema that checks only "a string" lets through: odd Unicode, lengths on common limits. */
const ODD_TEXT = [
  'e\u0301\u0301\u0301', // combining marks piled up (NFD)
  'Ⅸ ﬁ ＡＢＣ', // compatibility forms NFKC folds
  '\u202e\u2066rtl\u2069', // direction overrides
  '\u200b\u200c\u200d\ufeff', // invisible
  '\ud83d', // a lone surrogate
  '👩🏽‍💻'.repeat(20), // long grapheme clusters
  'İıſK', // case-mapping oddities (Turkish dotted I, long s, Kelvin sign)
  '\u0000inside',
  'a'.repeat(64),
  'a'.repeat(65),
  'a'.repeat(255),
  'a'.repeat(256),
];

/** Numbers a schema that checks only "a number" (or an integer, or a range) may let through. */
const EDGE_NUMBERS = [
  0,
  -0,
  1,
  -1,
  0.1 + 0.2,
  Number.EPSILON,
  Number.MIN_VALUE,
  Number.MAX_SAFE_INTEGER,
  -Number.MAX_SAFE_INTEGER,
  2 ** 31,
  -(2 ** 31),
  2 ** 53,
  1e21,
  Number.MAX_VALUE,
];

/** A value of the same kind as `old` at its edges: odd, huge or boundary-long text, edge numbers, big arrays. */
export function sameKindEdge(rng: Rng, old: unknown): Payload {
  if (typeof old === 'string') {
    const roll = rng.int(10);
    if (roll === 0) return { kind: 'huge string', value: hugeString(rng) };
    if (roll < 5) return { kind: 'odd text', value: rng.pick(ODD_TEXT) };
    return { kind: 'string', value: rng.pick(STRINGS) };
  }
  if (typeof old === 'number') return { kind: 'edge number', value: rng.pick(EDGE_NUMBERS) };
  if (typeof old === 'boolean') return { kind: 'boolean', value: !old };
  if (Array.isArray(old)) {
    // One edge item repeated: a 100,000-item array of megabyte strings would test the machine, not the app.
    const length = rng.pick([0, 1, 2, 21, 1000, 100_000]);
    const item = old[0] === undefined ? null : sameKindEdge(rng, old[0]);
    const value = item?.kind === 'huge string' ? rng.pick(ODD_TEXT) : (item?.value ?? null);
    return { kind: `array of ${length}`, value: new Array(length).fill(value) };
  }
  if (isPlainObject(old)) {
    const key = rng.pick(EXTRA_KEYS);
    return { kind: `object with extra key ${JSON.stringify(key.slice(0, 12))}`, value: addKeyAt(old, [], key, 1) };
  }
  return hostileValue(rng, old);
}

/**
 * One payload shaped like the valid input `base` with hostility where a schema may still accept it: a field at the
 * edges of its own kind, any hostile value (deep, BigInt, undefined, huge, built-ins) in a field, or one of the
 * schema's own keys (`keys`) added or set to undefined. The caller keeps it only when the channel's schema accepts
 * it: this is what reaches a handler.
 */
export function schemaValidCandidate(rng: Rng, base: unknown, keys: readonly string[]): Payload {
  const paths = pathsOf(base);
  const roll = rng.int(10);
  if (paths.length > 0 && roll < 5) {
    const at = rng.pick(paths);
    const v = sameKindEdge(rng, valueAt(base, at));
    return { kind: `${at.join('.')} = ${v.kind}`, value: setAt(base, at, v.value) };
  }
  if (paths.length > 0 && roll < 8) {
    const at = rng.pick(paths);
    const v = rng.chance(0.3)
      ? { kind: 'undefined', value: undefined }
      : rng.chance(0.3)
        ? { kind: 'deep nesting', value: deepNest(rng) }
        : hostileValue(rng, base);
    return { kind: `${at.join('.')} = ${v.kind}`, value: setAt(base, at, v.value) };
  }
  if (keys.length > 0 && isPlainObject(base ?? {})) {
    const key = rng.pick(keys);
    const v = rng.chance(0.5) ? { kind: 'undefined', value: undefined } : hostileValue(rng, base);
    return { kind: `${key} = ${v.kind}`, value: setAt(base ?? {}, [key], v.value) };
  }
  const v = hostileValue(rng, base);
  return { kind: `whole payload: ${v.kind}`, value: v.value };
}
