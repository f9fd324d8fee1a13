/**
 * Fields the API sent that the contract does not name are kept, as JSON text in an `extra` column beside the
 * named ones: nothing the service says is lost, and a later version of the contract can still read it.
 */

/** The fields of `record` not in `named`, as JSON text; null when there are none. */
export function unnamedFieldsJson(record: object, named: ReadonlySet<string>): string | null {
  let extra: Record<string, unknown> | undefined;
  // for…in, not Object.entries: this runs for every record a sync stores, and builds no pair arrays.
  for (const k in record) if (!named.has(k)) (extra ??= {})[k] = (record as Record<string, unknown>)[k];
  return extra === undefined ? null : JSON.stringify(extra);
}

export function parseUnnamedFields(json: string | null): Record<string, unknown> | null {
  return json === null ? null : (JSON.parse(json) as Record<string, unknown>);
}
