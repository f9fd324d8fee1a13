/**
 * Webhook management: list endpoints, update one (url, topics, deactivate).
 */
import { describe, expect, it } from 'vitest';
import { parse, refuse, request, requestIssues, edit, DROP } from './contract-helpers';

const ENDPOINT_1 = {
  id: 'wh_01HX',
  url: 'https://merchant.example.com/hooks/orders',
  topics: ['order.paid', 'order.failed'],
  status: 'active',
  created_at: '2024-01-10T08:30:00Z',
};
const ENDPOINT_2 = {
  id: 'wh_02QM',
  url: 'https://merchant.example.com/hooks/failures',
  topics: ['order.failed'],
  status: 'inactive',
  created_at: '2024-02-01T12:00:00.000Z',
};
const LIST = { status: true, data: [ENDPOINT_1, ENDPOINT_2] };

describe('webhook.list response', () => {
  it('Variant A: endpoints exactly', () => {
    expect(parse('webhook.list', LIST)).toStrictEqual({ data: [ENDPOINT_1, ENDPOINT_2], request_id: undefined });
  });

  it('keeps unknown endpoint fields and topics it does not know', () => {
    const out = parse(
      'webhook.list',
      edit(edit(LIST, 'data.0.secret_hint', '****ab'), 'data.1.topics', ['refund.processed']),
    );
    expect(out.data[0]).toMatchObject({ secret_hint: '****ab' });
    expect(out.data[1]!.topics).toStrictEqual(['refund.processed']);
  });

  it('refuses missing or mistyped fields and names them', () => {
    expect(refuse('webhook.list', edit(LIST, 'data.0.url', DROP))).toMatch(/^data\.0\.url: /);
    expect(refuse('webhook.list', edit(LIST, 'data.1.topics', 'order.paid'))).toMatch(/^data\.1\.topics: /);
    expect(refuse('webhook.list', edit(LIST, 'data.0.created_at', '2024-01-10 14:00:00'))).toBe(
      'data.0.created_at: expected an ISO 8601 UTC time',
    );
    expect(refuse('webhook.list', { status: true })).toMatch(/^data: /);
  });
});

describe('webhook.list request', () => {
  it('active is an optional boolean', () => {
    expect(request('webhook.list', {}).success).toBe(true);
    expect(request('webhook.list', { active: false }).success).toBe(true);
    expect(requestIssues('webhook.list', { active: 'true' })).toMatch(/^active: /);
  });
});

describe('webhook.update response', () => {
  // The success body is not shown; the contract accepts {status, data?, message?, request_id?}.
  it('the endpoint after the update', () => {
    const updated = { ...ENDPOINT_1, status: 'inactive' };
    expect(parse('webhook.update', { status: true, data: updated, request_id: 'req_w1' })).toStrictEqual({
      data: updated,
      message: undefined,
      request_id: 'req_w1',
    });
  });

  it('a bare {status: true} and a message-only body', () => {
    expect(parse('webhook.update', { status: true })).toStrictEqual({
      data: undefined,
      message: undefined,
      request_id: undefined,
    });
    expect(parse('webhook.update', { status: true, message: 'Webhook updated' }).message).toBe('Webhook updated');
  });

  it('refuses status false and a malformed endpoint', () => {
    expect(refuse('webhook.update', { status: false })).toMatch(/^status: /);
    expect(refuse('webhook.update', { status: true, data: { ...ENDPOINT_1, topics: undefined } })).toMatch(
      /^data\.topics: /,
    );
  });
});

describe('webhook.update request', () => {
  it('needs at least one of url, topics or active', () => {
    expect(requestIssues('webhook.update', { id: 'wh_01HX' })).toBe(
      '(body): give at least one of url, topics or active',
    );
    expect(request('webhook.update', { id: 'wh_01HX', active: false }).success).toBe(true);
    expect(request('webhook.update', { id: 'wh_01HX', topics: ['order.paid'] }).success).toBe(true);
    expect(request('webhook.update', { id: 'wh_01HX', url: 'https://merchant.example.com/h' }).success).toBe(true);
  });

  it('url must be http(s)', () => {
    expect(request('webhook.update', { id: 'wh_01HX', url: 'http://localhost:8080/hooks' }).success).toBe(true);
    for (const url of [
      'ftp://merchant.example.com/h',
      'javascript:alert(1)',
      'merchant.example.com/h',
      'mailto:a@b.com',
    ]) {
      expect(requestIssues('webhook.update', { id: 'wh_01HX', url }), url).toBe('url: must be an http(s) URL');
    }
  });

  it('topics are a non-empty list of event types; id is a plain webhook id', () => {
    expect(requestIssues('webhook.update', { id: 'wh_01HX', topics: [] })).toMatch(/^topics: /);
    expect(requestIssues('webhook.update', { id: 'wh_01HX', topics: ['paid'] })).toBe(
      'topics.0: must be an event type such as order.paid',
    );
    expect(requestIssues('webhook.update', { id: '', active: true })).toMatch(/^id: /);
    expect(requestIssues('webhook.update', { id: 'wh/../x', active: true })).toBe(
      'id: must be a webhook id (letters, digits, _ and -)',
    );
  });
});
