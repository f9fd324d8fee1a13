import { useAppInfo } from './query/app-queries';

/**
 * On every screen of a production profile, above everything else: a strip no one can mistake for the sandbox.
 * The status bar's badge alone sat at the bottom edge, where the eye rarely goes.
 */
export function ProductionStrip() {
  const info = useAppInfo();
  if (info.data?.profile.environment !== 'production') return null;
  return (
    <div className="production-strip" role="note" data-testid="production-strip">
      <strong>Production</strong> — {info.data.profile.name}: actions here move real money.
    </div>
  );
}
