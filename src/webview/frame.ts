/**
 * One animation-frame flush for the whole panel. Views mark themselves dirty as messages arrive
 * and render once per frame, however many patches came in between; that is what keeps a stream
 * of 10k fragments from causing 10k renders.
 */
type Task = () => void;

const pending = new Set<Task>();
const after = new Set<Task>();
let scheduled = false;

function run(): void {
  scheduled = false;
  const tasks = [...pending];
  pending.clear();
  for (const t of tasks) {
    try {
      t();
    } catch (err) {
      reportError(err);
    }
  }
  const late = [...after];
  after.clear();
  for (const t of late) {
    try {
      t();
    } catch (err) {
      reportError(err);
    }
  }
}

let reportError: (err: unknown) => void = (err) => console.error(err);

export function onFrameError(handler: (err: unknown) => void): void {
  reportError = handler;
}

/** Runs `task` in the next frame; scheduling the same function twice runs it once. */
export function inFrame(task: Task): void {
  pending.add(task);
  if (!scheduled) {
    scheduled = true;
    requestAnimationFrame(run);
  }
}

/** Runs `task` after this frame's renders (e.g. keeping the view pinned to the bottom). */
export function afterFrame(task: Task): void {
  after.add(task);
  if (!scheduled) {
    scheduled = true;
    requestAnimationFrame(run);
  }
}

/** Renders everything pending now (before a scroll-to or a final state change). */
export function flushFrame(): void {
  if (pending.size > 0 || after.size > 0) run();
}
