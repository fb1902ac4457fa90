/** A small horizontal bar for a 0..1 value with its label and number (score parts in the search playground). */
export function Bar({ label, value }: { label: string; value: number | null | undefined }) {
  const known = typeof value === "number";
  const pct = known ? Math.max(0, Math.min(1, value)) * 100 : 0;
  const text = known ? value.toFixed(3) : "—";
  return (
    <div class="bar" role="img" aria-label={`${label} ${text}`} data-testid={`bar-${label}`}>
      <span class="bar-label">{label}</span>
      <span class="bar-track">
        <span class="bar-fill" style={{ width: `${pct}%` }} />
      </span>
      <span class="bar-value">{text}</span>
    </div>
  );
}
