/** What Analyze This File does by default, shared by the extension and the benchmarks that time it. */

/** The question Analyze This File pre-fills. */
export const DEFAULT_QUESTION = 'Give me an overview of this data';

/**
 * How often the extension asks the local service about a file being read: it answers in about a
 * millisecond, so a steady quarter second shows progress smoothly and loses little once the file is ready.
 */
export const LOCAL_POLL_MS = 250;
