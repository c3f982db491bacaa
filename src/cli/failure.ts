/** One line that says what went wrong, with the service's trace id when there is one. */
export function describeFailure(err: unknown): string {
  if (err instanceof Error) {
    const traceId = (err as { traceId?: unknown }).traceId;
    const base = err.message || err.name;
    return typeof traceId === 'string' && traceId !== '' ? `${base} (trace id ${traceId})` : base;
  }
  return String(err);
}
