/**
 * The sandbox (the app embeds one) does not keep sockets for clients that connect and then stall: one that sends
 * nothing, and one that sends half a request, are both cut off once the header limit passes. Bounded: 100 sockets,
 * a 300 ms limit.
 */
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../electron/sandbox/server';
import { startTestSandbox } from '../support/sandbox';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox({ settlementsPerDay: 1, timeouts: { headersMs: 300 } });
});
afterAll(() => sandbox?.close());

function open(port: number, send: string): Promise<{ socket: Socket; closed: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      if (send) socket.write(send);
      resolve({ socket, closed: new Promise((done) => socket.once('close', () => done())) });
    });
    socket.on('error', () => undefined);
    socket.once('error', reject);
  });
}

describe('stalled clients', () => {
  it('closes 100 half-open sockets (silent or half a request) within a few header limits', async () => {
    const port = Number(new URL(sandbox.url).port);
    const sockets = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        open(port, i % 2 ? 'GET /api/v2/payout/fetch HTTP/1.1\r\nHost: x\r\n' : ''),
      ),
    );
    const outcome = await Promise.race([
      Promise.all(sockets.map((s) => s.closed)).then(() => 'all closed'),
      new Promise((resolve) => setTimeout(() => resolve('still open'), 5_000)),
    ]);
    for (const { socket } of sockets) socket.destroy();
    expect(outcome).toBe('all closed');
  });

  it('still answers a prompt client after that', async () => {
    const answer = await fetch(`${sandbox.url}/__sandbox/fixtures`);
    expect(answer.status).toBe(200);
  });
});
