/** Text as HTML text or an attribute's value: `& < > " '` as numeric character references, so it holds no markup. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
