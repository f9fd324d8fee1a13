/**
 * A money action's confirmation (useConfirmedAction): one send however often "Confirm" is pressed while it is out,
 * the service's summary on success, its refusal as said, and a lost answer as "outcome unknown", never a guess.
 */
import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { IpcFailure } from '../../renderer/src/query/ipc-query';
import { useConfirmedAction } from '../../renderer/src/query/journaled-action';

interface Asked {
  requestKey: string;
  amount: number;
}

describe('useConfirmedAction', () => {
  it('sends once while the first send is out, then shows the summary and closes the confirmation', async () => {
    const { result } = renderHook(() => useConfirmedAction<Asked>());
    act(() => result.current.ask({ requestKey: 'k1', amount: 150_050 }));
    const sent: Asked[] = [];
    let answer!: (value: { outcome: { summary: string } }) => void;
    const send = (asked: Asked) => {
      sent.push(asked);
      return new Promise<{ outcome: { summary: string } }>((resolve) => (answer = resolve));
    };
    let first!: Promise<boolean>;
    let second!: Promise<boolean>;
    act(() => {
      first = result.current.confirm(send);
      second = result.current.confirm(send);
    });
    expect(await second).toBe(false);
    await act(async () => answer({ outcome: { summary: 'Refunded ₹1,500.50.' } }));
    expect(await first).toBe(true);
    expect(sent).toEqual([{ requestKey: 'k1', amount: 150_050 }]);
    expect(result.current.outcome).toEqual({ ok: true, text: 'Refunded ₹1,500.50.' });
    expect(result.current.pending).toBeNull();
  });

  it('says a refusal as the service did, and a lost answer as outcome unknown', async () => {
    const { result } = renderHook(() => useConfirmedAction<Asked>());
    const fail = (code: string, message: string) => () => Promise.reject(new IpcFailure({ code, message }));

    act(() => result.current.ask({ requestKey: 'k2', amount: 1 }));
    await act(async () => void (await result.current.confirm(fail('API_REFUSED', 'The order is not captured.'))));
    expect(result.current.outcome).toEqual({ ok: false, unknown: false, text: 'The order is not captured.' });

    act(() => result.current.ask({ requestKey: 'k3', amount: 1 }));
    await act(async () => void (await result.current.confirm(fail('API_OUTCOME_UNKNOWN', 'No answer in 30 s.'))));
    expect(result.current.outcome).toEqual({
      ok: false,
      unknown: true,
      text: 'Outcome unknown — check status below before trying again. No answer in 30 s.',
    });
  });

  it('sends nothing when nothing was asked, or after the confirmation was dropped', async () => {
    const { result } = renderHook(() => useConfirmedAction<Asked>());
    let sends = 0;
    const send = async () => {
      sends++;
      return { outcome: { summary: 'done' } };
    };
    await act(async () => void (await result.current.confirm(send)));
    act(() => result.current.ask({ requestKey: 'k4', amount: 1 }));
    act(() => result.current.drop());
    await act(async () => void (await result.current.confirm(send)));
    expect(sends).toBe(0);
    expect(result.current.outcome).toBeNull();
  });
});
