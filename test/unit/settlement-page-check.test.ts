/**
 * The settlement page's fast path held to the schema it stands in for: on the sandbox's own pages it answers (so
 * a sync takes it) and answers what `settlementFetchResponse` answers; on pages broken one field at a time it
 * either answers what the schema answers or steps aside, and never changes the page it stepped aside from. The
 * client then reports the schema's error, naming the operation and the field.
 */
import { describe, expect, it } from 'vitest';
import { checkSettlementPage } from '../../electron/api/settlement-page-check';
import { GATEWAYS } from '../../electron/sandbox/data/catalog';
import { SettlementSource } from '../../electron/sandbox/data/settlements';
import { settlementFetchResponse } from '../../shared/api/settlements';

const source = new SettlementSource(
  3,
  3000,
  GATEWAYS.map((g) => g.code),
);
const wirePage = (offset: number, limit = 200) => {
  const page = source.page('2025-02-10', undefined, offset, limit);
  const body = { status: true, data: page.data, is_last_page: page.isLastPage, request_id: 'req-1' };
  return JSON.parse(JSON.stringify(body)) as Record<string, unknown>;
};
const copy = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

/** What the schema answers for `json`, or its error text. */
function bySchema(json: unknown) {
  const parsed = settlementFetchResponse.safeParse(structuredClone(json));
  return parsed.success ? { value: parsed.data } : { error: parsed.error.issues };
}

/** The fast path's answer must be the schema's; when it steps aside, the page is left as it came. */
function expectAgrees(json: unknown, label: string) {
  const before = structuredClone(json);
  const schema = bySchema(json);
  const fast = checkSettlementPage(json);
  if (fast === undefined) {
    expect(json, `${label}: a page the fast path stepped aside from is unchanged`).toEqual(before);
    return 'schema';
  }
  expect(schema, `${label}: the schema accepts what the fast path accepts`).toHaveProperty('value');
  expect(fast, label).toEqual((schema as { value: unknown }).value);
  return 'fast';
}

describe('the settlement page fast path', () => {
  it('takes the sandbox pages, with money exactly as the schema converts it', () => {
    for (const offset of [0, 200, 1400, 2800]) {
      expect(expectAgrees(wirePage(offset), `offset ${offset}`)).toBe('fast');
    }
    const page = checkSettlementPage(wirePage(0))!;
    const wire = wirePage(0) as { data: { cgst: string }[] };
    expect(page.data.every((r) => Number.isSafeInteger(r.cgst))).toBe(true);
    expect(page.data[0]!.cgst).toBe(Math.round(Number(wire.data[0]!.cgst) * 100));
  });

  it('keeps fields the contract does not name, and takes pages with and without optional fields', () => {
    const json = wirePage(0, 3) as { data: Record<string, unknown>[] };
    json.data[0]!['gateway_ref'] = 'gw-1';
    json.data[1]!['refunded'] = false;
    delete json.data[1]!['utr'];
    delete json.data[1]!['pg'];
    json.data[2]!['cgst'] = 1.5;
    json.data[2]!['utr'] = '';
    delete (json as Record<string, unknown>)['request_id'];
    expect(expectAgrees(json, 'optional fields')).toBe('fast');
    expect(checkSettlementPage(copy(json))!.data[0]).toHaveProperty('gateway_ref', 'gw-1');
  });

  it('takes only pages it proves flat: an object or array anywhere but `data` leaves the page to the depth walk', () => {
    for (const [label, nest] of [
      [
        'a field of a record the contract does not name',
        (j: Record<string, unknown>) => {
          (j['data'] as Record<string, unknown>[])[2]!['gateway_ref'] = { a: [1] };
        },
      ],
      [
        'an array in a record',
        (j: Record<string, unknown>) => {
          (j['data'] as Record<string, unknown>[])[0]!['tags'] = [];
        },
      ],
      [
        'a field of the page',
        (j: Record<string, unknown>) => {
          j['meta'] = { next: null };
        },
      ],
    ] as const) {
      const json = wirePage(0, 3);
      nest(json);
      expect(expectAgrees(json, label), label).toBe('schema');
      // Taken as a primitive, the same field is kept and the page is the fast path's.
      const flat = wirePage(0, 3);
      nest(flat);
      const swap = (o: Record<string, unknown>) => {
        for (const k of Object.keys(o)) if (k !== 'data' && typeof o[k] === 'object' && o[k] !== null) o[k] = 'x';
      };
      swap(flat);
      (flat['data'] as Record<string, unknown>[]).forEach(swap);
      expect(expectAgrees(flat, `${label}, as text`), label).toBe('fast');
    }
  });

  it('on every field broken in every way, answers as the schema does or leaves the page to it', () => {
    const fields = Object.keys((wirePage(0, 1) as { data: Record<string, unknown>[] }).data[0]!);
    const wrongs: unknown[] = [
      undefined,
      null,
      '',
      'x',
      '12.345',
      '1e3',
      ' 12.50',
      -1,
      0.5,
      2 ** 53,
      Number.NaN,
      true,
      {},
      [],
      '2025-02-30 10:00:00',
      '2025-02-10T10:00:00',
    ];
    let schemaCases = 0;
    for (const field of fields) {
      for (const wrong of wrongs) {
        const json = wirePage(40, 5) as { data: Record<string, unknown>[] };
        // The last record of the page is the broken one: four good ones before it must stay unconverted.
        if (wrong === undefined) delete json.data[4]![field];
        else json.data[4]![field] = wrong;
        if (expectAgrees(json, `${field} = ${String(wrong)}`) === 'schema') schemaCases++;
      }
    }
    expect(schemaCases).toBeGreaterThan(fields.length);
    for (const broken of [
      null,
      [],
      { status: false, data: [], is_last_page: true },
      { status: true, data: {}, is_last_page: true },
      { status: true, data: [], is_last_page: 'yes' },
      { status: true, data: [], is_last_page: true, request_id: 7 },
      { status: true, data: [null], is_last_page: true },
    ]) {
      expect(checkSettlementPage(broken), JSON.stringify(broken)).toBeUndefined();
    }
  });
});
