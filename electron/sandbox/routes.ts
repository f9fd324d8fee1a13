/**
 * Paths to operations, straight from the OPERATIONS registry: fixed paths first, so
 * `/api/v2/webhook/list` is the list and never an update of a webhook called "list"; then templates
 * such as `/api/v2/webhook/{id}`. Classification lives under `/ai`, so `ai_url` = `base_url + "/ai"`.
 */
import { OPERATIONS, OPERATION_NAMES, type OperationName } from '../../shared/api/operations';

export const AI_PREFIX = '/ai';

export interface Route {
  name: OperationName;
  host: 'base' | 'ai';
  pathParams: Record<string, string>;
}

interface Template {
  name: OperationName;
  pattern: RegExp;
  params: readonly string[];
}

const fixed = new Map<string, OperationName>();
const templates: Template[] = [];

for (const name of OPERATION_NAMES) {
  const spec = OPERATIONS[name];
  const full = (spec.host === 'ai' ? AI_PREFIX : '') + spec.path;
  const params = [...full.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  if (params.length === 0) {
    fixed.set(full, name);
    continue;
  }
  const source = full
    .split(/\{\w+\}/)
    .map(escapeRegExp)
    .join('([^/]+)');
  templates.push({ name, pattern: new RegExp(`^${source}$`), params });
}

export function matchRoute(pathname: string): Route | null {
  const exact = fixed.get(pathname) ?? fixed.get(`${pathname}/`);
  if (exact) return { name: exact, host: OPERATIONS[exact].host, pathParams: {} };
  for (const t of templates) {
    const m = t.pattern.exec(pathname);
    if (!m) continue;
    const values = m.slice(1).map((v) => safeDecode(v));
    if (values.some((v) => v === null)) return null;
    return {
      name: t.name,
      host: OPERATIONS[t.name].host,
      pathParams: Object.fromEntries(t.params.map((p, i) => [p, values[i]!])),
    };
  }
  return null;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function safeDecode(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}
