/**
 * The language of the untitled editor "Open in Editor" creates. The webview already turned the
 * fence's label into a VS Code language id (src/webview/blocks/highlight.ts); the host only checks
 * that VS Code knows it, since the message is untrusted and an unknown id would fail the editor.
 */
export function editorLanguage(id: string, known: readonly string[]): string {
  return known.includes(id) ? id : 'plaintext';
}
