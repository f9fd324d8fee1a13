/** A section whose screen is not built yet says so, rather than showing made-up figures. */
export function SectionUnavailable({ label }: { label: string }) {
  return (
    <section className="panel" aria-labelledby="unavailable-title">
      <h1 id="unavailable-title">{label}</h1>
      <p className="muted">This screen is not part of this version yet. Profiles and credentials are in Settings.</p>
    </section>
  );
}
