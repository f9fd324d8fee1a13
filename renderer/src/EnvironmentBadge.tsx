import type { Environment as ProfileEnvironment } from '../../shared/profiles';
import { useAppInfo } from './query/app-queries';

const LABELS: Record<ProfileEnvironment, string> = {
  sandbox: 'Sandbox',
  production: 'Production',
  custom: 'Custom',
};

/** Colour and wording differ per environment so a production session is never mistaken for a sandbox one. */
export function EnvironmentBadge({ environment }: { environment: ProfileEnvironment }) {
  return <span className={`env-badge env-${environment}`}>{LABELS[environment]}</span>;
}

/** The line of a confirmation that names where the action goes: the active profile, with its environment. */
export function OnActiveProfile() {
  const profile = useAppInfo().data?.profile;
  if (!profile) return null;
  return (
    <p>
      On <EnvironmentBadge environment={profile.environment} /> “{profile.name}”.
    </p>
  );
}
