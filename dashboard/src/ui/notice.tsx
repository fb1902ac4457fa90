/** An error line read out by screen readers when it appears; nothing when there is no error. */
export function ErrorLine({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <p class="error" role="alert">
      {message}
    </p>
  );
}

/** A status line (loading, counts, results) announced politely. */
export function StatusLine({ text, testId }: { text: string; testId?: string }) {
  return (
    <p class="status" role="status" data-testid={testId}>
      {text}
    </p>
  );
}
