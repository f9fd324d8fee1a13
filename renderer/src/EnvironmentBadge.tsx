import type { Environment as ProfileEnvironment } from '../../shared/profiles';

const LABELS: Record<ProfileEnvironment, string> = {
  sandbox: 'Sandbox',
  production: 'Production',
  custom: 'Custom',
};

/** Colour and wording differ per environment so a production session is never mistaken for a sandbox one. */
export function EnvironmentBadge({ environment }: { environment: ProfileEnvironment }) {
  return <span className={`env-badge env-${environment}`}>{LABELS[environment]}</span>;
}
