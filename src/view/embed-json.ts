/**
 * JSON as the text of a `<script type="application/json">` element: `<` written as \u003c, so that no value (a
 * response holding `</script>` or `<!--`) can end the element or start markup; JSON.parse reads it back unchanged.
 * U+2028 and U+2029 are escaped too, for any reader that takes the text as JavaScript.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
