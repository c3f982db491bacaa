/**
 * Where a start of the local service spends its time ("412 ms: state 3, sweeps 2, DuckDB 380,
 * listen 1, recover 0"), logged once per start so a slow start can be read from the log instead
 * of guessed at.
 */
export class StartupPhases {
  private readonly started = performance.now();
  private last = this.started;
  private readonly phases: Array<[string, number]> = [];

  /** Ends the current phase under `name`. */
  mark(name: string): void {
    const now = performance.now();
    this.phases.push([name, now - this.last]);
    this.last = now;
  }

  /** Total milliseconds since construction. */
  get totalMs(): number {
    return this.last - this.started;
  }

  summary(): string {
    return `${Math.round(this.totalMs)} ms: ${this.phases.map(([n, ms]) => `${n} ${Math.round(ms)}`).join(', ')}`;
  }
}
