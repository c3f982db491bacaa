// The webview bundle runs in a browser but the root tsconfig targets Node (lib ES2022 only). These
// references add the DOM types; note that under `tsc -p .` they apply to the whole program, which
// type-checks identically today (a separate webview tsconfig would need the root one to exclude
// src/webview).
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
