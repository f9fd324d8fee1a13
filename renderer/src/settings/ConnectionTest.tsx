import { useConnectionTest, useConnectionTestOutcome, type ConnectionTestResult } from './settings-queries';

type Failure = Extract<ConnectionTestResult, { ok: false }>;

const FAILURE_LABELS: Record<Failure['reason'], string> = {
  no_secret: 'No secret stored',
  keychain_unavailable: 'Keychain unavailable',
  wrong_secret: 'Wrong secret',
  hash_rejected: 'Hash rejected',
  unreachable: 'Host unreachable',
  timeout: 'Timed out',
  tls: 'TLS error',
  service_error: 'Service error',
  unexpected_response: 'Unexpected response',
};

export function TestConnectionButton({ profileId }: { profileId: string }) {
  const test = useConnectionTest(profileId);
  const running = test.isPending;
  return (
    <button type="button" className="button" disabled={running} onClick={() => test.mutate({ profileId })}>
      {running ? 'Testing…' : 'Test connection'}
    </button>
  );
}

function Outcome({ result }: { result: ConnectionTestResult }) {
  if (!result.ok) {
    return (
      <>
        <strong>{FAILURE_LABELS[result.reason]}.</strong> {result.message}
      </>
    );
  }
  return (
    <>
      <strong>Connected</strong> in {Math.round(result.ms)} ms. Gateways:{' '}
      <span className="mono">{result.gateways.join(', ') || 'none'}</span>.
      {result.failingGateways.length > 0 && (
        <>
          {' '}
          Answering with an error: <span className="mono">{result.failingGateways.join(', ')}</span>.
        </>
      )}
    </>
  );
}

/** A live region, always present, so the outcome of a test is announced when it arrives. */
export function ConnectionTestOutcome({ profileId }: { profileId: string }) {
  const test = useConnectionTestOutcome(profileId);
  const tone =
    test?.status === 'ready' ? (test.value.ok ? 'ok' : 'bad') : test?.status === 'failed' ? 'bad' : 'pending';
  return (
    <p className={`test-outcome test-${tone}`} role="status">
      {test?.status === 'loading' && 'Calling payout accounts…'}
      {test?.status === 'failed' && `The test could not run: ${test.error.message}`}
      {test?.status === 'ready' && <Outcome result={test.value} />}
    </p>
  );
}
