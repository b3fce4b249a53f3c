/**
 * One tool call a SUT reported making, as the rep record keeps it (in call order). A command SUT reports them in its
 * JSON answer, a function SUT in its return value, an http SUT in an OpenAI-compatible response's `tool_calls` or a
 * game server's JSON answer. Long arguments and results are bounded as stdout is (`truncated` says so).
 */
export interface ToolCall {
  /** The tool's name as the SUT called it. */
  name: string;
  /** The arguments as an object when they parsed as one, else the text the SUT sent. */
  arguments: Record<string, unknown> | string;
  /** What the tool returned, when the SUT reported it. */
  result?: unknown;
  /** The tool's error, when the call failed; absent or null when it did not. */
  error?: string | null;
  /** When the call was made (ISO 8601), when the SUT said. */
  at?: string;
  /** True when the arguments or the result were cut to the record's bound. */
  truncated?: boolean;
}
