/**
 * The sandbox (the app embeds one) does not keep sockets for clients that connect and then stall: one that sends
 * nothing, and one that sends half a request, are both cut off once the header limit passes. Bounded: 100 sockets,
 * a 300 ms limit. The test waits for the sockets to close and for nothing else: a sandbox that kept one would fail
 * by the suite's own timeout, and a busy machine only makes it slower, never wrong.
 */
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../electron/sandbox/server';
import { startTestSandbox } from '../support/sandbox';

let sandbox: Sandbox;
const opened: Socket[] = [];
beforeAll(async () => {
  sandbox = await startTestSandbox({ settlementsPerDay: 1, timeouts: { headersMs: 300 } });
});
// Sockets the sandbox failed to close (the test then timed out) must not hold it open.
afterAll(() => {
  for (const socket of opened) socket.destroy();
  return sandbox?.close();
});

function open(port: number, send: string): Promise<{ socket: Socket; closed: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      opened.push(socket);
      if (send) socket.write(send);
      // Read what the sandbox sends before it closes (a 408): a socket nobody reads holds those bytes, and the end of
      // the stream behind them, so its close was never seen (the connection sat in CLOSE-WAIT on this side).
      socket.resume();
      resolve({ socket, closed: new Promise((done) => socket.once('close', () => done())) });
    });
    socket.on('error', () => undefined);
    socket.once('error', reject);
  });
}

describe('stalled clients', () => {
  it('closes 100 half-open sockets (silent or half a request) once the header limit passes', async () => {
    const port = Number(new URL(sandbox.url).port);
    const sockets = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        open(port, i % 2 ? 'GET /api/v2/payout/fetch HTTP/1.1\r\nHost: x\r\n' : ''),
      ),
    );
    // Only the sandbox closes them: this side never ends or destroys a socket before every one has closed.
    await Promise.all(sockets.map((s) => s.closed));
    expect(sockets.filter((s) => !s.socket.destroyed)).toEqual([]);
  });

  it('still answers a prompt client after that', async () => {
    const answer = await fetch(`${sandbox.url}/__sandbox/fixtures`);
    expect(answer.status).toBe(200);
  });
});
