import { OfflineBanner } from '../ui/OfflineBanner';
import { PageHeader } from '../ui/PageHeader';
import { LookupsPanel } from './LookupsPanel';
import { MethodsPanel } from './MethodsPanel';
import { ProcessOrderPanel } from './ProcessOrderPanel';
import './tools.css';

/** Payment tools: the methods listing, process order (seamless checkout), UPI address and currency lookups. */
export function ToolsScreen() {
  return (
    <div className="screen tools-screen">
      <OfflineBanner />
      <PageHeader title="Payment tools" />
      <ProcessOrderPanel />
      <MethodsPanel />
      <LookupsPanel />
    </div>
  );
}
