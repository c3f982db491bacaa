/** Escapes text for HTML text and attribute values (the few places that build HTML as strings). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
