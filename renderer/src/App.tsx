import { useEffect, useMemo, useState } from 'react';
import { readLastScreen, rememberScreen } from './navigation/last-screen';
import { useNavigation } from './navigation/navigation-store';
import { HOME_SCREEN, screenById, type Screen } from './navigation/screens';
import { ShortcutsDialog } from './navigation/ShortcutsDialog';
import { Sidebar } from './navigation/Sidebar';
import { useShortcuts } from './navigation/use-shortcuts';
import { useMainEvents } from './query/main-events';
import { MovedAsideNotices } from './notices/MovedAsideNotices';
import { ProductionStrip } from './ProductionStrip';
import { StatusBar } from './StatusBar';

export function App() {
  useMainEvents();
  const [screen, setScreen] = useState<Screen>(() => readLastScreen() ?? HOME_SCREEN);
  const [help, setHelp] = useState(false);

  const actions = useMemo(
    () => ({
      open(next: Screen) {
        rememberScreen(next);
        setScreen(next);
      },
      showHelp: () => setHelp(true),
    }),
    [],
  );
  useShortcuts(actions);
  const request = useNavigation((s) => s.request);
  useEffect(() => {
    const next = screenById(request?.screenId ?? null);
    if (next) actions.open(next);
  }, [request, actions]);

  const Current = screen.component;
  return (
    <div className="frame">
      <Sidebar current={screen} onOpen={actions.open} />
      <main className="content">
        <ProductionStrip />
        <MovedAsideNotices />
        <Current key={screen.id} />
      </main>
      <StatusBar />
      {help && <ShortcutsDialog onClose={() => setHelp(false)} />}
    </div>
  );
}
